import {
  describeSelector,
  selectedName,
  selectsProject,
  selectsRepository,
} from "../config/glob.js";
import {
  type DesiredState,
  type ScopedEntry,
  scopeState,
  type SectionEntry,
} from "../config/model.js";
import { SELECTING_SCOPES } from "../config/scopes.js";
import type { SelectingScope } from "../config/spec.js";
import {
  type Change,
  type ChangesByPlace,
  type DiffEntry,
  makePlan,
  orderChanges,
  type PartialPlan,
  type Plan,
} from "../core/plan.js";
import type { ResourceReader } from "../resources/context.js";
import { KIND_NAMES, SCOPED_KINDS, sectionNamed } from "../resources/index.js";
import { expandScope, ownerKey, type ScopedDesired, settingsOf } from "./expand.js";
import type { ReadsMode } from "./bulk/reads.js";
import { annotated, defaultsOf, holdBack, planWork } from "./plan.js";
import { identity, keepParts, partsOf, type SettingPart } from "./setting-parts.js";
import { shareReads } from "./shared-reads.js";

/**
 * The plan of what a change to the configuration changes (`plan --changed-from REF`): the desired
 * state at a revision and the desired state now are resolved (defaults, profiles, globs, `${VAR}`)
 * and compared resource by resource; only the resources that differ are read and planned. Each of
 * them is also planned against what the revision asked for, over the same reads, so a difference
 * the service already had before the change is told apart from what the change makes.
 *
 * Globs are listed only where the comparison needs them (see `whatToCompare`); nothing of an
 * unchanged repository is read.
 */

export interface ChangedPlanInput {
  /** The desired state at the revision; undefined when the configuration did not exist there. */
  base: DesiredState | undefined;
  head: DesiredState;
  /** The revision, as given: recorded in the plan. */
  changedFrom: string;
  readers: ReadonlyMap<string, ResourceReader>;
  now: number;
  rotateSecrets?: boolean;
  rotateSecretNames?: readonly string[];
  /** When the plan verifies an apply: the deletes it carried out (see `PlanOptions.deleted`). */
  deleted?: ChangesByPlace;
  /** How repositories are read (`--reads`), as for a whole plan. */
  reads?: ReadsMode;
}

const repoKey = (target: string, owner: string, name: string) =>
  `${ownerKey(target, owner)}/${name.toLowerCase()}`;

interface Entries {
  entries: ScopedEntry[];
  /** What the entries ask for, in order: equal signatures ask for the same thing. */
  signature: string;
}

/** A scope's entries and the defaults under them, as one state has them. */
type ScopeState = ReturnType<typeof scopeState>;

/** A state's glob entries by owner and named entries by repository, each in file order. */
function indexEntries(state: ScopeState) {
  const globs = new Map<string, ScopedEntry[]>();
  const named = new Map<string, ScopedEntry[]>();
  for (const entry of state.entries) {
    const selector = entry.selector;
    const [map, key] =
      selector.kind === "glob"
        ? [globs, ownerKey(entry.target, selector.owner)]
        : [named, repoKey(entry.target, selector.owner, selector.repo)];
    const list = map.get(key);
    if (list) list.push(entry);
    else map.set(key, [entry]);
  }
  const signed = (map: Map<string, ScopedEntry[]>) =>
    new Map<string, Entries>(
      [...map].map(([key, entries]) => [
        key,
        {
          entries,
          signature: identity(
            entries.map((entry) => ({
              selector: entry.selector,
              layers: entry.layers.map((layer) => layer.value),
            })),
          ),
        },
      ]),
    );
  return { globs: signed(globs), named: signed(named) };
}

const union = <T>(...sets: Array<Iterable<T>>) => new Set(sets.flatMap((set) => [...set]));

/**
 * Which owners' globs to list, which repositories to read one by one instead, and which named
 * repositories to compare. An owner whose glob entries changed (or whose repositories changed
 * defaults reach) is listed: any of its repositories may be affected. A repository whose own entries
 * changed needs the globs of its owner that could select it: for a few such repositories, reading
 * each (and its custom properties) costs less than listing the owner, which takes a request per
 * hundred repositories at least as many as the configuration names there.
 */
