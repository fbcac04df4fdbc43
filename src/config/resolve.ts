import { Secret } from "../core/secret.js";
import { type ConfigError, type Path, errorAt, formatOrigin, formatPath } from "./errors.js";
import { ENV_REFERENCE } from "./interpolate.js";
import { type Layer, hasPath, layerOf, leafPaths, mergeLayers } from "./merge.js";
import type {
  DesiredState,
  EpicLinkSelector,
  GistAudit,
  GroupEntry,
  MigrationAudit,
  ProjectEntry,
  RepositoryEntry,
  RepositorySelector,
  TargetConfig,
  WebhookSettings,
} from "./model.js";
import {
  DefinedOnce,
  type ErrorSink,
  type Place,
  RepositoryConflicts,
  type ResolvedRepository,
  describePlace,
} from "./conflicts.js";
import { branchProtectionProblems, personalRepositoryProblems } from "./rules.js";
import type { BranchProtectionSettings, ConfigFile, RepositorySettings } from "./schema.js";
import type { SourceFile } from "./source.js";
import { unknownNameHint } from "./suggest.js";

export interface ValidFile {
  source: SourceFile;
  data: ConfigFile;
}

export type SourceLayer = Layer<SourceFile>;

/** Where each resolved entry's values were written, for `validate --print`. */
export type LayerIndex = ReadonlyMap<object, SourceLayer[]>;

type Env = Readonly<Record<string, string | undefined>>;
type ProjectInput = NonNullable<ConfigFile["projects"]>[number];
type GroupInput = NonNullable<ConfigFile["groups"]>[number];
type GistInput = NonNullable<NonNullable<ConfigFile["audits"]>["gists"]>;
type MigrationInput = NonNullable<NonNullable<ConfigFile["audits"]>["migrations"]>[number];

const DEFAULT_BASE_URL = { repository: "https://api.github.com", planning: "https://gitlab.com" };
const DEFAULT_TOKEN_ENV = { repository: "GITHUB_TOKEN", planning: "GITLAB_TOKEN" };
/** The connections used when no file defines any. */
const DEFAULT_TARGETS = { github: "repository", gitlab: "planning" } as const;

const SETTINGS_KEYS = ["branch_protection", "webhooks", "invitations"] as const;

/**
 * Builds the desired state from files that passed the schema: merges them in order, applies
 * defaults and profiles, resolves targets, wraps secrets, and refuses two definitions of one resource.
 */
export function resolve(
  files: readonly ValidFile[],
  env: Env,
): { state: DesiredState; errors: ConfigError[]; layers: LayerIndex } {
  return new Resolver(files, env).run();
}

class Resolver implements ErrorSink {
  readonly errors: ConfigError[] = [];
  readonly layers = new Map<object, SourceLayer[]>();
  readonly targets = new Map<string, TargetConfig>();
  readonly profiles = new Map<string, SourceLayer>();
  readonly defaults: SourceLayer[] = [];
  readonly #byKind = new Map<TargetConfig["type"], TargetConfig[]>();

  constructor(
    private readonly files: readonly ValidFile[],
    private readonly env: Env,
  ) {}

