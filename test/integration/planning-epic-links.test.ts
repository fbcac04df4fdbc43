import { afterEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { configFile, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

/** Group `big` (id 7) whose epic 1 is related to each of epics 2 … count+1 (link n to epic n+1). */
function manyLinksSeed(count: number): string {
  const epics = Array.from(
    { length: count + 1 },
    (_, i) => `      - { iid: ${i + 1}, title: E${i + 1} }`,
  );
  const links = Array.from(
    { length: count },
    (_, i) => `  - { id: ${i + 1}, source: "big&1", target: "big&${i + 2}" }`,
  );
  const seed = [
    "users:",
    "  - { login: alice, id: 1, token: sandbox-admin }",
    "groups:",
    "  - id: 7",
    "    path: big",
    "    name: Big",
    "    members: { alice: owner }",
    "    epics:",
    ...epics,
    "epic_links:",
    ...links,
    "",
  ];
  return configFile(seed.join("\n"), "seed.yaml");
}

describe("epic_links_absent on an epic with more related epics than a page holds", () => {
  it("finds links past the first hundred, by id and by pair, and deletes exactly them", async () => {
    world = await sandbox({ seed: manyLinksSeed(120) });
    const config = configFile(`version: 1
groups:
  - group: big
    epic_links_absent:
      - { link_id: 120, epic: 1 }
      - { epic: 1, related: 116 }
`);
    const at = ["--sandbox-url", world.url];
    const planned = await runInProcess(["plan", "-c", config, ...at, "--format", "json"]);
    expect(planned.code).toBe(2);
    expect((JSON.parse(planned.stdout) as Plan).changes.map((c) => c.requests)).toEqual([
      [{ method: "DELETE", path: "/api/v4/groups/big/epics/1/related_epics/120" }],
      [{ method: "DELETE", path: "/api/v4/groups/big/epics/1/related_epics/115" }],
    ]);
    const applied = await runInProcess([
      "apply",
      "-c",
      config,
      ...at,
      "--auto-approve",
      "--allow-delete",
    ]);
    expect(applied.code).toBe(0);
    expect((await runInProcess(["plan", "-c", config, ...at])).code).toBe(0);
  });
});