function whatToCompare(scope: SelectingScope, base: ScopeState, head: ScopeState) {
  const layers = (state: ScopeState) => identity(state.defaults.map((layer) => layer.value));
  const defaultsChanged = layers(base) !== layers(head);
  const before = indexEntries(base);
  const after = indexEntries(head);
  const listed = new Set<string>();
  for (const key of union(before.globs.keys(), after.globs.keys())) {
    if (defaultsChanged || before.globs.get(key)?.signature !== after.globs.get(key)?.signature) {
      listed.add(key);
    }
  }
  const named = new Set<string>();
  const wanted = new Map<string, string[]>();
  const namedPerOwner = new Map<string, number>();
  for (const key of union(before.named.keys(), after.named.keys())) {
    const { target, selector } = (after.named.get(key) ?? before.named.get(key))!.entries[0]!;
    if (selector.kind !== "name") continue;
    const owner = ownerKey(target, selector.owner);
    namedPerOwner.set(owner, (namedPerOwner.get(owner) ?? 0) + 1);
    const then = before.named.get(key);
    const now = after.named.get(key);
    if (!defaultsChanged && then?.signature === now?.signature) continue;
    named.add(key);
    // A glob of its owner that could select it takes part in what it resolves to.
    const fullName = selectedName(selector.owner, selector.repo);
    for (const [globOwner, globs] of globsCovering(scope, target, selector.owner, before, after)) {
      if (!globs.some((glob) => SELECTS[scope](glob.selector, fullName))) continue;
      wanted.set(globOwner, [...(wanted.get(globOwner) ?? []), selector.repo]);
    }
  }
  const lookUp = new Map<string, string[]>();
  for (const [owner, names] of wanted) {
    if (listed.has(owner)) continue;
    const listingPages = Math.max(1, Math.ceil((namedPerOwner.get(owner) ?? 0) / 100));
    // Reading a few repositories one by one is GitHub's (./repository-listing.ts); a group's
    // projects are listed.
    if (scope === "repository" && names.length <= listingPages) lookUp.set(owner, names);
    else listed.add(owner);
  }
  // A named entry refines what the globs of a listed owner set: it is compared with them.
  for (const key of union(before.named.keys(), after.named.keys())) {
    const { target, selector } = (after.named.get(key) ?? before.named.get(key))!.entries[0]!;
    const covering = globsCovering(scope, target, selector.owner, before, after);
    if ([...covering.keys()].some((owner) => listed.has(owner))) named.add(key);
  }
  return { listed, lookUp, named, after };
}

const SELECTS = { repository: selectsRepository, project: selectsProject };

/**
 * The glob entries (of either state) that could select what a named entry of `owner` names, by the
 * key of the owner they list: a repository's owner's; a project's namespace's, and its ancestors'
 * (a glob of `acme` reaches `acme/platform`'s projects).
 */
function globsCovering(
  scope: SelectingScope,
  target: string,
  owner: string,
  before: ReturnType<typeof indexEntries>,
  after: ReturnType<typeof indexEntries>,
): Map<string, ScopedEntry[]> {
  const owners =
    scope === "repository"
      ? [owner]
      : owner.split("/").map((_, index, levels) => levels.slice(0, index + 1).join("/"));
  const covering = new Map<string, ScopedEntry[]>();
  for (const candidate of owners) {
    const key = ownerKey(target, candidate);
    const globs = [
      ...(before.globs.get(key)?.entries ?? []),
      ...(after.globs.get(key)?.entries ?? []),
    ];
    if (globs.length > 0) covering.set(key, globs);
  }
  return covering;
}

function byId(parts: readonly SettingPart[]): Map<string, SettingPart> {
  return new Map(parts.map((part) => [part.id, part]));
}

interface Comparison {
  head: ScopedDesired[];
  base: ScopedDesired[];
  unchanged: number;
  released: string[];
}