  run(): { state: DesiredState; errors: ConfigError[]; layers: LayerIndex } {
    this.#collectTargets();
    this.#collectProfiles();
    this.#collectDefaults();
    const repositories = new RepositoryConflicts(this);
    const seen = new DefinedOnce(this);
    const projects: ProjectEntry[] = [];
    const groups: GroupEntry[] = [];
    const gists: GistAudit[] = [];
    const migrations: MigrationAudit[] = [];
    for (const { source, data } of this.files) {
      data.repositories?.forEach((entry, index) =>
        repositories.add(this.#repository(source, entry, ["repositories", index])),
      );
      data.projects?.forEach((entry, index) =>
        projects.push(this.#project(source, entry, index, seen)),
      );
      data.groups?.forEach((entry, index) => groups.push(this.#group(source, entry, index, seen)));
      const gist = data.audits?.gists;
      if (gist !== undefined) gists.push(this.#gists(source, gist, seen));
      data.audits?.migrations?.forEach((audit, index) =>
        migrations.push(this.#migration(source, audit, index, seen)),
      );
    }
    const state: DesiredState = {
      targets: [...this.targets.values()],
      repositories: repositories.finish(),
      projects,
      groups,
      gists,
      migrations,
      files: this.files.map((file) => file.source.file),
    };
    return { state, errors: this.errors, layers: this.layers };
  }

  place(source: SourceFile, path: Path): Place {
    return { origin: source.locate(path), path };
  }

  error(place: Place, message: string): void {
    this.errors.push(errorAt(place.origin, place.path, message));
  }

  #project(
    source: SourceFile,
    entry: ProjectInput,
    index: number,
    seen: DefinedOnce,
  ): ProjectEntry {
    const path = ["projects", index];
    const target = this.target("planning", entry.target, source, path);
    entry.boards_absent.forEach((board, boardIndex) => {
      const key = board.id !== undefined ? `id ${board.id}` : `"${board.name}"`;
      seen.once(
        `board|${target}|${identity(entry.project)}|${key}`,
        this.place(source, [...path, "boards_absent", boardIndex]),
        `board ${key} of project ${entry.project}`,
      );
    });
    const resolved: ProjectEntry = {
      target: target ?? "",
      project: entry.project,
      boardsAbsent: entry.boards_absent.map((board) =>
        board.id !== undefined ? { id: board.id } : { name: board.name! },
      ),
      origin: source.locate(path),
    };
    this.#remember(resolved, source, path, entry);
    return resolved;
  }

  #group(source: SourceFile, entry: GroupInput, index: number, seen: DefinedOnce): GroupEntry {
    const path = ["groups", index];
    const target = this.target("planning", entry.target, source, path);
    const links = entry.epic_links_absent.map(epicLink);
    links.forEach((link, linkIndex) => {
      const key =
        "linkId" in link
          ? `link id ${link.linkId}`
          : link.relatedGroup !== undefined
            ? `link from epic ${link.epic} to epic ${link.related} of group ${link.relatedGroup}`
            : `link between epics ${Math.min(link.epic, link.related)} and ${Math.max(link.epic, link.related)}`;
      seen.once(
        `epic-link|${target}|${identity(entry.group)}|${key}`,
        this.place(source, [...path, "epic_links_absent", linkIndex]),
        `related-epic ${key} in group ${entry.group}`,
      );
    });
    const resolved: GroupEntry = {
      target: target ?? "",
      group: entry.group,
      epicLinksAbsent: links,
      origin: source.locate(path),
    };
    this.#remember(resolved, source, path, entry);
    return resolved;
  }

  #gists(source: SourceFile, gist: GistInput, seen: DefinedOnce): GistAudit {
    const path = ["audits", "gists"];
    const target = this.target("repository", gist.target, source, path);
    seen.once(`gists|${target}`, this.place(source, path), `the gist audit of target ${target}`);
    const resolved: GistAudit = {
      target: target ?? "",
      allowPublic: gist.allow_public ?? false,
      ...(gist.since !== undefined && { since: gist.since }),
      origin: source.locate(path),
    };
    this.#remember(resolved, source, path, gist);
    return resolved;
  }

  #migration(
    source: SourceFile,
    audit: MigrationInput,
    index: number,
    seen: DefinedOnce,
  ): MigrationAudit {
    const path = ["audits", "migrations", index];
    const target = this.target("repository", audit.target, source, path);
    const owner = audit.org !== undefined ? `organization ${audit.org.toLowerCase()}` : "your user";
    seen.once(
      `migration|${target}|${owner}|${audit.id}`,
      this.place(source, path),
      `the audit of migration ${audit.id} of ${owner}`,
    );
    const states = audit.state === undefined ? undefined : [audit.state].flat();
    const resolved: MigrationAudit = {
      target: target ?? "",
      owner: audit.org !== undefined ? { org: audit.org } : { user: true },
      id: audit.id,
      ...(states !== undefined && { states }),
      ...(audit.repositories !== undefined && { repositories: audit.repositories }),
      origin: source.locate(path),
    };
    this.#remember(resolved, source, path, audit);
    return resolved;
  }

  #remember(resolved: object, source: SourceFile, path: Path, value: unknown): void {
    this.layers.set(resolved, [{ label: "entry", source, path, value }]);
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
        this.#addTarget({
          name,
          type: target.type,
          baseUrl: target.base_url ?? DEFAULT_BASE_URL[target.type],
          tokenEnv: target.token_env ?? DEFAULT_TOKEN_ENV[target.type],
        });
      }
    }
    if (defined.size > 0) return;
    for (const [name, type] of Object.entries(DEFAULT_TARGETS)) {
      this.#addTarget({
        name,
        type,
        baseUrl: DEFAULT_BASE_URL[type],
        tokenEnv: DEFAULT_TOKEN_ENV[type],
      });
    }
  }

  #addTarget(target: Omit<TargetConfig, "token">): void {
    const token = this.env[target.tokenEnv];
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
      this.error(
        this.place(source, path),
        ofKind.length === 0
          ? `no ${kind} target is defined; add one under targets`
          : `several ${kind} targets are defined (${ofKind.map((target) => target.name).join(", ")}); choose one with target:`,
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
      this.error(place, `target "${name}" is a ${found.type} target; this needs a ${kind} target`);
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

  #collectProfiles(): void {
    for (const { source, data } of this.files) {
      for (const [name, settings] of Object.entries(data.profiles ?? {})) {
        const path = ["profiles", name];
        const first = this.profiles.get(name);
        if (first !== undefined) {
          this.error(
            this.place(source, path),
            `profile "${name}" is also defined at ${describePlace(this.place(first.source, first.path))}; define each profile once`,
          );
          continue;
        }
        this.profiles.set(name, { label: `profile ${name}`, source, path, value: settings });
      }
    }
  }

  /** Defaults may be spread over files, but each setting is written in one of them only. */
  #collectDefaults(): void {
    // Settings already written, and every path above one (a clash is the same path, one above it
    // or one below it): looked up by map, so defaults with many keys stay linear.
    const written = new Map<string, Place>();
    const above = new Map<string, Place>();
    for (const { source, data } of this.files) {
      if (data.defaults === undefined) continue;
      const leaves = leafPaths(data.defaults);
      const places = leaves.map((leaf) => this.place(source, ["defaults", ...leaf]));
      leaves.forEach((leaf, index) => {
        const clash =
          written.get(formatPath(leaf)) ??
          above.get(formatPath(leaf)) ??
          leaf
            .map((_, length) => written.get(formatPath(leaf.slice(0, length))))
            .find((place) => place !== undefined);
        if (clash !== undefined) {
          this.error(
            places[index]!,
            `also set in the defaults at ${describePlace(clash)}; write each default in one file`,
          );
        }
      });
      leaves.forEach((leaf, index) => {
        written.set(formatPath(leaf), places[index]!);
        for (let length = 1; length < leaf.length; length++) {
          const key = formatPath(leaf.slice(0, length));
          if (!above.has(key)) above.set(key, places[index]!);
        }
      });
      this.defaults.push({ label: "defaults", source, path: ["defaults"], value: data.defaults });
    }
  }

  #repository(
    source: SourceFile,
    entry: NonNullable<ConfigFile["repositories"]>[number],
    path: Path,
  ): ResolvedRepository {
    const target = this.target("repository", entry.target, source, path);
    const own: Record<string, unknown> = {};
    for (const key of SETTINGS_KEYS) if (entry[key] !== undefined) own[key] = entry[key];

    const profileLayers: SourceLayer[] = [];
    const listed = new Set<string>();
    for (const [index, name] of (entry.profiles ?? []).entries()) {
      const place = this.place(source, [...path, "profiles", index]);
      const profile = this.profiles.get(name);
      if (listed.has(name)) this.error(place, `profile "${name}" is listed twice`);
      else if (profile === undefined) {
        this.error(
          place,
          `unknown profile "${name}"; ${unknownNameHint(name, [...this.profiles.keys()])}`,
        );
      } else profileLayers.push(profile);
      listed.add(name);
    }
    const layers: SourceLayer[] = [
      ...this.defaults,
      ...profileLayers,
      { label: "entry", source, path, value: own },
    ];
    const merged = mergeLayers(layers) as RepositorySettings;
    const origin = source.locate(path);
    const resolved: RepositoryEntry = {
      target: target ?? "",
      origin,
      selector: selector(entry.name, entry.exclude ?? []),
      ...(entry.owner_type !== undefined && { ownerType: entry.owner_type }),
      branchProtection: (merged.branch_protection ?? {}) as Record<
        string,
        BranchProtectionSettings | null
      >,
    };
    this.#checkMergedProtection(resolved, layers, path);
    if (merged.webhooks !== undefined) {
      resolved.webhooks = {
        mode: merged.webhooks.mode ?? "additive",
        hooks: this.#hooks(merged.webhooks.hooks ?? [], layers),
      };
    }
    if (merged.invitations !== undefined) {
      const invitations = merged.invitations;
      resolved.invitations = {
        ...(invitations.allowed_invitees !== undefined && {
          allowedInvitees: invitations.allowed_invitees,
        }),
        ...(invitations.max_age_days !== undefined && { maxAgeDays: invitations.max_age_days }),
        reportExpired: invitations.report_expired ?? true,
      };
    }
    this.layers.set(resolved, layers);
    // What the entry chose itself (its profiles or its own keys) wins over what only defaults gave it.
    const chosen = [...profileLayers, layers[layers.length - 1]!];
    const owns = (settingsPath: Path) => chosen.some((layer) => hasPath(layer.value, settingsPath));
    return {
      entry: resolved,
      layers,
      owns,
      key: `${target}|${entry.name.toLowerCase()}`,
      name: entry.name,
    };
  }

  /** The rules again on the merged settings, where defaults, profiles and the entry meet. */
  #checkMergedProtection(
    entry: RepositoryEntry,
    layers: readonly SourceLayer[],
    entryPath: Path,
  ): void {
    for (const [branch, settings] of Object.entries(entry.branchProtection)) {
      if (settings === null) continue;
      const problems = [
        ...branchProtectionProblems(settings),
        ...(entry.ownerType === "user" ? personalRepositoryProblems(settings) : []),
      ];
      for (const problem of problems) {
        const relative = ["branch_protection", branch, ...problem.path];
        const layer = layerOf(layers, relative) ?? layers[layers.length - 1]!;
        if (layer.label === "entry") {
          this.error(this.place(layer.source, [...layer.path, ...relative]), problem.message);
        } else {
          const from = this.place(layer.source, [...layer.path, ...relative]);
          this.error(
            this.place(layers[layers.length - 1]!.source, [...entryPath, ...relative]),
            `${problem.message} (merged from ${layer.label} at ${formatOrigin(from.origin)})`,
          );
        }
      }
    }
  }

  #hooks(
    hooks: NonNullable<NonNullable<RepositorySettings["webhooks"]>["hooks"]>,
    layers: readonly SourceLayer[],
  ) {
    const layer = layerOf(layers, ["webhooks", "hooks"]) ?? layers[layers.length - 1]!;
    const firstLines = new Map<string, number>();
    return hooks.map((hook, index): WebhookSettings => {
      const path = [...layer.path, "webhooks", "hooks", index];
      const origin = layer.source.locate(path);
      const keys: Array<[string, string, string]> = [[`url ${hook.url}`, "url", "url"]];
      if (hook.id !== undefined) keys.push([`id ${hook.id}`, "id", "id"]);
      for (const [key, what, field] of keys) {
        const first = firstLines.get(key);
        if (first === undefined) firstLines.set(key, origin.line);
        else {
          this.error(
            this.place(layer.source, [...path, field]),
            `another hook of this repository has the same ${what} (line ${first})`,
          );
        }
      }
      if (hook.secret_version !== undefined && hook.secret === undefined) {
        this.error(
          this.place(layer.source, [...path, "secret_version"]),
          "secret_version needs a secret to rotate",
        );
      }
      return {
        url: hook.url,
        ...(hook.id !== undefined && { id: hook.id }),
        ...(hook.events !== undefined && { events: hook.events }),
        ...(hook.active !== undefined && { active: hook.active }),
        ...(hook.content_type !== undefined && { content_type: hook.content_type }),
        ...(hook.branch_filter !== undefined && { branch_filter: hook.branch_filter }),
        ...(hook.config !== undefined && { config: { ...hook.config } }),
        ...(hook.secret !== undefined && { secret: this.#secret(hook.secret) }),
        ...(hook.secret_version !== undefined && { secret_version: String(hook.secret_version) }),
        ...(hook.authorization_header !== undefined && {
          authorization_header: this.#secret(hook.authorization_header),
        }),
        origin,
      };
    });
  }

  #secret(reference: string): Secret {
    const name = ENV_REFERENCE.exec(reference)![1]!;
    return new Secret(this.env[name] ?? "", name);
  }
}

function selector(name: string, exclude: readonly string[]): RepositorySelector {
  const [owner, pattern] = name.split("/") as [string, string];
  if (!/[*?[]/.test(pattern)) return { kind: "name", owner, repo: pattern };
  return { kind: "glob", owner, pattern, exclude: exclude.map((item) => item.split("/")[1]!) };
}

function epicLink(link: GroupInput["epic_links_absent"][number]): EpicLinkSelector {
  if (link.link_id !== undefined) {
    return { linkId: link.link_id, ...(link.epic !== undefined && { epic: link.epic }) };
  }
  return {
    epic: link.epic!,
    related: link.related!,
    ...(link.related_group !== undefined && { relatedGroup: link.related_group }),
  };
}

/** Numeric ids and paths compare as written; paths case-insensitively. */
function identity(value: string | number): string {
  return typeof value === "number" ? `#${value}` : value.toLowerCase();
}
