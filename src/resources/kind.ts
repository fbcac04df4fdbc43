import type { SectionSpec, SettingSpec } from "../config/spec.js";
import type { Change, ChangesByPlace, DiffEntry, PlannedRequest } from "../core/plan.js";
import type { RepoRef, ResourceReader } from "./context.js";
import type { RepositoryGraphqlRead } from "./graphql-read.js";
import type { OrganizationSideRead } from "./organization-side.js";

/**
 * One kind of resource, described in one place: where it is configured, how its live state is read
 * and planned (normalize, diff, requests), how a write is verified, and how live state is exported.
 * The registry (./index.ts) lists the kinds; the loader, planner, apply, verify and export read it,
 * so adding a kind is its module, its sandbox routes and one line there (docs/adding-a-kind.md).
 */
export interface KindModule {
  /** The kind's name in addresses and plans, e.g. "branch_protection". */
  readonly name: string;
  /** Desired state per repository: a key of the repository settings. */
  readonly repository?: RepositoryPart;
  /** Desired state per organization: a key of an `organizations` entry. */
  readonly organization?: OrganizationPart;
  /** Desired state in a section of the file of its own. */
  readonly section?: SectionPart;
  /**
   * What differs between what a write sent and what the service answered, or what the answer to a
   * GET among a change's requests lacks of the request's `expect` (nothing: agreed).
   */
  verify?(request: PlannedRequest, response: unknown): DiffEntry[];
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
   * read where it lived — already absent, or the read's error — as nothing else would.
   */
  deleted?: ChangesByPlace;
}

export interface RepositoryPart {
  setting: SettingSpec;
  /**
   * Plans one repository. `value` is the setting as every entry that selects the repository makes
   * it together (valid by the setting's schema, secrets wrapped).
   */
  plan(input: {
    reader: ResourceReader;
    repo: RepoRef;
    value: unknown;
    options: PlanOptions;
  }): Promise<Change[]>;
  /** The setting's value that reproduces the live state (plans as no change); undefined: nothing. */
  export?(reader: ResourceReader, repo: RepoRef): Promise<unknown>;
  /**
   * The REST requests planning this value takes at least (default 1): what a run is estimated to
   * need before it starts, to stop one that cannot fit the rate budget.
   */
  restReads?(value: unknown): number;
  /**
   * Its bulk read over GraphQL, for plans of many repositories (`--reads`): what it reads of a
   * repository and which REST answers that stands for (./graphql-read.ts). Without one, the kind
   * is read over REST.
   */
  graphql?: RepositoryGraphqlRead;
  /**
   * Its read of many repositories of one organization from the organization's side
   * (./organization-side.ts), answering reads its GraphQL read cannot. Without one, each
   * repository's own reads are made.
   */
  organizationSide?: OrganizationSideRead;
}

/**
 * A key of an `organizations` entry (`organizations: - name: acme, <key>: …`). The registry composes
 * the section from every kind's part (./organizations.ts): one entry may hold the keys of several
 * kinds, each planned by its own kind, addressed `<target>/<org>/<kind>/<name>`.
 */
export interface OrganizationPart {
  /**
   * Its key and schema; `rules` see the entry's other keys in `entry.settings`, `defines` and `print`
   * are relative to the value, as for a repository setting.
   */
  setting: SettingSpec;
  /** Plans one organization (`org` as written in the entry). */
  plan(input: {
    reader: ResourceReader;
    org: string;
    value: unknown;
    options: PlanOptions;
  }): Promise<Change[]>;
  /** The value that reproduces the live state (plans as no change); undefined: nothing. */
  export?(reader: ResourceReader, org: string): Promise<unknown>;
}

/** A scope (repository `owner/name`, lower-case) whose changes must not be applied now, and why. */
export interface Hold {
  scope: string;
  reason: string;
}

export interface SectionPart {
  spec: SectionSpec;
  /** Plans one entry of the section; it may hold back other changes (a running migration). */
  plan(input: {
    reader: ResourceReader;
    entry: unknown;
    scope: string;
    options: PlanOptions;
  }): Promise<{ changes: Change[]; holds?: Hold[] }>;
  /**
   * Read in every shard, because what it holds back may be planned by any shard; its changes are
   * kept only by the shard its scope falls in.
   */
  everyShard?: boolean;
  /** What export prints for an id given on the command line: entries and YAML comments. */
  export?(reader: ResourceReader, id: string): Promise<{ entries: unknown[]; comments: string[] }>;
}
