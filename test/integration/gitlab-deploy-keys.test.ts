import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { demoWorld } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { configFile } from "../helpers/sandbox.js";
import { placeholdersOf } from "../helpers/placeholders.js";
import { entryConfig, gitlabScenario } from "../helpers/gitlab-scenario.js";

/**
 * GitLab deploy keys (#37, item 5) against the demo world: acme/api has `release bot` (id 1, write
 * access), acme/web `ci-deploy` (id 2). A key already on the instance is enabled, not added again
 * (with an administrator's token, which lists the instance's keys), or added and joined by GitLab
 * (without); a retitle is one PUT; a rotated key is added before the old one goes; authoritative
 * mode removes a key only from the project; export plans as no change.
 */

const KEYS = "/api/v4/projects/acme%2Fapi/deploy_keys";
const RELEASE =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKTD+bf3oHGhjkDcp/qtU5boewCxGh4tWZCXKau9ZRog release@acme";
const CI =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIObk/jhN6Owfx1L2BD0+wvCjyBAqAFfplBHbFvTITFYk ci@acme";
const ROTATED =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGnICLChsfVZskgV9bVtGT4CMyKHbX9J3ZFgFJHhkLyj release@acme";

const scenario = gitlabScenario({ forgetBefore: ["plan", "apply"] });
const { start, apply } = scenario;

/** The demo world with octo-admin (the token `sandbox-admin`) an administrator of the instance. */
function adminSeed(): string {
  const seed = structuredClone(demoWorld) as unknown as { users: Array<Record<string, unknown>> };
  for (const user of seed.users) if (user.login === "octo-admin") user.site_admin = true;
  const file = join(mkdtempSync(join(tmpdir(), "forgeplan-deploy-keys-")), "world.yaml");
  writeFileSync(file, stringify(seed));
  return file;
}

function config(yaml: string): string {
  return entryConfig("project: acme/api", "deploy_keys", yaml);
}

/** The plan of a file with only its changes that are not no-op (or hold an error). */
async function plan(path: string) {
  const { code, plan: parsed } = await scenario.plan(path);
  const changes = parsed.changes.filter(
    (change) => change.action !== "no-op" || change.error !== undefined,
  );
  return { code, plan: { ...parsed, changes } };
}

const writes = () =>
  scenario.requests
    .filter((request) => request.method !== "GET")
    .map((request) => `${request.method} ${decodeURIComponent(request.path)}`);

async function live(path = KEYS): Promise<Array<Record<string, unknown>>> {
  const answer = await fetch(`${scenario.world.url}${path}`, {
    headers: { "PRIVATE-TOKEN": "sandbox-admin" },
  });
  return (await answer.json()) as Array<Record<string, unknown>>;
}

