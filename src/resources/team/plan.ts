import {
  type Change,
  type ChangeError,
  type DiffEntry,
  newChange,
  type PlannedRequest,
} from "../../core/plan.js";
import { deletedAgain } from "../collection.js";
import { changeError, type ResourceReader } from "../context.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { knownUser } from "../logins.js";
import type { PlanOptions } from "../kind.js";
import { credentialUser } from "../user-reads.js";
import {
  type CanonicalTeam,
  canonical,
  diffable,
  type LiveTeams,
  orgTeamsPath,
  teamShape,
} from "./canonical.js";
import { directMembers, membershipPath, planMembers, teamBase, type TeamPlace } from "./members.js";
import type { MemberSettings, TeamSettings, Teams } from "./settings.js";
import { slugOf } from "./slug.js";

/**
 * Plans an organization's teams, keyed by slug: what a team writes is managed, what it leaves out
 * is kept; a team not written is left alone; `null` deletes one (a delete, gated like every
 * delete). New teams are created parents first; an existing team's members are a collection
 * (./members.ts).
 */

const KIND = "team";

/** Where each team will nest once the plan is applied: as written, else as it is. */
function targetParents(teams: Teams, live: LiveTeams): Map<string, string | null> {
  const parents = new Map<string, string | null>();
  for (const [slug, team] of live) parents.set(slug, team.parent);
  for (const [slug, team] of Object.entries(teams)) {
    if (team === null) parents.delete(slug);
    else if (team.parent !== undefined) parents.set(slug, team.parent);
    else if (!live.has(slug)) parents.set(slug, null);
  }
  return parents;
}

/** The written teams, each after its parent when both are written (created parents first). */
function parentsFirst(teams: Teams): string[] {
  const order: string[] = [];
  const visit = (slug: string, path: readonly string[]) => {
    if (order.includes(slug) || path.includes(slug)) return;
    const parent = teams[slug]?.parent;
    if (typeof parent === "string" && parent in teams) visit(parent, [...path, slug]);
    order.push(slug);
  };
  for (const slug of Object.keys(teams)) visit(slug, []);
  return order;
}

/**
 * The privacy a team must have: as written; else closed when it nests or is nested ("For a parent
 * or child team: `closed`", GitHub's "Update a team"); else as it is (GitHub's default for a new
 * top-level team, secret, when new).
 */
function targetPrivacy(
  slug: string,
  written: TeamSettings,
  live: CanonicalTeam | undefined,
  parents: ReadonlyMap<string, string | null>,
): CanonicalTeam["privacy"] | undefined {
  if (written.privacy !== undefined) return written.privacy;
  const nested = (parents.get(slug) ?? null) !== null;
  const parentOfOthers = [...parents.values()].includes(slug);
  if (nested || parentOfOthers) return "closed";
  return live?.privacy;
}

interface Planning {
  reader: ResourceReader;
  org: string;
  teams: Teams;
  live: LiveTeams;
  parents: ReadonlyMap<string, string | null>;
}

/** The fields the team is written with, over what it is. */
function targetOf(p: Planning, slug: string, written: TeamSettings): Partial<CanonicalTeam> {
  const live = p.live.get(slug);
  const target: Partial<CanonicalTeam> = live === undefined ? {} : { ...live };
  delete (target as { slug?: string }).slug;
  target.name = written.name ?? live?.name ?? slug;
  if (written.description !== undefined) target.description = written.description;
  if (written.notification_setting !== undefined) {
    target.notification_setting = written.notification_setting;
  }
  const privacy = targetPrivacy(slug, written, live, p.parents);
  if (privacy !== undefined) target.privacy = privacy;
  if (written.parent !== undefined) target.parent = written.parent;
  return target;
}

/** A team's name must give it the slug it is written under: GitHub derives the slug from the name. */
function nameProblem(org: string, slug: string, name: string): ChangeError | undefined {
  if (slugOf(name) === slugOf(slug)) return undefined;
  return changeError(
    `the name "${name}" would give team ${slug} the slug ${slugOf(name) || "(none)"}: GitHub derives a team's slug from its name, so the name must make ${slug}`,
    "GET",
    orgTeamsPath(org),
    200,
  );
}

/**
 * Nesting GitHub refuses that no rule of the file can see, as it involves teams the file does not
 * write: a parent that stays secret, or a team made secret that keeps child teams.
 */
function nestingProblem(
  p: Planning,
  slug: string,
  target: Partial<CanonicalTeam>,
): ChangeError | undefined {
  const parent = target.parent ?? null;
  const problem =
    parent !== null && !(parent in p.teams) && p.live.get(parent)?.privacy === "secret"
      ? `parent team ${parent} is secret: a parent team is closed (write ${parent} with privacy: closed)`
      : target.privacy === "secret" && [...p.parents.values()].includes(slug)
        ? `${slug} has child teams: a parent team is closed, not secret`
        : undefined;
  return problem === undefined ? undefined : changeError(problem, "GET", orgTeamsPath(p.org), 200);
}

