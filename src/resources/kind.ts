import type * as z from "zod";
import type { SectionSpec, SettingSpec } from "../config/spec.js";
import type {
  Change,
  ChangeError,
  ChangesByPlace,
  DiffEntry,
  PlannedRequest,
} from "../core/plan.js";
import type { RepoRef, ResourceReader } from "./context.js";
import type { RepositoryGraphqlRead } from "./graphql-read.js";
import type { OrganizationSideRead } from "./organization-side.js";

/**
 * One kind of resource, described in one place: where it is configured, how its live state is read
 * and planned (normalize, diff, requests), how a write is verified, and how live state is exported.
 * The registry (./index.ts) lists the kinds; the loader, planner, apply, verify and export read it,
 * so adding a kind is its module, its sandbox routes and one line there (docs/adding-a-kind.md).
 *
 * A part is typed by its schema `S`: every method is given the value the schema describes
 * (`z.output<S>`, secrets as Secret objects) and export returns it as written (`z.input<S>`, secrets
 * as `${NAME}`). A kind is written with `defineKind`, which infers each part's schema, so no kind
 * casts its value. The registry holds the kinds erased (`KindModule`: every schema `z.ZodType`, every
 * value `unknown`); that is sound because the engine hands each part only the value found under
 * its own key, which its own schema checked.
 */
export interface Kind<
  R extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  E extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
  G extends z.ZodType = z.ZodType,
  I extends z.ZodType = z.ZodType,
> {
  /** The kind's name in addresses and plans, e.g. "branch_protection". */
  readonly name: string;
  /** Desired state per repository: a key of the repository settings. */
  readonly repository?: RepositoryPart<R>;
  /** Desired state per organization: a key of an `organizations` entry. */
  readonly organization?: OrganizationPart<O>;
  /**
   * Desired state per GitLab project: a key of the project settings (`project_defaults`,
   * `project_profiles` and `projects` entries), planned as a repository part is.
   */
  readonly project?: ProjectPart<P>;
  /** Desired state per GitLab group: a key of a `groups` entry. */
  readonly group?: GroupPart<G>;
  /** Desired state of a GitLab instance itself: a key of an `instance` entry. */
  readonly instance?: InstancePart<I>;
  /** Desired state in a section of the file of its own. */
  readonly section?: SectionPart<E>;
  /**
   * What differs between what a write sent and what the service answered, or what the answer to a
   * GET among a change's requests lacks of the request's `expect` (nothing: agreed).
   */
  verify?(request: PlannedRequest, response: unknown): DiffEntry[];
}

/** A kind as the registry holds it, whatever its parts' schemas. */
export type KindModule = Kind;

/**
 * A kind, with each part's value typed by the part's schema. Every member of a part is a method, so
 * the typed kind is a KindModule without a cast (TypeScript compares method parameters both ways).
 */
export function defineKind<
  R extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  E extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
  G extends z.ZodType = z.ZodType,
  I extends z.ZodType = z.ZodType,
>(kind: Kind<R, O, E, P, G, I>): KindModule {
  return kind;
}

export interface PlanOptions {
  /** Wall-clock time in ms, for audits of ages. */
  now: number;
  /** Send every write-only value (webhook secrets, authorization headers, secrets) again. */
  rotateSecrets: boolean;
  /**
   * Send again the write-only values of these names (`--rotate-secret NAME`): a secret's name, or the
   * environment variable a value is read from (see `rotates`).
   */
  rotateSecretNames?: readonly string[];
  /**
   * Set when the plan verifies an apply: the deletes it carried out. A kind whose deletes remove
   * what no configuration names (hooks authoritative mode removes) plans each of them once it has
   * read where it lived — already absent, or the read's error — as nothing else would
   * (./collection.ts).
   */
  deleted?: ChangesByPlace;
}

/**
 * Desired state per entry of a scope whose entries select places by name or glob, with defaults
 * and profiles: a GitHub repository (`RepositoryPart`); GitLab's projects take the same part with
 * their own reference (issue #40). `Ref` is how a place is named.
 */
