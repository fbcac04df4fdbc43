import { dirname } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RecordedRequest, RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { call, configFile, sandbox } from "../helpers/sandbox.js";

/**
 * An organization hook's config edit keeps its secret under GitHub's rule: an update of the hook
 * "overwrites" the secret unless it is sent again, so forgeplan edits the config at
 * `…/hooks/{id}/config` and carries the managed secret with every such edit; the hook PATCH for
 * events and active carries no config at all.
 */

const HOOKS = "/orgs/acme/hooks";
const SECRET = "org-hook-signing-secret";
const env = { ORG_HOOK_SECRET: SECRET };

let world: RunningSandbox;
const writes: RecordedRequest[] = [];

beforeEach(async () => {
  writes.length = 0;
  world = await sandbox({
    onRequest: (request) => {
      if (request.method !== "GET") writes.push(request);
    },
  });
});
afterEach(async () => {
  await world.stop();
});

function hooks(...entries: string[]): string {
  return configFile(
    [
      "version: 1",
      "organizations:",
      "  - name: acme",
      "    webhooks:",
      "      hooks:",
      ...entries.map((entry) => `        - ${entry}`),
      "",
    ].join("\n"),
  );
}

async function run(argv: string[], path: string) {
  return runInProcess([...argv, "-c", path, "--sandbox-url", world.url], {
    env,
    cwd: dirname(path),
  });
}

describe("an organization hook", () => {
  it("is created with its secret, and a config edit carries the secret so the hook keeps it", async () => {
    const url = "https://ci.acme.example/org";
    const created = hooks(`{ url: "${url}", events: [push], secret: "\${ORG_HOOK_SECRET}" }`);
    expect((await run(["apply", "--auto-approve"], created)).code).toBe(0);
    const post = writes.find((request) => request.method === "POST")!;
    expect(post.path).toBe(HOOKS);
    expect(post.body).toMatchObject({ name: "web", config: { url, secret: SECRET } });
    const listed = (await call(world, "GET", HOOKS)).body as Array<{
      id: number;
      config: { url: string };
    }>;
    const id = listed.find((hook) => hook.config.url === url)!.id;

    writes.length = 0;
    const moved = hooks(
      `{ id: ${id}, url: "https://ci.acme.example/org-v2", content_type: form, events: [push, release], secret: "\${ORG_HOOK_SECRET}" }`,
    );
    const planned = await run(["plan", "--format", "json"], moved);
    expect(planned.code).toBe(2);
    expect(planned.stdout).not.toContain(SECRET);
    const change = JSON.parse(planned.stdout).changes.find(
      (each: { kind: string; action: string }) =>
        each.kind === "webhook" && each.action === "update",
    );
    expect(change.notes).toContain(
      "secret sent again with the config edit, so the hook keeps the one configured",
    );
    expect((await run(["apply", "--auto-approve"], moved)).code).toBe(0);
    expect(writes.map((request) => [request.method, request.path, request.body])).toEqual([
      [
        "PATCH",
        `${HOOKS}/${id}/config`,
        { url: "https://ci.acme.example/org-v2", content_type: "form", secret: SECRET },
      ],
      ["PATCH", `${HOOKS}/${id}`, { events: ["push", "release"] }],
    ]);
    const config = await call(world, "GET", `${HOOKS}/${id}/config`);
    expect(config.body).toMatchObject({
      url: "https://ci.acme.example/org-v2",
      content_type: "form",
      secret: "********",
    });
    expect((await run(["plan"], moved)).code).toBe(0);
  });

  it("whose secret another client's update removed, as GitHub's rule has it, gets it back", async () => {
    const url = "https://audit.acme.example/github";
    const managed = hooks(`{ url: "${url}", secret: "\${ORG_HOOK_SECRET}" }`);
    expect((await run(["plan"], managed)).code).toBe(0);
    // A hook PATCH with a config that does not send the secret removes it (GitHub's description).
    const removed = await call(world, "PATCH", `${HOOKS}/501`, {
      body: { config: { url, content_type: "json" } },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.config.secret).toBeUndefined();
    const planned = await run(["plan", "--format", "json"], managed);
    expect(planned.code).toBe(2);
    expect(JSON.parse(planned.stdout).changes[0].diff).toEqual([
      { path: "secret", before: "(sensitive)", after: "(sensitive)", sensitive: true },
    ]);
    writes.length = 0;
    expect((await run(["apply", "--auto-approve"], managed)).code).toBe(0);
    expect(writes.map((request) => [request.method, request.path, request.body])).toEqual([
      ["PATCH", `${HOOKS}/501/config`, { secret: SECRET }],
    ]);
    expect((await call(world, "GET", `${HOOKS}/501/config`)).body.secret).toBe("********");
  });
});
