/**
 * The kind conformance suite: the same checks for every registered kind, each kind supplying only a
 * fixture (test/kinds/fixtures/). A guarantee checked here holds for every kind mechanically:
 *
 * - random desired values apply and re-plan as no change (no perpetual diff), ≥ 200 runs a part;
 * - export of the live state plans as no change;
 * - every live change of a managed field behind forgeplan's back shows as exactly that change;
 * - every request body the kind sends is one GitHub's published request schema accepts (the
 *   sandbox refuses others and test/helpers/sandbox.ts fails the test), and every write names
 *   GitHub's operation; every answer the sandbox gives validates against GitHub's response schema;
 * - a malformed answer (an HTML page, a body of the wrong shape) to any of its reads is an error for
 *   its resource, never "absent", and apply writes nothing;
 * - its keys are in the JSON Schema with a description on every field, and `validate --print` shows
 *   every value written with its file:line.
 *
 * Each run starts a fresh sandbox, so a shrunk counterexample replays exactly. Seeds are fixed;
 * `FC_SEED=7 FC_RUNS=500 npx vitest run test/kinds/<kind>.test.ts` explores further.
 *
 * What a run costs, to budget a new kind (CPU of the one process that holds the sandbox and the
 * pipeline, on the project's 2-core machine while shared, 2026-11-28): a round trip 40–65 ms (label
 * 64, environment 42), a mutation run 50–70 ms (label 71, environment 48); a part's 200 round trips
 * and 100 mutations are 13–20 s, and the other checks of a kind 2–4 s. Where it goes: about 12
 * requests a round trip at ~2 ms each for the client and the sandbox together, and per step a
 * sandbox start (~6 ms: the world built from the checked seed), a load of the YAML (~3 ms) and a
 * plan's own work. So each run's sandbox builds its world from a seed checked once (startSandbox
 * keeps it), a run's plan, apply and re-plan share clients, and the export check reads only the
 * kind's own export; the kinds' files share their modules (vitest.config.ts), ~3 s less a file.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { isMap, isSeq, type Node, parseDocument, type YAMLMap } from "yaml";
import type { Plan } from "../../src/core/plan.js";
import { printState, schemaText } from "../../src/engine/desired.js";
import { type KindModule, KINDS } from "../../src/resources/index.js";
import { type Exchange, failingProxy, type Refusal } from "../helpers/failing-proxy.js";
import { expectRequestsValid } from "../helpers/sandbox.js";
import type { Expected, KindFixture, PartFixture } from "./fixture.js";
import { FIXTURES, VARIANTS } from "./fixtures/index.js";
import { configOf, errors, KindWorld, type Part, PARTS, pending, runs, shown } from "./harness.js";
import { responseProblems } from "./operations.js";

/** Shrinking replays whole runs; the allowance lets a counterexample print rather than time out. */
const PROPERTY_TIMEOUT = 600_000;
const DEFAULT_RUNS = 200;
const MUTATION_RUNS = 100;
/** Runs whose every answer is checked against GitHub's response schema. */
const SCHEMA_RUNS = 15;

function kindOf(name: string): KindModule {
  const kind = KINDS.find((candidate) => candidate.name === name);
  if (kind === undefined) throw new Error(`no kind "${name}" is registered`);
  return kind;
}

function keyOf(kind: KindModule, part: Part): string {
  const setting = kind[part]?.setting;
  if (setting === undefined) throw new Error(`${kind.name} has no ${part} part`);
  return setting.key;
}

async function within<T>(fixture: KindFixture, run: (world: KindWorld) => Promise<T>): Promise<T> {
  const world = await KindWorld.start(fixture);
  try {
    return await run(world);
  } finally {
    await world.stop();
  }
}

/** Plans the value, applies the plan and re-plans: what a user does, checked at every step. */
async function converge(world: KindWorld, yaml: string, kind: string): Promise<Plan> {
  const state = world.load(yaml);
  const first = await world.plan(state);
  expect(errors(first), "the first plan").toEqual([]);
  const outcomes = await world.apply(first, state);
  expect(outcomes.filter((outcome) => outcome.outcome !== "applied")).toEqual([]);
  const again = await world.plan(state);
  expect(errors(again), "the re-plan").toEqual([]);
  expect(shown(pending(again, kind)), "the re-plan after apply").toEqual([]);
  return again;
}