export interface ScopedPart<S extends z.ZodType, Ref> extends CommentsOnExport {
  setting: SettingSpec<S>;
  /**
   * Plans one place. `value` is the setting as every entry that selects the place makes it
   * together (valid by the setting's schema, secrets wrapped).
   */
  plan(input: {
    reader: ResourceReader;
    /**
     * Where the place is read and written: its name, or the previous name it is still under when a
     * rename is planned (the engine addresses the changes by the name configured).
     */
    at: Ref;
    value: z.output<S>;
    options: PlanOptions;
    /** What the engine knows of the place before any kind plans it (see LifecyclePart). */
    location?: Location<Ref>;
    /**
     * For the lifecycle kind, when the place is absent: the fields the other kinds configured for
     * it add to its create request (`createFields`), which it sends with the creation.
     */
    creation?: Readonly<Record<string, unknown>>;
  }): Promise<Change[]>;
  /**
   * What this value adds to the create request of a place the plan creates, where the service
   * takes it there and may refuse the creation without it (GitHub's `POST /orgs/{org}/repos`
   * `custom_properties`, which an organization's required properties need). Only for an owner the
   * lifecycle kind creates under as an organization; undefined: nothing.
   */
  createFields?(value: z.output<S>, at: Ref): Record<string, unknown> | undefined;
  /** The setting's value that reproduces the live state (plans as no change); undefined: nothing. */
  export?(reader: ResourceReader, at: Ref): Promise<z.input<S> | undefined>;
  /**
   * The REST requests planning this value takes at least (default 1): what a run is estimated to
   * need before it starts, to stop one that cannot fit the rate budget.
   */
  restReads?(value: z.output<S>): number;
  /**
   * Set by the one kind of the scope that manages the places themselves (their settings, creation,
   * name and archiving): the engine asks it where each one is before any kind plans it.
   */
  lifecycle?: LifecyclePart<S, Ref>;
}

export interface RepositoryPart<S extends z.ZodType = z.ZodType> extends ScopedPart<S, RepoRef> {
  /**
   * Its bulk read over GraphQL, for plans of many repositories (`--reads`): what it reads of a
   * repository and which REST answers that stands for (./graphql-read.ts). Without one, the kind
   * is read over REST.
   */
  graphql?: RepositoryGraphqlRead<z.output<S>>;
  /**
   * Its read of many repositories of one organization from the organization's side
   * (./organization-side.ts), answering reads its GraphQL read cannot. Without one, each
   * repository's own reads are made.
   */
  organizationSide?: OrganizationSideRead<z.output<S>>;
}

/**
 * A key of a GitLab project's settings. `at` names the project: `owner` is its namespace's full
 * path and `name` its path, or `owner` is "" and `name` its numeric id as written (`projectPath`,
 * ./gitlab-paths.ts, builds the API path from either). Planned, exported, located and archived as a
 * repository part is.
 */
export interface ProjectPart<S extends z.ZodType = z.ZodType> extends ScopedPart<S, RepoRef> {
  /**
   * Its bulk read over GitLab's GraphQL API (`--reads`): what it reads of a project named by its
   * full path and which REST answers that stands for (./graphql-read.ts). Without one, the kind
   * is read over REST.
   */
  graphql?: RepositoryGraphqlRead<z.output<S>>;
}

/**
 * For a clean-up, whose value names what must not exist and so is never exported: what export
 * writes as YAML comments instead (the live boards a clean-up could name).
 */
export interface CommentsOnExport {
  comments?(reader: ResourceReader, at: string): Promise<string[]>;
}

/**
 * Where a place a configuration names is, as the engine learned it before planning: found (under
 * its name or a previous one), absent, or unknown because the read failed.
 */
export type Location<Ref = RepoRef> =
  | {
      kind: "found";
      /** Where it is now; a rename to `wanted` is planned when they differ. */
      at: Ref;
      /** The name the configuration gives it. */
      wanted: Ref;
      archived: boolean;
      /**
       * The lifecycle kind's answer to `GET /repos/{owner}/{repo}` when it located the repository,
       * so the repository is read once; absent when a listing found it (a glob's).
       */
      answer?: unknown;
    }
  | { kind: "absent"; wanted: Ref }
  | { kind: "error"; wanted: Ref; error: ChangeError };

/** What archived repositories get (`archived_repositories`), and whether the value says so. */
export interface ArchivedPolicy {
  policy: "skip" | "unarchive";
  /** Written (in the entry, its profiles or the defaults): a glob then selects archived ones too. */
  explicit: boolean;
}

/**
 * What the kind that manages repositories themselves tells the engine, which orders every kind's
 * changes by it (src/engine/lifecycle.ts): where a repository is, what to do with an
 * archived one, and the changes that unarchive one for others and archive it again after them.
 * `value` is its repository part's value, undefined where the entry does not configure it.
 */
