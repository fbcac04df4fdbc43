import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

let world: RunningSandbox;
beforeEach(async () => {
  world = await sandbox();
});
afterEach(async () => {
  await world.stop();
});

const at = () => ["--sandbox-url", world.url];

function cleanup(project: string, boards: string[]): string {
  return configFile(`version: 1
projects:
  - project: ${project}
    boards_absent:
${boards.map((board) => `      - ${board}`).join("\n")}
`);
}

async function plan(path: string): Promise<{ code: number; plan: Plan }> {
  const result = await runInProcess(["plan", "-c", path, ...at(), "--format", "json"]);
  return { code: result.code, plan: JSON.parse(result.stdout) as Plan };
}

async function boardIds(project: number): Promise<number[]> {
  const listed = await call(world, "GET", `/api/v4/projects/${project}/boards?per_page=100`);
  return (listed.body as Array<{ id: number }>).map((board) => board.id);
}

async function addBoard(name: string): Promise<number> {
  const created = await call(world, "POST", "/api/v4/projects/1/boards", { body: { name } });
  return (created.body as { id: number }).id;
}

describe("boards_absent by name, as GitLab names boards", () => {
  it("refuses a name two boards carry, naming their ids, and deletes neither", async () => {
    const twin = await addBoard("Legacy triage");
    const path = cleanup("acme/api", ["name: Legacy triage"]);
    const planned = await plan(path);
    expect(planned.code).toBe(1);
    expect(
      planned.plan.changes.map((c) => [c.name, c.action, c.requests, c.error?.message]),
    ).toEqual([
      [
        "Legacy triage",
        "no-op",
        [],
        `2 boards of project acme/api are named "Legacy triage" (ids 2, ${twin}): name the one to delete by id`,
      ],
    ]);
    const applied = await runInProcess([
      "apply",
      "-c",
      path,
      ...at(),
      "--auto-approve",
      "--allow-delete",
    ]);
    expect(applied.code).toBe(1);
    expect(await boardIds(1)).toEqual([1, 2, twin]);

    const byId = cleanup("acme/api", [`id: ${twin}`]);
    const chosen = await runInProcess([
      "apply",
      "-c",
      byId,
      ...at(),
      "--auto-approve",
      "--allow-delete",
    ]);
    expect(chosen.code).toBe(0);
    expect(await boardIds(1)).toEqual([1, 2]);
  });

  it("compares names as written: another case is another board", async () => {
    const planned = await plan(cleanup("acme/api", ["name: legacy triage"]));
    expect(planned.code).toBe(0);
    expect(planned.plan.changes.map((c) => [c.name, c.action, c.error])).toEqual([
      ["legacy triage", "no-op", undefined],
    ]);
  });

  it("finds the board named on a later page of the listing and deletes exactly it", async () => {
    const ids: number[] = [];
    for (let index = 1; index <= 150; index += 1) {
      ids.push(await addBoard(`Sprint ${String(index).padStart(3, "0")}`));
    }
    const path = cleanup("1", ["name: Sprint 150"]);
    const planned = await plan(path);
    expect(planned.code).toBe(2);
    expect(planned.plan.changes.map((c) => c.requests)).toEqual([
      [{ method: "DELETE", path: `/api/v4/projects/1/boards/${ids[149]}` }],
    ]);
    const applied = await runInProcess([
      "apply",
      "-c",
      path,
      ...at(),
      "--auto-approve",
      "--allow-delete",
    ]);
    expect(applied.code).toBe(0);
    const left = await call(world, "GET", "/api/v4/projects/1/boards?per_page=100&page=2");
    expect((left.body as Array<{ id: number }>).map((board) => board.id)).not.toContain(ids[149]);
    expect((await plan(path)).code).toBe(0);
  });
});

describe("boards_absent that GitLab could not carry out", () => {
  it("refuses clean-ups that would delete every board of a project: GitLab keeps the last one", async () => {
    const only = await plan(cleanup("acme/web", ["name: Web"]));
    expect(only.code).toBe(1);
    expect(only.plan.changes.map((c) => [c.action, c.error?.message])).toEqual([
      [
        "no-op",
        "would delete every board of project acme/web (id 3), and GitLab keeps a project's last board: leave one of them out",
      ],
    ]);
    const both = await plan(cleanup("acme/api", ["id: 1", "name: Legacy triage"]));
    expect(both.plan.changes.map((c) => [c.action, c.error?.message])).toEqual([
      [
        "no-op",
        "would delete every board of project acme/api (ids 1, 2), and GitLab keeps a project's last board: leave one of them out",
      ],
      [
        "no-op",
        "would delete every board of project acme/api (ids 1, 2), and GitLab keeps a project's last board: leave one of them out",
      ],
    ]);
    const applied = await runInProcess([
      "apply",
      "-c",
      cleanup("acme/api", ["id: 1", "name: Legacy triage"]),
      ...at(),
      "--auto-approve",
      "--allow-delete",
    ]);
    expect(applied.code).toBe(1);
    expect(await boardIds(1)).toEqual([1, 2]);
  });

  it("plans one delete when two entries name the same board, and names the duplicate", async () => {
    const planned = await plan(cleanup("acme/api", ["name: Legacy triage", "id: 2"]));
    expect(planned.code).toBe(1);
    expect(planned.plan.changes.map((c) => [c.name, c.action, c.error?.message])).toEqual([
      ["Legacy triage", "delete", undefined],
      ["#2", "no-op", 'names the same board (id 2) as the entry "Legacy triage": list it once'],
    ]);
  });
});
