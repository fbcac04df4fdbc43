import type fc from "fast-check";
import type { RunningSandbox, SandboxOptions } from "../../src/sandbox/index.js";

/**
 * What a kind supplies to the conformance suite (test/kinds/conformance.ts): a world that holds its
 * resources, random valid desired values, and the changes another actor can make behind forgeplan's
 * back. Everything else — the round trip, export, GitHub's request and response schemas, hostile
 * answers, the JSON Schema and `validate --print` — the suite checks the same way for every kind.
 */
export interface KindFixture {
  /** The kind's name in the registry (src/resources/index.ts). */
  kind: string;
  /** The sandbox's world (default: the demo world). */
  world?: SandboxOptions;
  /** A token with admin rights where the resources live (default: the demo world's admin). */
  token?: string;
  /** Values of the `${VAR}`s the desired values use (secrets). */
  env?: Record<string, string>;
  /** Required when the kind has a repository part: it is planned in one repository entry. */
  repository?: PartFixture;
  /** Required when the kind has an organization part: it is planned in one organizations entry. */
  organization?: PartFixture;
  /** Required when the kind has a project part: it is planned in one projects entry. */
  project?: PartFixture;
  /** Required when the kind has a group part: it is planned in one groups entry. */
  group?: PartFixture;
  /**
   * Required when the kind has an instance part: it is planned in one instance entry (the world's
   * token must be an administrator's of the GitLab instance).
   */
  instance?: PartFixture;
  /**
   * Required for a kind with a section of its own (a clean-up or an audit): a whole configuration
   * file (YAML) whose plan reads the kind's resources in the world.
   */
  section?: { config: string };
  /**
   * Set for an audit: its plans report findings and never write, so the suite checks that no plan
   * of it writes instead of applying it.
   */
  audit?: true;
}

export interface PartFixture {
  /**
   * Where the value is planned: `owner/name` for a repository, the login for an organization, a
   * project's full path, a group's full path; `(instance)` for a GitLab instance.
   */
  at: string;
  /** Further keys of the entry (`owner_type` …), written beside the kind's key. */
  entry?: Record<string, unknown>;
  /**
   * Valid desired values of the kind's setting, as a user writes them in YAML (secrets as
   * `${VAR}` of `env`). They should reach every field the kind manages, nulls and omissions
   * included, and start from whatever the world holds.
   */
  desired: fc.Arbitrary<unknown>;
  /**
   * Given the value forgeplan just converged to, changes another actor can make to the live state
   * with plain requests to the service. Required for kinds that write.
   */
  mutations?: (value: unknown) => fc.Arbitrary<LiveMutation>;
  /** Runs of the round trip (default 200, the suite's floor in CI). */
  runs?: number;
}

/** One change made behind forgeplan's back, and what the next plan must show of it. */
export interface LiveMutation {
  /** For a counterexample: what it changes. */
  what: string;
  /**
   * Sends the change and returns what the next plan must show, by the change's name (the last part
   * of its address): its action, and for an update the diff paths. `{}` when the change touches a
   * field the value does not manage, so the plan must show nothing.
   */
  send(live: LiveService): Promise<Record<string, Expected>>;
}

/**
 * What a change must show: its action, and for an update its diff paths. A structure that came or
 * went (a section of a protection, a rule of a ruleset) is stated by its own path: the plan's paths
 * must each lie at or under one stated, and each stated path must have one at or under it.
 */
export type Expected = { action: "create" | "delete" } | { action: "update"; paths: string[] };

/** Plain requests to the sandbox with the fixture's token, for mutations. */
export interface LiveService {
  world: RunningSandbox;
  token: string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}