export interface LifecyclePart<S extends z.ZodType = z.ZodType, Ref = RepoRef> {
  /**
   * Reads the repository one entry names, and the previous names `value` lists: found under one of
   * them, absent, or the read's error. A name that now redirects to the repository found is that
   * repository, not another one.
   */
  locate(input: {
    reader: ResourceReader;
    at: Ref;
    value: z.output<S> | undefined;
    /** Set when a listing (a glob's) found it under its name: whether it is archived. */
    listed?: { archived: boolean };
  }): Promise<Location<Ref>>;
  archivedPolicy(value: z.output<S> | undefined): ArchivedPolicy;
  /**
   * The pair of changes around the other changes of an archived repository under
   * `archived_repositories: unarchive`: unarchive first, archive again last. Without requests (no
   * changes) when `others` is 0, so the plan that verifies an apply finds them as no change.
   */
  aroundArchived(input: {
    target: string;
    scope: string;
    at: Ref;
    others: number;
  }): [Change, Change];
}

/**
 * Desired state per owner of places, one entry each: a GitHub organization (a key of an
 * `organizations` entry); GitLab's groups take the same part with their own reference (issue #40).
 * The registry composes the section from every kind's part (./owners-section.ts): one entry may hold
 * the keys of several kinds, each planned by its own kind, addressed `<target>/<owner>/<kind>/<name>`.
 */
export interface OwnerPart<S extends z.ZodType, Ref> extends CommentsOnExport {
  /**
   * Its key and schema; `rules` see the entry's other keys in `entry.settings`, `defines` and `print`
   * are relative to the value, as for a repository setting.
   */
  setting: SettingSpec<S>;
  /** Plans one owner (`at` as written in the entry). */
  plan(input: {
    reader: ResourceReader;
    at: Ref;
    value: z.output<S>;
    options: PlanOptions;
  }): Promise<Change[]>;
  /** The value that reproduces the live state (plans as no change); undefined: nothing. */
  export?(reader: ResourceReader, at: Ref): Promise<z.input<S> | undefined>;
  /**
   * Set by the one kind of the scope that may create the owner itself (a GitLab subgroup's
   * settings, `create: true`): the section plans it first, and when it plans the owner's creation
   * the entry's other keys wait for it (./owners-section.ts).
   */
  creates?: true;
}

/** A key of an `organizations` entry (`organizations: - name: acme, <key>: …`). */
export type OrganizationPart<S extends z.ZodType = z.ZodType> = OwnerPart<S, string>;

/**
 * A key of a `groups` entry (`groups: - group: acme, <key>: …`; `at` is the group's full path or
 * numeric id as written), composed into the section as organization parts are
 * (./owners-section.ts).
 */
export type GroupPart<S extends z.ZodType = z.ZodType> = OwnerPart<S, string>;

/**
 * A key of an `instance` entry (`instance: - target: gitlab, <key>: …`): what a GitLab instance
 * holds for all its groups and projects, which only an administrator's token reads and writes.
 * Composed into the section as group parts are (./owners-section.ts); an entry names no owner, so
 * `at` is always `INSTANCE_SCOPE`, `(instance)`, the scope its changes are addressed under
 * (`gitlab/(instance)/gitlab_variable/NAME`).
 */
export type InstancePart<S extends z.ZodType = z.ZodType> = OwnerPart<S, string>;

/** A scope (repository `owner/name`, lower-case) whose changes must not be applied now, and why. */
export interface Hold {
  scope: string;
  reason: string;
}

export interface SectionPart<S extends z.ZodType = z.ZodType> {
  spec: SectionSpec<S>;
  /** Plans one entry of the section; it may hold back other changes (a running migration). */
  plan(input: {
    reader: ResourceReader;
    entry: z.output<S>;
    scope: string;
    options: PlanOptions;
  }): Promise<{ changes: Change[]; holds?: Hold[] }>;
  /**
   * Read in every shard, because what it holds back may be planned by any shard; its changes are
   * kept only by the shard its scope falls in.
   */
  everyShard?: boolean;
  /** What export prints for an id given on the command line: entries and YAML comments. */
  export?(
    reader: ResourceReader,
    id: string,
  ): Promise<{ entries: Array<z.input<S>>; comments: string[] }>;
}
