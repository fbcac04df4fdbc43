import type { DesiredState, ScopedEntry } from "../../src/config/model.js";
import type { SourceFile } from "../../src/config/source.js";
import type { ChangeOutcome, Plan } from "../../src/core/plan.js";
import { Secret } from "../../src/core/secret.js";
import { applyPlan } from "../../src/engine/apply.js";
import type { ReadsMode } from "../../src/engine/bulk/reads.js";
import { buildPlan } from "../../src/engine/plan.js";
import { ForgeClient } from "../../src/forge/client.js";
import { ResourceReader } from "../../src/resources/context.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";

export const TARGET = "github";

const origin = { file: "generated.yaml", line: 1, column: 1 };

/** A repository entry as a test writes it: its selector and its settings by key. */
export type EngineEntry = Pick<ScopedEntry, "selector" | "ownerType" | "settings">;

/** A file that is not on disk: every value is said to be at its first line. */
const generated: SourceFile = { file: origin.file, value: {}, locate: () => origin };

/** The engine driven directly, as the CLI drives it, against one running sandbox. */
export interface SandboxEngine {
  /** A desired state of repository entries on the one target, as the loader would resolve it. */
  state(repositories: EngineEntry[]): DesiredState;
  /** `reads`: how repositories are read (REST by default, as the engine's own default). */
  plan(state: DesiredState, reads?: ReadsMode): Promise<Plan>;
  apply(
    plan: Plan,
    options?: { allowDelete?: boolean; secrets?: readonly Secret[] },
  ): Promise<ChangeOutcome[]>;
}

/** `token`: the demo world's admin by default; another seed names its own. */
export function sandboxEngine(world: RunningSandbox, token = "sandbox-admin"): SandboxEngine {
  const client = new ForgeClient({
    baseUrl: world.url,
    kind: "repository",
    token: new Secret(token, "sandbox"),
    writeIntervalMs: 0,
  });
  const readers = new Map([[TARGET, new ResourceReader(TARGET, client)]]);
  const clients = new Map([[TARGET, client]]);
  return {
    state: (repositories) => ({
      targets: [
        {
          name: TARGET,
          type: "github",
          baseUrl: world.url,
          tokenEnv: "GITHUB_TOKEN",
        },
      ],
      defaults: [],
      repositories: repositories.map((entry) => ({
        scope: "repository",
        target: TARGET,
        origin,
        ...entry,
        layers: [{ label: "entry", source: generated, path: [], value: entry.settings }],
      })),
      projectDefaults: [],
      projects: [],
      sections: [],
      files: [origin.file],
    }),
    plan: (state, reads) =>
      buildPlan({
        state,
        readers,
        now: Date.parse("2026-12-01T00:00:00Z"),
        ...(reads ? { reads } : {}),
      }),
    apply: async (plan, options = {}) =>
      (
        await applyPlan({
          plan,
          clients,
          allowDelete: options.allowDelete ?? false,
          secrets: new Map((options.secrets ?? []).map((secret) => [secret.source, secret])),
          env: {},
        })
      ).outcomes,
  };
}

/** Creates, updates and deletes in a plan: what a converged state must have none of. */
export function pendingChanges(plan: Plan): Plan["changes"] {
  return plan.changes.filter((change) => change.action !== "no-op" && change.action !== "report");
}

/** Mutating requests the sandbox answered, counted from its stats. */
export function mutatingRequests(world: RunningSandbox): number {
  const byMethod = world.stats().requests_by_method;
  return ["PUT", "PATCH", "POST", "DELETE"].reduce(
    (sum, method) => sum + (byMethod[method] ?? 0),
    0,
  );
}