/** What the team's own PATCH or POST carries: the fields that change, parents by slug. */
function body(target: Partial<CanonicalTeam>, before: Partial<CanonicalTeam>) {
  const sent: Record<string, unknown> = {};
  for (const key of ["name", "description", "privacy", "notification_setting"] as const) {
    if (target[key] !== undefined && target[key] !== before[key]) sent[key] = target[key];
  }
  if (target.parent !== undefined && target.parent !== (before.parent ?? null)) {
    // `parent_team_id: null` is how the PATCH takes a parent away; a parent is named by slug, as
    // one created by this plan has no id yet.
    if (target.parent === null) sent.parent_team_id = null;
    else sent.parent_team_slug = target.parent;
  }
  return sent;
}

/**
 * The creating user becomes a maintainer of a team it creates ("When you create a new team, you
 * automatically become a team maintainer", GitHub's "Create a team"): members written
 * authoritative without it, or with it as null, remove it again once the team exists.
 */
async function creatorRemoval(
  p: Planning,
  place: TeamPlace,
  members: MemberSettings | undefined,
): Promise<PlannedRequest[] | ChangeError> {
  const users = members?.users ?? {};
  const authoritative = members?.mode === "authoritative";
  if (!authoritative && !Object.values(users).includes(null)) return [];
  const creator = await credentialUser(p.reader, "it becomes a maintainer of the teams it creates");
  if ("error" in creator) {
    // An App's installation token names no user (GitHub answers GET /user 403): it is no person
    // and becomes no maintainer.
    return creator.error.status === 403 || creator.error.status === 401 ? [] : creator.error;
  }
  const login = creator.login.toLowerCase();
  const written = Object.entries(users).find(([name]) => name.toLowerCase() === login);
  const kept = written === undefined ? !authoritative : written[1] !== null;
  return kept ? [] : [{ method: "DELETE", path: membershipPath(place, creator.login) }];
}

async function createTeam(p: Planning, slug: string, written: TeamSettings): Promise<Change> {
  const base = {
    ...newChange(p.reader.target, p.org, KIND, slug),
    live_fingerprint: fingerprint(null),
  };
  const target = targetOf(p, slug, written);
  const problem = nameProblem(p.org, slug, target.name ?? slug) ?? nestingProblem(p, slug, target);
  if (problem !== undefined) return { ...base, error: problem };
  const place: TeamPlace = { reader: p.reader, org: p.org, slug };
  const users = written.members?.users ?? {};
  for (const [login, role] of Object.entries(users)) {
    if (role === null) continue;
    const known = await knownUser(p.reader, login, [slug, "members", "users", login], "member");
    if ("error" in known) return { ...base, error: known.error };
  }
  const members = Object.entries(users).flatMap(([login, role]): PlannedRequest[] =>
    role === null ? [] : [{ method: "PUT", path: membershipPath(place, login), body: { role } }],
  );
  const creator = await creatorRemoval(p, place, written.members);
  if (!Array.isArray(creator)) return { ...base, error: creator };
  const diff: DiffEntry[] = [
    ...diffValues({}, diffable(target)),
    ...Object.entries(users).flatMap(([login, role]) =>
      role === null ? [] : [{ path: `members.${login.toLowerCase()}`, after: role }],
    ),
  ];
  return {
    ...base,
    action: "create",
    diff,
    requests: [
      { method: "POST", path: orgTeamsPath(p.org), body: body(target, {}) },
      ...members,
      ...creator,
    ],
    ...(creator.length > 0
      ? {
          notes: [
            "GitHub makes whoever creates a team its maintainer: the members written remove the creator once the team exists",
          ],
        }
      : {}),
  };
}

/** The live parents of a team, nearest first. */
function ancestorsOf(p: Planning, slug: string): string[] {
  const found: string[] = [];
  for (let at = p.live.get(slug)?.parent; at != null && !found.includes(at);) {
    found.push(at);
    at = p.live.get(at)?.parent;
  }
  return found;
}