/**
 * Every write names the service's operation it is (`PATCH /repos/{owner}/{repo}`, GitLab's
 * `DELETE /api/v4/projects/{id}/boards/{board_id}`), so its body is checked against that
 * operation's published request schema.
 */
function expectNamedWrites(world: KindWorld): void {
  const unnamed = world.writes
    .filter((request) => request.operation === undefined)
    .map((request) => `${request.method} ${request.path}`);
  expect(unnamed, "writes the sandbox serves under no operation of the service").toEqual([]);
}

function roundTrip(fixture: KindFixture, kind: KindModule, part: Part, where: PartFixture) {
  const key = keyOf(kind, part);
  it(
    `${part}: random desired values apply and re-plan as no change; export plans as no change`,
    async () => {
      // Some runs start from another value forgeplan applied, so starting points vary too.
      const cases = fc.tuple(fc.option(where.desired, { nil: undefined }), where.desired);
      await fc.assert(
        fc.asyncProperty(cases, ([start, value]) =>
          within(fixture, async (world) => {
            if (fixture.audit) {
              const plan = await world.plan(world.load(configOf(fixture, part, key, value)));
              expect(errors(plan)).toEqual([]);
              expect(shown(pending(plan)), "an audit plans no writes").toEqual([]);
              return;
            }
            if (start !== undefined)
              await converge(world, configOf(fixture, part, key, start), kind.name);
            await converge(world, configOf(fixture, part, key, value), kind.name);
            expectNamedWrites(world);
            // Nothing live to write (no hooks at all) is an export of nothing, which plans as nothing.
            const exported = await world.exported(part, key);
            if (exported === undefined) return;
            const state = world.load(configOf(fixture, part, key, exported));
            const plan = await world.plan(state);
            expect(errors(plan)).toEqual([]);
            expect(shown(pending(plan)), "the plan of what export wrote").toEqual([]);
          }),
        ),
        runs(20261126, where.runs ?? DEFAULT_RUNS),
      );
    },
    PROPERTY_TIMEOUT,
  );
}

/**
 * The pending changes of a plan as the fixture states what a mutation must show. An update's shown
 * paths match the expected ones when each lies at or under an expected path and each expected path
 * has one at or under it: a fixture states a structure that came or went by its own path.
 */
function shownAs(
  plan: Plan,
  kind: string,
  expected: Record<string, Expected>,
): Record<string, Expected> {
  const result: Record<string, Expected> = {};
  const within = (path: string, outer: string) => path === outer || path.startsWith(`${outer}.`);
  for (const change of pending(plan, kind)) {
    if (change.action !== "update") {
      result[change.name] = { action: change.action as "create" | "delete" };
      continue;
    }
    const paths = [...new Set(change.diff.map((entry) => entry.path))].sort();
    const wanted = expected[change.name];
    const outer = wanted?.action === "update" ? wanted.paths : [];
    const matches =
      paths.length > 0 &&
      paths.every((path) => outer.some((at) => within(path, at))) &&
      outer.every((at) => paths.some((path) => within(path, at)));
    result[change.name] = { action: "update", paths: matches ? [...outer].sort() : paths };
  }
  return result;
}

function sortedPaths(expected: Record<string, Expected>): Record<string, Expected> {
  return Object.fromEntries(
    Object.entries(expected).map(([name, change]) => [
      name,
      change.action === "update" ? { action: "update", paths: [...change.paths].sort() } : change,
    ]),
  );
}

