import { dirname, isAbsolute, join } from "node:path";
import { Secret } from "../core/secret.js";
import { type ConfigError, type Path, errorAt, formatOrigin, formatPath } from "./errors.js";
import { DefinedOnce, type Place, RepositoryConflicts, describePlace } from "./conflicts.js";
import { describeSelector } from "./glob.js";
import { layerOf, leafPaths, mergeLayers } from "./merge.js";
import type {
  AppAuthConfig,
  DesiredState,
  ScopedEntry,
  Selector,
  SectionEntry,
  SettingsLayer,
  TargetConfig,
} from "./model.js";
import { FAMILY_NAMES } from "./fields.js";
import { type ConfigFile, familyOf, projectGlobParts } from "./schema.js";
import { SCOPE_FRAMES, SELECTING_SCOPES } from "./scopes.js";
import type { SourceFile } from "./source.js";
import type { ConfigSpec, SectionSpec, SelectingScope, SettingSpec } from "./spec.js";
import { unknownNameHint } from "./suggest.js";
import { envValue } from "./env.js";

export interface ValidFile {
  source: SourceFile;
  /** Interpolated, secrets wrapped, and valid against the file's schema. */
  data: ConfigFile;
}

type Env = Readonly<Record<string, string | undefined>>;
type RepositoryInput = NonNullable<ConfigFile["repositories"]>[number];
type ProjectInput = NonNullable<ConfigFile["projects"]>[number];

const DEFAULT_BASE_URL = { github: "https://api.github.com", gitlab: "https://gitlab.com" };
const DEFAULT_TOKEN_ENV = { github: "GITHUB_TOKEN", gitlab: "GITLAB_TOKEN" };
/** The connections used when no file defines any: one per family, named after it. */
const DEFAULT_TARGETS = { github: "github", gitlab: "gitlab" } as const;
/**
 * The default `github` target signs in as an App when these are set (the Action's `app-id` and
 * `private-key` inputs set them); a file that defines its targets names its own.
 */
const DEFAULT_APP_ENV = {
  appId: "GITHUB_APP_ID",
  privateKey: "GITHUB_APP_PRIVATE_KEY",
  installationId: "GITHUB_APP_INSTALLATION_ID",
};

/**
 * Builds the desired state from files that passed the schema: merges them in order, resolves
 * targets and profiles, checks the rules on what defaults, profiles and entries make together, and
 * refuses two definitions of one resource.
 */
export function resolve(
  files: readonly ValidFile[],
  env: Env,
  spec: ConfigSpec,
): { state: DesiredState; errors: ConfigError[] } {
  return new Resolver(files, env, spec).run();
}

class Resolver {
  readonly errors: ConfigError[] = [];
  readonly targets = new Map<string, TargetConfig>();
  readonly profiles: Record<SelectingScope, Map<string, SettingsLayer>> = {
    repository: new Map(),
    project: new Map(),
  };
  readonly defaults: Record<SelectingScope, SettingsLayer[]> = { repository: [], project: [] };
  readonly #byKind = new Map<TargetConfig["type"], TargetConfig[]>();
  /** Each selecting scope's setting keys and their place in the spec's order. */
  readonly #settingOrder: Record<SelectingScope, ReadonlyMap<string, number>>;
  /** Each selecting scope's settings that have rules over the merged entry, checked per entry. */
  readonly #ruled: Record<SelectingScope, readonly SettingSpec[]>;

  constructor(
    private readonly files: readonly ValidFile[],
    private readonly env: Env,
    private readonly spec: ConfigSpec,
  ) {
    const order = (scope: SelectingScope) =>
      new Map(spec.settings[scope].map((setting, index) => [setting.key, index]));
    this.#settingOrder = { repository: order("repository"), project: order("project") };
    const ruled = (scope: SelectingScope) =>
      spec.settings[scope].filter((setting) => setting.rules !== undefined);
    this.#ruled = { repository: ruled("repository"), project: ruled("project") };
  }