function deleteTeam(p: Planning, slug: string): Change {
  const live = p.live.get(slug);
  const base = {
    ...newChange(p.reader.target, p.org, KIND, slug),
    live_fingerprint: fingerprint(live ?? null),
  };
  if (live === undefined) return base;
  const descendants = (of: string): string[] =>
    [...p.live].flatMap(([child, team]) =>
      team.parent === of ? [child, ...descendants(child)] : [],
    );
  const children = descendants(slug);
  const kept = children.filter((child) => p.teams[child] !== null && p.teams[child] !== undefined);
  if (kept.length > 0) {
    return {
      ...base,
      error: changeError(
        `deleting ${slug} deletes its child teams too (${children.join(", ")}), and ${kept.join(", ")} ${kept.length === 1 ? "is" : "are"} kept here: move ${kept.length === 1 ? "it" : "them"} elsewhere in an apply of its own first, or delete ${kept.length === 1 ? "it" : "them"} too`,
        "DELETE",
        `${orgTeamsPath(p.org)}/${encodeURIComponent(live.slug)}`,
      ),
    };
  }
  const { slug: _slug, ...shown } = live;
  // A team whose ancestor this plan deletes goes with it: its own DELETE would find it gone.
  const ancestor = ancestorsOf(p, slug).find((parent) => p.teams[parent] === null);
  if (ancestor !== undefined) {
    return {
      ...base,
      action: "delete",
      diff: diffValues(diffable(shown), {}),
      notes: [`deleted with its parent team ${ancestor} (GitHub deletes a parent's child teams)`],
    };
  }
  return {
    ...base,
    action: "delete",
    diff: diffValues(diffable(shown), {}),
    requests: [
      { method: "DELETE", path: `${orgTeamsPath(p.org)}/${encodeURIComponent(live.slug)}` },
    ],
    ...(children.length > 0
      ? {
          notes: [
            `its child teams are deleted with it (GitHub deletes a parent's child teams): ${children.join(", ")}`,
          ],
        }
      : {}),
  };
}

async function updateTeam(p: Planning, slug: string, written: TeamSettings): Promise<Change[]> {
  const live = p.live.get(slug)!;
  const { slug: liveSlug, ...before } = live;
  const base = {
    ...newChange(p.reader.target, p.org, KIND, slug),
    live_fingerprint: fingerprint(before),
  };
  const target = targetOf(p, slug, written);
  const problem =
    target.name === before.name ? undefined : nameProblem(p.org, slug, target.name ?? slug);
  const error = problem ?? nestingProblem(p, slug, target);
  const place: TeamPlace = { reader: p.reader, org: p.org, slug: liveSlug };
  const memberChanges =
    written.members === undefined ? [] : await planMembers(place, slug, written.members);
  if (error !== undefined) return [{ ...base, error }, ...memberChanges];
  const diff = diffValues(diffable(before), diffable(target));
  if (diff.length === 0) return [base, ...memberChanges];
  return [
    {
      ...base,
      action: "update",
      diff,
      requests: [{ method: "PATCH", path: teamBase(place), body: body(target, before) }],
    },
    ...memberChanges,
  ];
}

/**
 * The members an apply removed that no configuration names (authoritative mode removed them), as
 * the plan that verifies it sees them: gone from their team's listing, or the listing's error.
 */
function removedMembers(
  p: Planning,
  deleted: readonly Change[],
  planned: readonly Change[],
): Promise<Change[]> {
  return deletedAgain(deleted, planned, async (change) => {
    const match = /^(.+)\/members\/(.+)$/s.exec(change.name);
    // A team's own delete is planned by the name it is written under.
    if (match === null) return "listed";
    const [, slug = "", login = ""] = match;
    const team = p.live.get(slug);
    if (team === undefined) return "gone";
    const listed = await directMembers({ reader: p.reader, org: p.org, slug: team.slug });
    if (listed.kind === "error") return listed.error;
    return listed.kind === "found" && listed.data.has(login) ? "listed" : "gone";
  });
}

export async function planTeams(
  reader: ResourceReader,
  org: string,
  teams: Teams,
  options: PlanOptions,
): Promise<Change[]> {
  const path = orgTeamsPath(org);
  const listed = await reader.list(path, undefined, teamShape);
  if (listed.kind !== "found") {
    const error =
      listed.kind === "error"
        ? listed.error
        : changeError(
            `teams belong to organizations, and ${org} is not one (or ${reader.credential} cannot see it)`,
            "GET",
            path,
            404,
          );
    return Object.keys(teams).map((slug) => ({
      ...newChange(reader.target, org, KIND, slug),
      error,
    }));
  }
  const live: LiveTeams = new Map(
    listed.data.map((team) => [team.slug.toLowerCase(), canonical(team)]),
  );
  const p: Planning = { reader, org, teams, live, parents: targetParents(teams, live) };
  const planned: Change[] = [];
  for (const slug of parentsFirst(teams)) {
    const written = teams[slug];
    if (written === null || written === undefined) planned.push(deleteTeam(p, slug));
    else if (live.has(slug)) planned.push(...(await updateTeam(p, slug, written)));
    else planned.push(await createTeam(p, slug, written));
  }
  const deleted = options.deleted?.at(reader.target, org, KIND) ?? [];
  return [...planned, ...(await removedMembers(p, deleted, planned))];
}