function mutationsDetected(fixture: KindFixture, kind: KindModule, part: Part, where: PartFixture) {
  const key = keyOf(kind, part);
  it(
    `${part}: a live change behind forgeplan's back shows as exactly that change`,
    async () => {
      expect(
        where.mutations,
        `the ${kind.name} fixture gives no mutations for its ${part} part`,
      ).toBeDefined();
      const cases = where.desired.chain((value) =>
        fc.tuple(fc.constant(value), where.mutations!(value)),
      );
      await fc.assert(
        fc.asyncProperty(cases, ([value, mutation]) =>
          within(fixture, async (world) => {
            const yaml = configOf(fixture, part, key, value);
            await converge(world, yaml, kind.name);
            const expected = await mutation.send(world.live());
            const plan = await world.plan(world.load(yaml));
            expect(errors(plan)).toEqual([]);
            expect(shownAs(plan, kind.name, expected), mutation.what).toEqual(
              sortedPaths(expected),
            );
          }),
        ),
        runs(20261127, Math.min(where.runs ?? DEFAULT_RUNS, MUTATION_RUNS)),
      );
    },
    PROPERTY_TIMEOUT,
  );
}

function answersValidate(fixture: KindFixture, kind: KindModule, part: Part, where: PartFixture) {
  const key = keyOf(kind, part);
  it(`${part}: every answer the sandbox gives its requests validates against GitHub's schema`, async () => {
    const samples = fc.sample(where.desired, { seed: 20261128, numRuns: SCHEMA_RUNS });
    for (const value of samples) {
      await within(fixture, async (world) => {
        const seen: Exchange[] = [];
        const proxy = await failingProxy(
          world.sandbox.url,
          () => undefined,
          (exchange) => {
            seen.push(exchange);
          },
        );
        try {
          const state = world.load(configOf(fixture, part, key, value));
          const plan = await world.plan(state, proxy.url);
          if (!fixture.audit) await world.apply(plan, state, proxy.url);
          await world.plan(state, proxy.url);
        } finally {
          await proxy.stop();
        }
        const problems = seen.flatMap((exchange) => {
          const { operation, problems: found } = responseProblems(
            exchange.method,
            exchange.path,
            exchange.status,
            exchange.body,
          );
          return found.map((problem) => `${operation} → ${exchange.status}: ${problem}`);
        });
        expect([...new Set(problems)]).toEqual([]);
      });
    }
  });
}

/** A value of another type than `value`: a number for a string, a string for anything else. */
function otherType(value: unknown): unknown {
  return typeof value === "string" ? 7 : "7";
}

/** The value with every member (of an object, or of each item of a list) of another type. */
function retyped(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [null] : value.map(retyped);
  if (value === null || typeof value !== "object") return otherType(value);
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, otherType(member)]));
}

const MALFORMED: ReadonlyArray<{ what: string; answer: (real: unknown) => Refusal }> = [
  {
    what: "an HTML page answered 200",
    answer: () => ({
      status: 200,
      text: "<html><body>Sign in to continue</body></html>",
      contentType: "text/html; charset=utf-8",
    }),
  },
  {
    what: "JSON of the wrong shape",
    // A list where an object is read, an object where a list is.
    answer: (real) => ({ status: 200, body: Array.isArray(real) ? { items: real } : [real] }),
  },
  {
    what: "JSON whose members are of the wrong types",
    answer: (real) => ({ status: 200, body: retyped(real) }),
  },
];

/**
 * The kind's reads, found by planning a configuration that manages something of it (the first of
 * `candidates` whose plan has a change of the kind, applied first unless the kind is an audit);
 * then each read is answered malformed, one at a time: its resource must plan as an error, and
 * apply must send nothing.
 */