describe("GitLab deploy keys", () => {
  it("enables a key already on the instance (an administrator's token), then sets its title and can_push", async () => {
    await start({ seed: adminSeed() });
    const path = config(`
items:
  release bot: { key: "${RELEASE}", can_push: true }
  deployer: { key: "${CI}", can_push: true }
`);
    const first = await plan(path);
    expect(first.code).toBe(2);
    expect(
      first.plan.changes.map((change) => [change.address, change.action, change.requests]),
    ).toEqual([
      [
        "gitlab/acme/api/gitlab_deploy_key/deployer",
        "create",
        [
          { method: "POST", path: `${KEYS}/2/enable` },
          { method: "PUT", path: `${KEYS}/2`, body: { title: "deployer", can_push: true } },
        ],
      ],
    ]);
    expect(first.plan.changes[0]!.notes).toContain(
      "deploy key 2 is on the instance already: it is enabled, not added again",
    );
    // The plan read the instance's keys to find it.
    expect(
      scenario.requests.some((request) => request.path.startsWith("/api/v4/deploy_keys")),
    ).toBe(true);
    expect((await apply(path)).code).toBe(0);
    expect(writes()).toEqual([
      `POST ${decodeURIComponent(KEYS)}/2/enable`,
      `PUT ${decodeURIComponent(KEYS)}/2`,
    ]);
    expect((await plan(path)).code).toBe(0);
    const instance = await live("/api/v4/deploy_keys");
    // One key, enabled in both projects; no second copy was made.
    expect(instance.map((key) => [key.id, key.title])).toEqual([
      [1, "release bot"],
      [2, "deployer"],
    ]);
    const shared = instance.find((key) => key.id === 2)!;
    expect(
      (shared.projects_with_write_access as Array<{ path_with_namespace: string }>).map(
        (project) => project.path_with_namespace,
      ),
    ).toEqual(["acme/api"]);
    expect(
      (shared.projects_with_readonly_access as Array<{ path_with_namespace: string }>).map(
        (project) => project.path_with_namespace,
      ),
    ).toEqual(["acme/web"]);
  });

  it("adds a key without the instance's listing, which GitLab joins to the one on the instance", async () => {
    await start();
    const path = config(`
items:
  deployer: { key: "${CI}" }
`);
    const first = await plan(path);
    expect(first.plan.changes.map((change) => [change.action, change.requests])).toEqual([
      [
        "create",
        [
          { method: "POST", path: KEYS, body: { title: "deployer", key: CI, can_push: false } },
          {
            method: "PUT",
            path: `${KEYS}/{created.id}`,
            body: { title: "deployer", can_push: false },
          },
        ],
      ],
    ]);
    expect((await apply(path)).code).toBe(0);
    expect(writes()).toEqual([
      `POST ${decodeURIComponent(KEYS)}`,
      `PUT ${decodeURIComponent(KEYS)}/2`,
    ]);
    expect((await plan(path)).code).toBe(0);
    expect((await live()).map((key) => [key.id, key.title])).toEqual([
      [1, "release bot"],
      [2, "deployer"],
    ]);
  });

  it("edits a retitle in place, replaces a rotated key new-first, and removes only from the project", async () => {
    await start();
    const retitle = config(`
items:
  release: { key: "${RELEASE}", can_push: true }
`);
    const planned = await plan(retitle);
    expect(
      planned.plan.changes.map((change) => [
        change.address,
        change.action,
        change.diff,
        change.requests,
      ]),
    ).toEqual([
      [
        "gitlab/acme/api/gitlab_deploy_key/release",
        "update",
        [{ path: "title", before: "release bot", after: "release" }],
        [{ method: "PUT", path: `${KEYS}/1`, body: { title: "release", can_push: true } }],
      ],
    ]);
    expect((await apply(retitle)).code).toBe(0);

    const rotate = config(`
items:
  release: { key: "${ROTATED}", can_push: true, expires_at: "2030-01-31T00:00:00Z" }
`);
    const rotation = await plan(rotate);
    const change = rotation.plan.changes[0]!;
    expect(change.action).toBe("update");
    expect(change.diff.map((entry) => entry.path)).toEqual(["fingerprint", "expires_at"]);
    expect((await apply(rotate)).code).toBe(0);
    expect(writes()).toEqual([
      `POST ${decodeURIComponent(KEYS)}`,
      `PUT ${decodeURIComponent(KEYS)}/3`,
      `DELETE ${decodeURIComponent(KEYS)}/1`,
    ]);
    expect((await plan(rotate)).code).toBe(0);
    expect((await live()).map((key) => [key.id, key.title, key.expires_at])).toEqual([
      [3, "release", "2030-01-31T00:00:00.000Z"],
    ]);

    // Authoritative with acme/web's key listed elsewhere: acme/api's own key goes, acme/web keeps its.
    const only = config(`
mode: authoritative
items:
  ci: { key: "${CI}" }
`);
    expect((await apply(only, "--allow-delete")).code).toBe(0);
    expect((await plan(only)).code).toBe(0);
    expect((await live()).map((key) => key.title)).toEqual(["ci"]);
    expect((await live("/api/v4/projects/acme%2Fweb/deploy_keys")).map((key) => key.title)).toEqual(
      ["ci"],
    );
    // The key acme/api alone used is gone from the instance; acme/web's key stays after an unlink.
    const none = config(`
items:
  ci: null
`);
    expect((await apply(none, "--allow-delete")).code).toBe(0);
    expect(writes()).toEqual([`DELETE ${decodeURIComponent(KEYS)}/2`]);
    expect(await live()).toEqual([]);
    expect((await live("/api/v4/projects/acme%2Fweb/deploy_keys")).map((key) => key.id)).toEqual([
      2,
    ]);
  });

  it("exports acme/api's keys, which plan as no change", async () => {
    await start();
    const out = configFile("", "acme-keys.yaml");
    const exported = await runInProcess([
      "export",
      "--project",
      "acme/api",
      "--sandbox-url",
      scenario.world.url,
      "--out",
      out,
    ]);
    expect(exported.stderr).toBe("");
    expect(exported.code).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text).toMatch(
      /deploy_keys:\n\s+mode: additive\n\s+items:\n\s+release bot:\n\s+key: ssh-ed25519 /,
    );
    const planned = await runInProcess(["plan", "-c", out, "--sandbox-url", scenario.world.url], {
      cwd: dirname(out),
      // The demo's hooks export their write-only tokens as placeholders to fill.
      env: placeholdersOf(text),
    });
    expect(planned.stdout).toContain("No changes.");
    expect(planned.code).toBe(0);
  });
});
