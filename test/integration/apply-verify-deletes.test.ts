import { describe, expect, it } from "vitest";
import { type ApplyReport, type Change, newChange } from "../../src/core/plan.js";
import { Secret } from "../../src/core/secret.js";
import { ForgeClient } from "../../src/forge/client.js";
import { ResourceReader } from "../../src/resources/context.js";
import { repositorySite } from "../../src/resources/webhook/canonical.js";
import { planWebhooks } from "../../src/resources/webhook/plan.js";
import { runInProcess } from "../helpers/cli.js";
import { type Refuse, sandboxBehindProxy } from "../helpers/failing-proxy.js";
import { call, configFile } from "../helpers/sandbox.js";

/**
 * A delete counts as verified only where the re-plan shows the resource gone. Here the re-plan
 * cannot read where it lived — the repository's hooks, the organization's repositories, the
 * project's boards — while the apply itself went through.
 */

const service = sandboxBehindProxy();

const HOOKS = "/repos/acme/api/hooks";
const CHAT = "github/acme/api/webhook/https://chat.acme.example/notify";

/** GitHub's answer to listing hooks without admin rights on the repository. */
const NO_ADMIN = { status: 403, body: { message: "Must have admin rights to Repository." } };

/** acme/api's hooks, authoritatively: hook 2 (chat) is not listed, so apply deletes it. */
const onlyCi = (name: string) =>
  configFile(`version: 1
repositories:
  - name: ${name}
    webhooks:
      mode: authoritative
      hooks:
        - { url: https://ci.acme.example/hooks/forge }
`);

/** The apply's run, through a proxy that refuses what `refuse` says. */
async function applyThrough(path: string, refuse: Refuse, ...extra: string[]) {
  const url = await service.through(refuse);
  return runInProcess([
    "apply",
    "-c",
    path,
    "--sandbox-url",
    url,
    "--auto-approve",
    "--allow-delete",
    ...extra,
  ]);
}

async function hookIds(): Promise<number[]> {
  return ((await call(service.world(), "GET", HOOKS)).body as Array<{ id: number }>).map(
    (hook) => hook.id,
  );
}

