import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { formatConfigError } from "../../src/config/errors.js";
import type { DesiredState } from "../../src/config/model.js";
import { type Change, type ChangeOutcome, GATES, type Plan } from "../../src/core/plan.js";
import { Secret } from "../../src/core/secret.js";
import { applyPlan } from "../../src/engine/apply.js";
import { loadDesiredState } from "../../src/engine/desired.js";
import { exportState } from "../../src/engine/export.js";
import type { ReadsMode } from "../../src/engine/bulk/reads.js";
import { buildPlan } from "../../src/engine/plan.js";
import { collectSecrets } from "../../src/engine/secrets.js";
import { ForgeClient } from "../../src/forge/client.js";
import { ResourceReader } from "../../src/resources/context.js";
import type { RecordedRequest, RunningSandbox } from "../../src/sandbox/index.js";
import { sandbox } from "../helpers/sandbox.js";
import type { KindFixture, LiveService } from "./fixture.js";

export const ADMIN = "sandbox-admin";
/** The time plans are made at, fixed so audits of ages plan alike in every run. */
export const NOW = Date.parse("2026-12-01T00:00:00Z");

export type Part = "repository" | "organization";

/** A configuration file holding one value of a kind's part, as a user writes it. */
export function configOf(fixture: KindFixture, part: Part, key: string, value: unknown): string {
  const where = fixture[part];
  if (where === undefined) throw new Error(`${fixture.kind} has no ${part} fixture`);
  const entry = { name: where.at, ...where.entry, [key]: value };
  return stringify({
    version: 1,
    [part === "repository" ? "repositories" : "organizations"]: [entry],
  });
}

/** The world of one run: a fresh sandbox, and the pipeline pointed at it (or at a proxy before it). */
export class KindWorld {
  readonly dir = mkdtempSync(join(tmpdir(), "forgeplan-kind-"));

  private constructor(
    readonly fixture: KindFixture,
    readonly sandbox: RunningSandbox,
    /** Every write the sandbox was sent, in order. */
    readonly writes: RecordedRequest[],
    /** Every request the sandbox was sent, in order. */
    readonly requests: RecordedRequest[],
  ) {}

  static async start(fixture: KindFixture): Promise<KindWorld> {
    const writes: RecordedRequest[] = [];
    const requests: RecordedRequest[] = [];
    const running = await sandbox({
      ...fixture.world,
      onRequest: (request) => {
        requests.push(request);
        if (request.method !== "GET") writes.push(request);
      },
    });
    return new KindWorld(fixture, running, writes, requests);
  }

  get token(): string {
    return this.fixture.token ?? ADMIN;
  }

  stop(): Promise<void> {
    return this.sandbox.stop();
  }

  /** Loads a configuration as the CLI does; a value the loader refuses fails the run. */
  load(yaml: string): DesiredState {
    const file = join(this.dir, "forgeplan.yaml");
    writeFileSync(file, yaml);
    const loaded = loadDesiredState([file], { cwd: this.dir, env: this.fixture.env ?? {} });
    if (!loaded.ok) {
      const problems = loaded.errors.map(formatConfigError);
      throw new Error(
        `the fixture wrote a configuration the loader refuses:\n${problems.join("\n")}\n${yaml}`,
      );
    }
    return loaded.state;
  }

  client(url = this.sandbox.url): ForgeClient {
    return new ForgeClient({
      baseUrl: url,
      kind: "repository",
      token: new Secret(this.token, "sandbox"),
      writeIntervalMs: 0,
    });
  }

  /** Readers of both targets, through `url` (a proxy) or straight to the sandbox. */
  readers(url = this.sandbox.url): Map<string, ResourceReader> {
    const planning = new ForgeClient({
      baseUrl: url,
      kind: "planning",
      token: new Secret(this.token, "sandbox"),
      writeIntervalMs: 0,
    });
    return new Map([
      ["github", new ResourceReader("github", this.client(url))],
      ["gitlab", new ResourceReader("gitlab", planning)],
    ]);
  }

  /** `reads`: how repositories are read (REST by default, the engine's own default). */
  plan(state: DesiredState, url?: string, reads?: ReadsMode): Promise<Plan> {
    return buildPlan({ state, readers: this.readers(url), now: NOW, ...(reads ? { reads } : {}) });
  }

  async apply(plan: Plan, state: DesiredState, url?: string): Promise<ChangeOutcome[]> {
    const readers = this.readers(url);
    const clients = new Map([...readers].map(([name, reader]) => [name, reader.client]));
    const result = await applyPlan({
      plan,
      clients,
      allowDelete: true,
      // The suite checks convergence: gated changes (visibility, creation) are applied too.
      allowed: GATES,
      secrets: collectSecrets(state),
      env: this.fixture.env ?? {},
    });
    return result.outcomes;
  }

  /** What `export` writes for the part's place, as the value of the kind's key (undefined: none). */
  async exported(part: Part, key: string): Promise<unknown> {
    const at = this.fixture[part]!.at;
    const reader = this.readers().get("github")!;
    const { document } = await exportState(
      part === "repository"
        ? { repos: [at], sections: new Map() }
        : { repos: [], organizations: [at], sections: new Map() },
      () => reader,
    );
    const list = document[part === "repository" ? "repositories" : "organizations"] as
      Array<Record<string, unknown>> | undefined;
    return list?.[0]?.[key];
  }

  live(): LiveService {
    return {
      world: this.sandbox,
      token: this.token,
      call: async (method, path, body) => {
        const response = await fetch(`${this.sandbox.url}${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${this.token}`,
            ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await response.text();
        return {
          status: response.status,
          body: text === "" ? undefined : (JSON.parse(text) as unknown),
        };
      },
    };
  }
}

/** Creates, updates and deletes: what a converged state has none of. */
export function pending(plan: Plan, kind?: string): Change[] {
  return plan.changes.filter(
    (change) =>
      (kind === undefined || change.kind === kind) &&
      change.action !== "no-op" &&
      change.action !== "report",
  );
}

export function errors(plan: Plan): Array<[string, unknown]> {
  return plan.changes
    .filter((change) => change.error)
    .map((change) => [change.address, change.error]);
}

/** A plan's pending work as a reviewer would need to see it, for a counterexample. */
export function shown(changes: readonly Change[]) {
  return changes.map(({ address, action, diff, requests }) => ({
    address,
    action,
    diff,
    requests,
  }));
}

/** Fixed seeds, so a failure replays; `FC_SEED` and `FC_RUNS` explore further. */
export function runs(seed: number, numRuns: number) {
  const env = process.env;
  return {
    seed: env.FC_SEED ? Number(env.FC_SEED) : seed,
    numRuns: env.FC_RUNS ? Number(env.FC_RUNS) : numRuns,
  };
}
