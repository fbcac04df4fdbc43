import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { formatConfigError } from "../../src/config/errors.js";
import type { DesiredState } from "../../src/config/model.js";
import { type Change, type ChangeOutcome, GATES, type Plan } from "../../src/core/plan.js";
import { Secret } from "../../src/core/secret.js";
import { applyPlan } from "../../src/engine/apply.js";
import { loadDesiredState } from "../../src/engine/desired.js";
import type { ReadsMode } from "../../src/engine/bulk/reads.js";
import { buildPlan } from "../../src/engine/plan.js";
import { collectSecrets } from "../../src/engine/secrets.js";
import { ForgeClient } from "../../src/forge/client.js";
import { ResourceReader } from "../../src/resources/context.js";
import { KINDS } from "../../src/resources/index.js";
import type { RecordedRequest, RunningSandbox } from "../../src/sandbox/index.js";
import { sandbox } from "../helpers/sandbox.js";
import type { KindFixture, LiveService } from "./fixture.js";

export const ADMIN = "sandbox-admin";
/** The time plans are made at, fixed so audits of ages plan alike in every run. */
export const NOW = Date.parse("2026-12-01T00:00:00Z");

/**
 * The scopes a kind may have a part in, and where an entry of each sits in a configuration file:
 * its list and the key that names the repository, organization, project or group (none for a
 * GitLab instance).
 */
export const PARTS = {
  repository: { list: "repositories", nameKey: "name", family: "github" },
  organization: { list: "organizations", nameKey: "name", family: "github" },
  project: { list: "projects", nameKey: "project", family: "gitlab" },
  group: { list: "groups", nameKey: "group", family: "gitlab" },
  // An instance entry names no owner: its target is the default GitLab one.
  instance: { list: "instance", nameKey: undefined, family: "gitlab" },
} as const;

export type Part = keyof typeof PARTS;

/** A configuration file holding one value of a kind's part, as a user writes it. */
export function configOf(fixture: KindFixture, part: Part, key: string, value: unknown): string {
  const where = fixture[part];
  if (where === undefined) throw new Error(`${fixture.kind} has no ${part} fixture`);
  const { list, nameKey } = PARTS[part];
  const entry = {
    ...(nameKey === undefined ? {} : { [nameKey]: where.at }),
    ...where.entry,
    [key]: value,
  };
  return stringify({ version: 1, [list]: [entry] });
}

let folder: string | undefined;

function configDir(): string {
  folder ??= mkdtempSync(join(tmpdir(), "forgeplan-kind-"));
  return folder;
}

/** The world of one run: a fresh sandbox, and the pipeline pointed at it (or at a proxy before it). */
export class KindWorld {
  /** Where its configuration is, as the loader names it: one folder for a test file's runs. */
  readonly dir = configDir();
  readonly #readers = new Map<string, Map<string, ResourceReader>>();

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
    const loaded = loadDesiredState([file], {
      cwd: this.dir,
      env: this.fixture.env ?? {},
      // The file's bytes through the loader's own seam (node's fs by default): on a busy disk,
      // writing the file for each load cost more than loading it.
      readFile: (path) => {
        if (path !== file) throw new Error(`the suite writes only ${file}, not ${path}`);
        return Buffer.from(yaml, "utf8");
      },
    });
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

  /**
   * Readers of both targets, through `url` (a proxy) or straight to the sandbox: one set for each
   * place in a run, as `forgeplan apply` plans, applies and re-plans with the same clients (they
   * keep no answers: every plan reads the service again).
   */
  readers(url = this.sandbox.url): Map<string, ResourceReader> {
    let readers = this.#readers.get(url);
    if (readers === undefined) {
      const planning = new ForgeClient({
        baseUrl: url,
        kind: "planning",
        token: new Secret(this.token, "sandbox"),
        writeIntervalMs: 0,
      });
      readers = new Map([
        ["github", new ResourceReader("github", this.client(url))],
        ["gitlab", new ResourceReader("gitlab", planning)],
      ]);
      this.#readers.set(url, readers);
    }
    return readers;
  }

  /** `reads`: how repositories are read (REST by default, the engine's own default). */
  plan(state: DesiredState, url?: string, reads?: ReadsMode): Promise<Plan> {
    return buildPlan({ state, readers: this.readers(url), now: NOW, ...(reads ? { reads } : {}) });
  }

  /**
   * The state planned over REST, then over GraphQL, with the requests each plan sent: what the
   * bulk-read tests compare.
   */
  async planBothWays(state: DesiredState) {
    const restFrom = this.requests.length;
    const rest = await this.plan(state, undefined, "rest");
    const graphqlFrom = this.requests.length;
    const graphql = await this.plan(state, undefined, "graphql");
    return {
      rest,
      graphql,
      restRun: this.requests.slice(restFrom, graphqlFrom),
      graphqlRun: this.requests.slice(graphqlFrom),
    };
  }

  async apply(plan: Plan, state: DesiredState, url?: string): Promise<ChangeOutcome[]> {
    const readers = this.readers(url);
    const clients = new Map([...readers].map(([name, reader]) => [name, reader.client]));
    const result = await applyPlan({
      plan,
      clients,
      allowDelete: true,
      // The suite checks convergence: gated changes (visibility, creation, a protection's gap on
      // GitLab Free) are applied too, as with every --allow-* flag.
      allowed: GATES,
      secrets: collectSecrets(state),
      env: this.fixture.env ?? {},
    });
    return result.outcomes;
  }

  /**
   * What `export` writes for the part's place as the value of the kind's key (undefined: none). Only
   * the kind's own export is read: export fills an entry kind by kind, each from its own reads
   * (src/engine/export.ts), and the other kinds' reads were two-thirds of a round trip's requests.
   * A read that fails fails the run, where export would leave the key out with a comment.
   */
  async exported(part: Part, key: string): Promise<unknown> {
    const at = this.fixture[part]!.at;
    const kind = KINDS.find((candidate) => candidate.name === this.fixture.kind);
    const own = kind?.[part];
    if (own?.setting.key !== key) throw new Error(`${this.fixture.kind} has no ${part} key ${key}`);
    const reader = this.readers().get(PARTS[part].family)!;
    if (part === "organization") return kind!.organization!.export?.(reader, at);
    if (part === "group") return kind!.group!.export?.(reader, at);
    if (part === "instance") return kind!.instance!.export?.(reader, at);
    // A repository's owner/name; a project's namespace and path (its full path splits at the last /).
    const slash = at.lastIndexOf("/");
    const ref = { owner: at.slice(0, slash), name: at.slice(slash + 1) };
    return part === "repository"
      ? kind!.repository!.export?.(reader, ref)
      : kind!.project!.export?.(reader, ref);
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