function hostileReads(fixture: KindFixture, kind: KindModule, candidates: () => string[]) {
  it(
    "a malformed answer to any of its reads is an error for its resource, and nothing is written",
    async () => {
      await within(fixture, async (world) => {
        let chosen: { yaml: string; reads: Map<string, unknown> } | undefined;
        for (const yaml of candidates()) {
          if (!fixture.audit) await converge(world, yaml, kind.name);
          const reads = new Map<string, unknown>();
          const proxy = await failingProxy(
            world.sandbox.url,
            () => undefined,
            (exchange) => {
              if (exchange.method === "GET" && exchange.status === 200) {
                reads.set(exchange.path.split("?")[0]!, exchange.body);
              }
            },
          );
          try {
            const clean = await world.plan(world.load(yaml), proxy.url);
            expect(errors(clean)).toEqual([]);
            if (clean.changes.some((change) => change.kind === kind.name)) {
              chosen = { yaml, reads };
              break;
            }
          } finally {
            await proxy.stop();
          }
        }
        expect(chosen, "a candidate value that manages something of the kind").toBeDefined();
        const { yaml, reads } = chosen!;
        const state = world.load(yaml);
        expect(reads.size, "the plan reads something").toBeGreaterThan(0);
        for (const [path, real] of reads) {
          for (const malformed of MALFORMED) {
            const broken = await failingProxy(world.sandbox.url, (method, at) =>
              method === "GET" && at === path ? malformed.answer(real) : undefined,
            );
            try {
              const before = world.writes.length;
              const plan = await world.plan(state, broken.url);
              const what = `GET ${path} answered with ${malformed.what}`;
              const failed = plan.changes.filter(
                (change) => change.kind === kind.name && change.error,
              );
              expect(
                failed.length,
                `${what}: no change of ${kind.name} carries the error`,
              ).toBeGreaterThan(0);
              expect(
                shown(pending(plan).filter((change) => !change.error)),
                `${what}: writes planned`,
              ).toEqual([]);
              await world.apply(plan, state, broken.url);
              expect(
                world.writes.slice(before).map((r) => `${r.method} ${r.path}`),
                `${what}: written`,
              ).toEqual([]);
            } finally {
              await broken.stop();
            }
          }
        }
      });
    },
    PROPERTY_TIMEOUT,
  );
}

/** Every property schema under `schema` has a description (the JSON Schema's hover help). */
function undescribed(schema: unknown, path: string): string[] {
  if (schema === null || typeof schema !== "object") return [];
  const node = schema as Record<string, unknown>;
  const found: string[] = [];
  const properties = node.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [name, member] of Object.entries(properties ?? {})) {
    if (typeof member.description !== "string" || member.description === "") {
      found.push(`${path}.${name}`);
    }
    found.push(...undescribed(member, `${path}.${name}`));
  }
  for (const keyword of ["items", "additionalProperties"]) {
    found.push(...undescribed(node[keyword], `${path}[]`));
  }
  for (const keyword of ["anyOf", "oneOf", "allOf"]) {
    for (const [index, alternative] of ((node[keyword] as unknown[]) ?? []).entries()) {
      found.push(...undescribed(alternative, `${path}(${keyword} ${index})`));
    }
  }
  return found;
}

function describedInSchema(kind: KindModule, part: Part) {
  const key = keyOf(kind, part);
  it(`${part}: its key is in the JSON Schema with a description on every field`, () => {
    const schema = JSON.parse(schemaText()) as {
      properties: Record<string, { items: { properties: Record<string, unknown> } }>;
    };
    const entry = schema.properties[PARTS[part].list]!;
    const own = entry.items.properties[key] as Record<string, unknown> | undefined;
    expect(own, `${key} in the JSON Schema`).toBeDefined();
    expect(typeof own!.description, `${key} has a description`).toBe("string");
    expect(undescribed(own, key)).toEqual([]);
  });
}

/**
 * The values written under `node` that `validate --print` does not show: a pair is shown when a row
 * names its key's line or its value's first line (a list of checks prints whole); otherwise its
 * mapping, or its list of mappings, is walked; a scalar, null or list of scalars not shown is
 * missing. Returns the lines of what is missing.
 */
function unprinted(
  node: Node | null,
  printed: ReadonlySet<number>,
  lineOf: (offset: number) => number,
): number[] {
  if (isSeq(node)) return node.items.flatMap((item) => unprinted(item as Node, printed, lineOf));
  if (!isMap(node)) return [];
  return (node as YAMLMap).items.flatMap((pair) => {
    const value = pair.value as Node | null;
    const places = [pair.key as Node | null, value]
      .map((part) => part?.range?.[0])
      .filter((offset): offset is number => offset !== undefined)
      .map(lineOf);
    if (places.some((line) => printed.has(line))) return [];
    const nested = isMap(value) || (isSeq(value) && value.items.some((item) => isMap(item)));
    return nested ? unprinted(value, printed, lineOf) : places.slice(0, 1);
  });
}