/** Each repository's settings cut down to the resources whose desired state differs. */
function compareRepositories(
  baseRepos: readonly ScopedDesired[],
  headRepos: readonly ScopedDesired[],
): Comparison {
  const result: Comparison = { head: [], base: [], unchanged: 0, released: [] };
  const keyOf = (repo: ScopedDesired) => repoKey(repo.target, repo.owner, repo.name);
  const before = new Map(baseRepos.map((repo) => [keyOf(repo), repo]));
  const after = new Map(headRepos.map((repo) => [keyOf(repo), repo]));
  for (const key of union(before.keys(), after.keys())) {
    const then = before.get(key);
    const now = after.get(key);
    const repo = (now ?? then)!;
    const scope = `${repo.target}/${selectedName(repo.owner, repo.name)}`;
    const headSettings: Record<string, unknown> = {};
    const baseSettings: Record<string, unknown> = {};
    for (const kind of SCOPED_KINDS[repo.scope]) {
      const setting = kind.part.setting;
      const thenParts = byId(partsOf(setting, then?.settings[setting.key]));
      const nowParts = byId(partsOf(setting, now?.settings[setting.key]));
      const headPaths: SettingPart["path"][] = [];
      const basePaths: SettingPart["path"][] = [];
      for (const [id, part] of nowParts) {
        const was = thenParts.get(id);
        if (was !== undefined && identity(was.value) === identity(part.value)) {
          result.unchanged += 1;
          continue;
        }
        headPaths.push(...part.paths);
        if (was !== undefined) basePaths.push(...was.paths);
      }
      for (const [id, part] of thenParts) {
        if (!nowParts.has(id)) result.released.push(`${scope}: ${part.what}`);
      }
      if (headPaths.length > 0) {
        headSettings[setting.key] = keepParts(now!.settings[setting.key], headPaths);
      }
      if (basePaths.length > 0) {
        baseSettings[setting.key] = keepParts(then!.settings[setting.key], basePaths);
      }
    }
    if (now !== undefined && Object.keys(headSettings).length > 0) {
      result.head.push({ ...now, settings: headSettings });
    }
    if (then !== undefined && Object.keys(baseSettings).length > 0) {
      result.base.push({ ...then, settings: baseSettings });
    }
  }
  return result;
}

interface SectionComparison {
  head: SectionEntry[];
  base: SectionEntry[];
  /** Unchanged entries of kinds that hold back other changes: read for their holds only. */
  holding: SectionEntry[];
  unchanged: number;
  released: string[];
}

function sectionParts(entry: SectionEntry) {
  const section = sectionNamed(entry.section);
  if (section === undefined) throw new Error(`no kind plans the section ${entry.section}`);
  const spec = section.part.spec;
  return {
    section,
    scope: `${entry.target}/${spec.scope(entry.value)}`,
    defined: spec.defines(entry.value, entry.target),
  };
}

/** Section entries (a project's clean-ups, an audit) are compared and planned whole. */
function compareSections(base: readonly SectionEntry[], head: readonly SectionEntry[]) {
  const result: SectionComparison = { head: [], base: [], holding: [], unchanged: 0, released: [] };
  const signature = (entry: SectionEntry) =>
    identity({ section: entry.section, target: entry.target, value: entry.value });
  const waiting = [...base];
  const take = (matches: (entry: SectionEntry) => boolean) => {
    const index = waiting.findIndex(matches);
    return index < 0 ? undefined : waiting.splice(index, 1)[0];
  };
  const changed: SectionEntry[] = [];
  for (const entry of head) {
    const same = take((then) => signature(then) === signature(entry));
    if (same === undefined) {
      changed.push(entry);
      continue;
    }
    const { section, defined } = sectionParts(entry);
    result.unchanged += defined.length;
    if (section.part.everyShard) result.holding.push(entry);
  }
  for (const entry of changed) {
    const { scope, defined } = sectionParts(entry);
    result.head.push(entry);
    const then = take(
      (candidate) => candidate.section === entry.section && sectionParts(candidate).scope === scope,
    );
    if (then === undefined) continue;
    result.base.push(then);
    const ids = new Set(defined.map((item) => item.id));
    for (const item of sectionParts(then).defined) {
      if (!ids.has(item.id)) result.released.push(`${scope}: ${item.what}`);
    }
  }
  for (const entry of waiting) {
    const { scope, defined } = sectionParts(entry);
    result.released.push(...defined.map((item) => `${scope}: ${item.what}`));
  }
  return result;
}

/** What a diff entry says, for finding the same difference in two plans of one resource. */
const differenceOf = (entry: DiffEntry) =>
  identity({ path: entry.path, before: entry.before, after: entry.after });

/**
 * Marks the differences a resource had already before the change: the plan against the revision's
 * desired state has them too, with the same values on both sides.
 */
function markPreexisting(change: Change, before: Change | undefined): Change {
  if (before === undefined || before.error !== undefined || change.error !== undefined) {
    return change;
  }
  const known = new Set(before.diff.map(differenceOf));
  if (!change.diff.some((entry) => known.has(differenceOf(entry)))) return change;
  return {
    ...change,
    diff: change.diff.map((entry) =>
      known.has(differenceOf(entry)) ? { ...entry, preexisting: true } : entry,
    ),
  };
}