describe("a delete the re-plan could not read again", () => {
  it("is not verified when the re-plan's listing of the repository's hooks fails", async () => {
    // The first listing plans the delete; the second is the verifying re-plan's.
    const applied = await applyThrough(onlyCi("acme/api"), (method, path, seen) =>
      method === "GET" && path === HOOKS && seen === 2 ? NO_ADMIN : undefined,
    );
    expect(await hookIds()).toEqual([1]);
    expect(applied.stdout).toContain("Apply: 1 applied, 0 failed, 0 held, 0 skipped.");
    expect(applied.stdout).not.toContain("Verified");
    // The hook the configuration lists could not be planned either: the re-plan shows it as such.
    expect(applied.stdout).toContain(
      "The re-plan could not check 1 applied change:\n" +
        `  ✗ ${CHAT}: the re-plan could not plan it: GET ${HOOKS}?per_page=100 → 403: Must have admin rights to Repository.\n`,
    );
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain(
      `forgeplan: apply: not verified: the re-plan could not check 1 applied change (the report above says why): ${CHAT}\n`,
    );
  });

  it("is not verified when no hook is listed and the re-plan's listing of them fails", async () => {
    // Nothing the configuration names is there to carry the listing's error: the deletes do.
    const path = configFile(`version: 1
repositories:
  - name: acme/api
    webhooks: { mode: authoritative, hooks: [] }
`);
    const applied = await applyThrough(path, (method, requested, seen) =>
      method === "GET" && requested === HOOKS && seen === 2 ? NO_ADMIN : undefined,
    );
    expect(await hookIds()).toEqual([]);
    const failure = `the re-plan could not plan it: GET ${HOOKS}?per_page=100 → 403: Must have admin rights to Repository.`;
    // The re-plan also shows what it could not list, which authoritative mode would delete.
    expect(applied.stdout).toContain(
      "Apply: 2 applied, 0 failed, 0 held, 0 skipped.\n" +
        "Not verified: the re-plan still shows 1 change:\n\n" +
        "✗ github/acme/api/webhook/* could not be planned\n" +
        `    error: GET ${HOOKS}?per_page=100 → 403: Must have admin rights to Repository.\n` +
        "    note: the hooks authoritative mode would delete could not be listed\n\n" +
        "The re-plan could not check 2 applied changes:\n" +
        `  ✗ github/acme/api/webhook/https://ci.acme.example/hooks/forge: ${failure}\n` +
        `  ✗ ${CHAT}: ${failure}\n`,
    );
    expect(applied.code).toBe(1);
  });

  it("is verified when the re-plan lists the hooks and the deleted one is not among them", async () => {
    const applied = await applyThrough(onlyCi("acme/api"), () => undefined);
    expect(applied.stdout).toContain("Verified: re-plan shows no changes.");
    expect(applied.code).toBe(0);
    expect(await hookIds()).toEqual([1]);
  });

  it("is not verified when the re-plan cannot list the repositories a glob selects", async () => {
    const listing = "/orgs/acme/repos";
    const applied = await applyThrough(
      onlyCi("acme/api*"),
      (method, path, seen) =>
        method === "GET" && path === listing && seen === 2
          ? { status: 403, body: { message: "Resource not accessible by integration" } }
          : undefined,
      "--format",
      "json",
    );
    expect(await hookIds()).toEqual([1]);
    expect(applied.code).toBe(1);
    const report = JSON.parse(applied.stdout) as ApplyReport;
    expect(report.verified).toBe(false);
    expect(report.unchecked).toEqual([
      {
        address: CHAT,
        reason: expect.stringMatching(
          /^the re-plan has no entry for it; it could not plan github\/acme\/api\*\/webhook\/\*: GET \/orgs\/acme\/repos\?\S* → 403: Resource not accessible by integration/,
        ) as unknown as string,
      },
    ]);
  });

  it("is not verified when the re-plan's listing of the project's boards fails", async () => {
    const path = configFile(`version: 1
projects:
  - project: acme/api
    boards_absent:
      - id: 2
`);
    const boards = "/api/v4/projects/acme%2Fapi/boards";
    const applied = await applyThrough(
      path,
      (method, requested, seen) =>
        method === "GET" && requested === boards && seen === 2
          ? { status: 403, body: { message: "403 Forbidden" } }
          : undefined,
      "--format",
      "markdown",
    );
    expect(applied.stdout).toContain(
      "**Not verified:** the re-plan could not check 1 applied change:\n\n" +
        "- <code>gitlab/acme/api/board/\\#2</code>: the re-plan could not plan it: " +
        `GET ${boards}?per\\_page=100 → 403: Forbidden\n`,
    );
    expect(applied.code).toBe(1);
  });

  it("is not verified when the re-plan's listing of an epic's related epics fails", async () => {
    const path = configFile(`version: 1
groups:
  - group: acme
    epic_links_absent:
      - { epic: 1, related: 2 }
`);
    const related = "/api/v4/groups/acme/epics/1/related_epics";
    const applied = await applyThrough(path, (method, requested, seen) =>
      method === "GET" && requested === related && seen === 2
        ? { status: 403, body: { message: "403 Forbidden" } }
        : undefined,
    );
    expect(applied.stdout).toContain(
      "Not verified: the re-plan could not check 1 applied change:\n" +
        `  ✗ gitlab/acme/epic_link/1-2: the re-plan could not plan it: GET ${related}?per_page=100 → 403: Forbidden\n`,
    );
    expect(applied.code).toBe(1);
  });
});

describe("the hooks an apply deleted, in the plan that verifies it", () => {
  const reader = () =>
    new ResourceReader(
      "github",
      new ForgeClient({
        baseUrl: service.world().url,
        kind: "repository",
        token: new Secret("sandbox-admin", "sandbox"),
        writeIntervalMs: 0,
      }),
    );
  /** Hook `id` of acme/api as the applied plan named and deleted it. */
  const deletedHook = (name: string, id: number): Change => ({
    ...newChange("github", "acme/api", "webhook", name),
    action: "delete",
    requests: [{ method: "DELETE", path: `${HOOKS}/${id}` }],
  });
  const planned = (deleted: Change[]) =>
    planWebhooks({
      reader: reader(),
      site: repositorySite({ owner: "acme", name: "api" }),
      mode: "additive",
      hooks: [],
      rotation: {},
      deleted,
    });

  it("are planned as already absent when the list no longer holds their ids", async () => {
    const gone = deletedHook("https://old.acme.example/hook", 9);
    const changes = await planned([gone]);
    expect(changes.map((change) => [change.address, change.action, change.error])).toEqual([
      [gone.address, "no-op", undefined],
    ]);
  });

  it("are left without an entry when the list still holds their ids, under another name", async () => {
    // Hook 2's url was changed after the plan named it: it is there, so it is not gone.
    expect(await planned([deletedHook("https://renamed.acme.example/hook", 2)])).toEqual([]);
  });
});