  run(): { state: DesiredState; errors: ConfigError[] } {
    this.#collectTargets();
    for (const scope of SELECTING_SCOPES) {
      this.#collectProfiles(scope);
      this.#collectDefaults(scope);
    }
    const repositories = new RepositoryConflicts(this, this.spec.settings.repository);
    const projects = new RepositoryConflicts(this, this.spec.settings.project);
    const seen = new DefinedOnce(this);
    const sections: SectionEntry[] = [];
    for (const { source, data } of this.files) {
      data.repositories?.forEach((entry, index) =>
        repositories.add(
          this.#scoped("repository", source, entry, repositorySelector(entry), [
            "repositories",
            index,
          ]),
        ),
      );
      data.projects?.forEach((entry, index) =>
        projects.add(
          this.#scoped("project", source, entry, projectSelector(entry), ["projects", index]),
        ),
      );
      for (const section of this.spec.sections) {
        // One at a time: a section's list may be long enough to overflow the stack as arguments.
        for (const entry of this.#section(source, data, section, seen)) sections.push(entry);
      }
    }
    const removalLimit = this.#removalLimit();
    const state: DesiredState = {
      targets: [...this.targets.values()],
      defaults: this.defaults.repository,
      repositories: repositories.finish(),
      projectDefaults: this.defaults.project,
      projects: projects.finish(),
      sections,
      ...(removalLimit === undefined ? {} : { removalLimit }),
      files: this.files.map((file) => file.source.file),
    };
    return { state, errors: this.errors };
  }

  /** `removal_limit`, written in one file at most: two would depend on the order of the files. */
  #removalLimit(): ConfigFile["removal_limit"] {
    let first: Place | undefined;
    let limit: ConfigFile["removal_limit"];
    for (const { source, data } of this.files) {
      if (data.removal_limit === undefined) continue;
      const place = this.place(source, ["removal_limit"]);
      if (first !== undefined) {
        this.error(
          place,
          `removal_limit is also written at ${describePlace(first)}; write it once`,
        );
        continue;
      }
      first = place;
      limit = data.removal_limit;
    }
    return limit;
  }

  place(source: SourceFile, path: Path): Place {
    return { origin: source.locate(path), path };
  }

  error(place: Place, message: string): void {
    this.errors.push(errorAt(place.origin, place.path, message));
  }

  #section(
    source: SourceFile,
    data: ConfigFile,
    section: SectionSpec,
    seen: DefinedOnce,
  ): SectionEntry[] {
    const [first, second] = section.at;
    const written =
      second === undefined
        ? data[first]
        : (data[first] as Record<string, unknown> | undefined)?.[second];
    if (written === undefined) return [];
    const base: Path = [...section.at];
    const entries: Array<[Path, Record<string, unknown>]> = section.list
      ? (written as Array<Record<string, unknown>>).map((entry, index) => [[...base, index], entry])
      : [[base, written as Record<string, unknown>]];
    const name = section.at.join(".");
    return entries.map(([path, value]) => {
      const target = this.target(
        section.targetType,
        value.target as string | undefined,
        source,
        path,
      );
      for (const defined of section.defines(value, target ?? "")) {
        seen.once(
          `${name}|${target}|${defined.id}`,
          this.place(source, [...path, ...defined.path]),
          defined.what,
        );
      }
      return {
        section: name,
        target: target ?? "",
        origin: source.locate(path),
        value,
        layer: { label: "entry", source, path, value },
      };
    });
  }

  #collectTargets(): void {
    const defined = new Map<string, Place>();
    for (const { source, data } of this.files) {
      for (const [name, target] of Object.entries(data.targets ?? {})) {
        const place = this.place(source, ["targets", name]);
        const first = defined.get(name);
        if (first !== undefined) {
          this.error(
            place,
            `target "${name}" is also defined at ${describePlace(first)}; define each target once`,
          );
          continue;
        }
        defined.set(name, place);
        const app =
          target.app_id === undefined
            ? undefined
            : this.#app(
                Number(target.app_id),
                target.installation_id,
                target.private_key_env !== undefined
                  ? { env: target.private_key_env }
                  : { file: relativeTo(source.file, target.private_key_file ?? "") },
              );
        const type = familyOf(target.type);
        this.#addTarget({
          name,
          type,
          baseUrl: target.base_url ?? DEFAULT_BASE_URL[type],
          tokenEnv: target.token_env ?? DEFAULT_TOKEN_ENV[type],
          ...(app !== undefined ? { app } : {}),
          ...(target.limits !== undefined ? { limits: target.limits } : {}),
        });
      }
    }
    if (defined.size > 0) return;
    const appId = envValue(this.env, DEFAULT_APP_ENV.appId);
    for (const [name, type] of Object.entries(DEFAULT_TARGETS)) {
      const app =
        type === "github" && appId !== undefined && /^[1-9][0-9]{0,15}$/.test(appId)
          ? this.#app(Number(appId), envValue(this.env, DEFAULT_APP_ENV.installationId), {
              env: DEFAULT_APP_ENV.privateKey,
            })
          : undefined;
      this.#addTarget({
        name,
        type,
        baseUrl: DEFAULT_BASE_URL[type],
        tokenEnv: DEFAULT_TOKEN_ENV[type],
        ...(app !== undefined ? { app } : {}),
      });
    }
  }

  /** App authentication; a key from the environment is read now, like tokens (absent is no error). */
  #app(
    appId: number,
    installationId: number | string | undefined,
    key: { env: string } | { file: string },
  ): AppAuthConfig {
    const pem = "env" in key ? envValue(this.env, key.env) : undefined;
    return {
      appId,
      ...(installationId !== undefined && /^[1-9][0-9]*$/.test(String(installationId))
        ? { installationId: Number(installationId) }
        : {}),
      privateKey:
        "env" in key && pem !== undefined && pem !== ""
          ? { env: key.env, value: new Secret(pem, key.env) }
          : key,
    };
  }

  #addTarget(target: Omit<TargetConfig, "token">): void {
    const token = envValue(this.env, target.tokenEnv);
    this.targets.set(target.name, {
      ...target,
      baseUrl: target.baseUrl.replace(/\/+$/, ""),
      ...(token !== undefined && token !== "" && { token: new Secret(token, target.tokenEnv) }),
    });
  }

  /** Resolves an entry's target: the one named, or the only one of the kind; undefined after an error. */
  target(
    kind: TargetConfig["type"],
    name: string | undefined,
    source: SourceFile,
    path: Path,
  ): string | undefined {
    if (name === undefined) {
      const ofKind = this.#ofKind(kind);
      if (ofKind.length === 1) return ofKind[0]!.name;
      const family = FAMILY_NAMES[kind];
      this.error(
        this.place(source, path),
        ofKind.length === 0
          ? `no ${family} target is defined; add one under targets (type: ${kind})`
          : `several ${family} targets are defined (${ofKind.map((target) => target.name).join(", ")}); choose one with target:`,
      );
      return undefined;
    }
    const found = this.targets.get(name);
    const place = this.place(source, [...path, "target"]);
    if (found === undefined) {
      this.error(
        place,
        `unknown target "${name}"; ${unknownNameHint(name, [...this.targets.keys()])}`,
      );
      return undefined;
    }
    if (found.type !== kind) {
      this.error(
        place,
        `target "${name}" is a ${FAMILY_NAMES[found.type]} target; this needs a ${FAMILY_NAMES[kind]} target`,
      );
      return undefined;
    }
    return name;
  }

  /** The targets of a kind, listed once: every entry asks, and a file may hold many thousands. */
  #ofKind(kind: TargetConfig["type"]): TargetConfig[] {
    let targets = this.#byKind.get(kind);
    if (targets === undefined) {
      targets = [...this.targets.values()].filter((target) => target.type === kind);
      this.#byKind.set(kind, targets);
    }
    return targets;
  }

  #collectProfiles(scope: SelectingScope): void {
    const key = SCOPE_FRAMES[scope].profiles;
    const profiles = this.profiles[scope];
    for (const { source, data } of this.files) {
      for (const [name, settings] of Object.entries(data[key] ?? {})) {
        const path = [key, name];
        const first = profiles.get(name);
        if (first !== undefined) {
          this.error(
            this.place(source, path),
            `profile "${name}" is also defined at ${describePlace(this.place(first.source, first.path))}; define each profile once`,
          );
          continue;
        }
        profiles.set(name, { label: `profile ${name}`, source, path, value: settings });
      }
    }
  }

  /**
   * Defaults may be spread over files, but each setting is written in one of them only: a leaf, or
   * a mapping one file writes whole while another writes inside it. Checked by map, not by scan, so
   * it stays linear in the number of values.
   */
  #collectDefaults(scope: SelectingScope): void {
    const at = SCOPE_FRAMES[scope].defaults;
    const leaves = new Map<string, Place>();
    const inside = new Map<string, Place>();
    for (const { source, data } of this.files) {
      const defaults = data[at];
      if (defaults === undefined) continue;
      const written = leafPaths(defaults);
      for (const leaf of written) {
        const place = this.place(source, [at, ...leaf]);
        const ancestors = leaf.slice(0, -1).map((_, end) => formatPath(leaf.slice(0, end + 1)));
        const key = formatPath(leaf);
        const clash =
          leaves.get(key) ??
          inside.get(key) ??
          ancestors.map((ancestor) => leaves.get(ancestor)).find((found) => found !== undefined);
        if (clash !== undefined) {
          this.error(
            place,
            `also set in the defaults at ${describePlace(clash)}; write each default in one file`,
          );
        }
      }
      for (const leaf of written) {
        const place = this.place(source, [at, ...leaf]);
        leaves.set(formatPath(leaf), place);
        for (let end = 1; end < leaf.length; end++) {
          const ancestor = formatPath(leaf.slice(0, end));
          if (!inside.has(ancestor)) inside.set(ancestor, place);
        }
      }
      this.defaults[scope].push({ label: at, source, path: [at], value: defaults });
    }
  }

  /** An entry of a selecting scope (`repositories`, `projects`), layered and checked. */
  #scoped(
    scope: SelectingScope,
    source: SourceFile,
    entry: RepositoryInput | ProjectInput,
    selected: Selector,
    path: Path,
  ) {
    const frame = SCOPE_FRAMES[scope];
    const target = this.target(frame.targetType, entry.target, source, path);
    const own: Record<string, unknown> = {};
    const settingOrder = this.#settingOrder[scope];
    // The entry's own keys, few, rather than every kind's (a file may hold 100,000 entries), put in
    // the kinds' order.
    const written = Object.keys(entry).filter(
      (key) => settingOrder.has(key) && (entry as Record<string, unknown>)[key] !== undefined,
    );
    if (written.length > 1) {
      written.sort((a, b) => settingOrder.get(a)! - settingOrder.get(b)!);
    }
    for (const key of written) own[key] = (entry as Record<string, unknown>)[key];
    const ownLayer: SettingsLayer = { label: "entry", source, path, value: own };
    const layers: SettingsLayer[] =
      entry.profiles === undefined
        ? [ownLayer]
        : [...this.#profileLayers(scope, source, entry.profiles, path), ownLayer];
    const defaults = this.defaults[scope];
    const all = defaults.length === 0 ? layers : [...defaults, ...layers];
    const ownerType = "owner_type" in entry ? (entry as RepositoryInput).owner_type : undefined;
    const resolved: ScopedEntry = {
      scope,
      target: target ?? "",
      origin: source.locate(path),
      selector: selected,
      ...(ownerType !== undefined && { ownerType }),
      layers,
      settings: mergeLayers(all) as Record<string, unknown>,
    };
    this.#checkMerged(resolved, all, path);
    // Entries with the same name and conditions select the same repositories (or projects).
    const name = describeSelector(resolved.selector);
    return { entry: resolved, key: `${target}|${name.toLowerCase()}`, name };
  }

  /** The profiles an entry lists, in order; an unknown or repeated one is an error. */
  #profileLayers(
    scope: SelectingScope,
    source: SourceFile,
    names: readonly string[],
    path: Path,
  ): SettingsLayer[] {
    const profiles = this.profiles[scope];
    const found: SettingsLayer[] = [];
    const listed = new Set<string>();
    for (const [index, name] of names.entries()) {
      const place = this.place(source, [...path, "profiles", index]);
      const profile = profiles.get(name);
      if (listed.has(name)) this.error(place, `profile "${name}" is listed twice`);
      else if (profile === undefined) {
        this.error(place, `unknown profile "${name}"; ${this.#profileHint(scope, name)}`);
      } else found.push(profile);
      listed.add(name);
    }
    return found;
  }

  /** What to say of an unknown profile: a near name, or the other scope's list that holds it. */
  #profileHint(scope: SelectingScope, name: string): string {
    const other = SELECTING_SCOPES.find((candidate) => candidate !== scope)!;
    if (this.profiles[other].has(name)) {
      const frame = SCOPE_FRAMES[scope];
      return `${SCOPE_FRAMES[other].profiles} holds it, but ${frame.list} entries take theirs from ${frame.profiles}`;
    }
    return unknownNameHint(name, [...this.profiles[scope].keys()]);
  }

  /**
   * The rules again on the merged settings, where defaults, profiles and the entry meet; `layers`
   * are the defaults and the entry's layers.
   */
  #checkMerged(entry: ScopedEntry, layers: readonly SettingsLayer[], entryPath: Path): void {
    const own = entry.layers[entry.layers.length - 1]!;
    for (const setting of this.#ruled[entry.scope]) {
      const value = entry.settings[setting.key];
      if (value === undefined || setting.rules === undefined) continue;
      const facts = {
        settings: entry.settings,
        glob: entry.selector.kind === "glob",
        ...(entry.ownerType === undefined ? {} : { ownerType: entry.ownerType }),
      };
      for (const problem of setting.rules(value, facts)) {
        const relative = [setting.key, ...problem.path];
        const layer = layerOf(layers, relative) ?? own;
        const message =
          problem.sameAs === undefined
            ? problem.message
            : `${problem.message} (line ${this.#lineOf(layers, [setting.key, ...problem.sameAs])})`;
        if (layer.label === "entry") {
          this.error(this.place(layer.source, [...layer.path, ...relative]), message);
        } else {
          const from = this.place(layer.source, [...layer.path, ...relative]);
          this.error(
            this.place(own.source, [...entryPath, ...relative]),
            `${message} (merged from ${layer.label} at ${formatOrigin(from.origin)})`,
          );
        }
      }
    }
  }

  #lineOf(layers: readonly SettingsLayer[], path: Path): number {
    const layer = layerOf(layers, path) ?? layers[layers.length - 1]!;
    return layer.source.locate([...layer.path, ...path]).line;
  }
}