function printedWithPlace(fixture: KindFixture, kind: KindModule, part: Part, where: PartFixture) {
  const key = keyOf(kind, part);
  it(`${part}: validate --print shows every value written with its file:line`, async () => {
    const [value] = fc.sample(where.desired, { seed: 20261129, numRuns: 1 });
    await within(fixture, async (world) => {
      const yaml = configOf(fixture, part, key, value);
      const printed = printState(world.load(yaml));
      const document = parseDocument(yaml);
      const starts = [0, ...[...yaml.matchAll(/\n/g)].map((match) => match.index + 1)];
      const lineOf = (offset: number) => starts.filter((start) => start <= offset).length;
      const node = document.getIn([PARTS[part].list, 0, key], true) as Node | null;
      const printedLines = new Set(
        [...printed.matchAll(/forgeplan\.yaml:(\d+) /g)].map((match) => Number(match[1])),
      );
      const missing = unprinted(node, printedLines, lineOf);
      expect(missing, `lines not printed:\n${yaml}\n${printed}`).toEqual([]);
      const rows = printed.split("\n").filter((row) => row.includes(" = "));
      const placeless = rows.filter((row) => !/\.yaml:\d+ |default$/.test(row));
      expect(placeless, "rows without a place").toEqual([]);
    });
  });
}

/**
 * Runs the suite for one registered kind with its fixture, or with the named variant of it
 * (`VARIANTS` in test/kinds/fixtures/index.ts).
 */
export function conformance(name: string, variant?: string): void {
  const fixture = variant === undefined ? FIXTURES[name] : VARIANTS[name]?.[variant];
  const which = variant === undefined ? "" : ` (${variant})`;
  if (fixture === undefined)
    throw new Error(`no fixture for kind "${name}"${which} in test/kinds/fixtures/`);
  const kind = kindOf(fixture.kind);
  // The kinds' files share their modules (vitest.config.ts), so each registers the check itself.
  afterEach(expectRequestsValid);
  describe(`kind ${kind.name}${which} conformance`, () => {
    const parts = (Object.keys(PARTS) as Part[]).map(
      (part): [Part, PartFixture | undefined, boolean] => [
        part,
        fixture[part],
        kind[part] !== undefined,
      ],
    );
    it("has a fixture for every part it has", () => {
      for (const [part, where, has] of parts) {
        expect(
          where !== undefined,
          `${kind.name}: ${part} part ${has ? "without" : "not registered, but"} a fixture`,
        ).toBe(has);
      }
      const ownSection = kind.section !== undefined;
      expect(fixture.section !== undefined, `${kind.name}: section fixture`).toBe(ownSection);
      // Export is how a team adopts forgeplan: a kind that writes must reproduce what it manages,
      // or, a clean-up (which names what must not exist), list as comments what it could name.
      if (!fixture.audit) {
        for (const part of Object.keys(PARTS) as Part[]) {
          const own = kind[part];
          if (own === undefined) continue;
          const comments = "comments" in own && own.comments !== undefined;
          expect(own.export !== undefined || comments, `${kind.name}: ${part} export`).toBe(true);
        }
      }
    });
    for (const [part, where] of parts) {
      if (where === undefined) continue;
      roundTrip(fixture, kind, part, where);
      if (!fixture.audit) mutationsDetected(fixture, kind, part, where);
      // The response schemas held here are GitHub's (@octokit/openapi); GitLab's answers are held
      // to GitLab's once its description is vendored (issue #40, item 4).
      if (PARTS[part].family === "github") answersValidate(fixture, kind, part, where);
      describedInSchema(kind, part);
      printedWithPlace(fixture, kind, part, where);
      hostileReads(fixture, kind, () =>
        fc
          .sample(where.desired, { seed: 20261130, numRuns: 20 })
          .map((value) => configOf(fixture, part, keyOf(kind, part), value)),
      );
    }
    if (fixture.section !== undefined) {
      const config = fixture.section.config;
      hostileReads(fixture, kind, () => [config]);
    }
  });
}