/**
 * One selecting scope of a PR-scoped plan: what of it to read (see `whatToCompare`), both states'
 * expansions of it, and their resources compared; `unlisted` names the globs left unlisted, whose
 * unchanged resources are counted as such.
 */
async function compareScope(
  scope: SelectingScope,
  baseState: DesiredState,
  headState: DesiredState,
  shared: ReadonlyMap<string, ResourceReader>,
) {
  const base = scopeState(baseState, scope);
  const head = scopeState(headState, scope);
  const { listed, lookUp, named, after } = whatToCompare(scope, base, head);
  const compared = (state: ScopeState) => ({
    defaults: state.defaults,
    entries: state.entries.filter((entry) => {
      const selector = entry.selector;
      if (selector.kind === "name") {
        return named.has(repoKey(entry.target, selector.owner, selector.repo));
      }
      const owner = ownerKey(entry.target, selector.owner);
      // A target the configuration no longer connects cannot be read.
      return (listed.has(owner) || lookUp.has(owner)) && shared.has(entry.target);
    }),
  });
  const [baseExpansion, headExpansion] = await Promise.all([
    expandScope(scope, compared(base), shared, lookUp),
    expandScope(scope, compared(head), shared, lookUp),
  ]);
  const repos = compareRepositories(baseExpansion.repos, headExpansion.repos);
  for (const [key, { entries }] of after.named) {
    if (named.has(key)) continue;
    const settings = settingsOf(head.defaults, entries);
    for (const kind of SCOPED_KINDS[scope]) {
      repos.unchanged += partsOf(kind.part.setting, settings[kind.part.setting.key]).length;
    }
  }
  const unlisted: string[] = [];
  for (const [key, { entries }] of after.globs) {
    if (listed.has(key)) continue;
    for (const entry of entries) unlisted.push(describeSelector(entry.selector));
  }
  return { repos, unlisted, errors: headExpansion.errors };
}

/** The plan of the resources whose resolved desired state differs from the revision's. */
export async function planChanged({
  base: given,
  head,
  changedFrom,
  readers,
  now,
  rotateSecrets = false,
  rotateSecretNames = [],
  deleted,
  reads,
}: ChangedPlanInput): Promise<Plan> {
  // Without a configuration at the revision, everything is new.
  const base: DesiredState = given ?? {
    ...head,
    defaults: [],
    repositories: [],
    projectDefaults: [],
    projects: [],
    sections: [],
  };
  const shared = shareReads(readers);
  const scopes = await Promise.all(
    SELECTING_SCOPES.map((scope) => compareScope(scope, base, head, shared)),
  );
  const repos: Comparison = {
    head: scopes.flatMap((one) => one.repos.head),
    base: scopes.flatMap((one) => one.repos.base),
    unchanged: scopes.reduce((sum, one) => sum + one.repos.unchanged, 0),
    released: scopes.flatMap((one) => one.repos.released),
  };
  const sections = compareSections(base.sections, head.sections);
  const unchanged = repos.unchanged + sections.unchanged;
  const unlisted = new Set(scopes.flatMap((one) => one.unlisted));
  const headErrors = scopes.flatMap((one) => one.errors);

  const options = { now, rotateSecrets, rotateSecretNames };
  const [planned, before, holding] = await Promise.all([
    planWork(
      {
        repos: repos.head,
        errors: headErrors,
        sections: sections.head,
        defaults: defaultsOf(head),
      },
      shared,
      { ...options, ...(deleted ? { deleted } : {}) },
      reads,
    ),
    planWork({ repos: repos.base, errors: [], sections: sections.base }, shared, options, reads),
    planWork({ repos: [], errors: [], sections: sections.holding }, shared, options),
  ]);
  const earlier = new Map(before.changes.map((change) => [change.address, change]));
  const changes = planned.changes.map((change) =>
    markPreexisting(change, earlier.get(change.address)),
  );
  holdBack(changes, [...planned.holds, ...holding.holds]);
  const partial: PartialPlan = {
    changed_from: changedFrom,
    unchanged,
    unlisted: [...unlisted],
    no_longer_managed: [...repos.released, ...sections.released],
  };
  return { ...makePlan(annotated(orderChanges(changes, KIND_NAMES))), partial };
}