function repositorySelector(entry: RepositoryInput): Selector {
  const [owner, pattern] = entry.name.split("/") as [string, string];
  if (!/[*?[]/.test(pattern)) return { kind: "name", owner, repo: pattern };
  const wanted = entry.where?.properties;
  return {
    kind: "glob",
    owner,
    pattern,
    exclude: (entry.exclude ?? []).map((item) => item.split("/")[1]!),
    ...(wanted !== undefined && {
      properties: Object.fromEntries(
        Object.entries(wanted).map(([name, value]) => [
          name.toLowerCase(),
          (Array.isArray(value) ? value : [value]).map(String),
        ]),
      ),
    }),
  };
}

/**
 * What a project entry selects: a numeric id (owner "", as written), a full path split into its
 * namespace and the project's path, or a glob below the group its literal segments name.
 */
function projectSelector(entry: ProjectInput): Selector {
  const written = String(entry.project);
  if (typeof entry.project === "number") return { kind: "name", owner: "", repo: written };
  if (!/[*?[]/.test(written)) {
    const slash = written.lastIndexOf("/");
    return { kind: "name", owner: written.slice(0, slash), repo: written.slice(slash + 1) };
  }
  const { root, pattern } = projectGlobParts(written);
  return {
    kind: "glob",
    owner: root,
    pattern,
    exclude: (entry.exclude ?? []).map((item) => item.slice(root.length + 1)),
  };
}

/** A path written in a config file, relative to that file's directory. */
function relativeTo(configFile: string, path: string): string {
  return isAbsolute(path) ? path : join(dirname(configFile), path);
}
