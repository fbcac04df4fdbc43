import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/core/plan.js";
import type { RecordedRequest, RunningSandbox } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { ADMIN, configFile, sandbox } from "../helpers/sandbox.js";

/**
 * GitLab webhooks (#37, item 4) against the demo world, with a receiver on loopback that the
 * sandbox delivers test events to (`POST …/hooks/:hook_id/test/push_events`): what the receiver is
 * sent in `X-Gitlab-Token` and the custom headers is what the hook holds. GitLab never shows a
 * token, so that delivery is how the test sees that an edit kept it, that rotation replaced it,
 * and that a pinned hook moved to another url got it again (GitLab clears it on a url change).
 */

const CANARY_TOKEN = "glht_CanaryHookTok3n.8d1f";
const CANARY_HEADER = "Bearer CanaryHookHead3r+/=";
const ROTATED_TOKEN = "glht_Rotat3dHookTok3n.2c7e";
const CANARY_CORES = ["CanaryHookTok3n", "CanaryHookHead3r", "Rotat3dHookTok3n"];

let world: RunningSandbox;
let receiver: Server;
let receiverUrl: string;
let deliveries: Array<{ path: string; headers: IncomingHttpHeaders }>;
let waiting: Array<() => void>;
let requests: RecordedRequest[];

beforeEach(async () => {
  deliveries = [];
  waiting = [];
  requests = [];
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      deliveries.push({ path: req.url ?? "/", headers: req.headers });
      res.end("{}");
      for (const wake of waiting.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  world = await sandbox({ onRequest: (request) => requests.push(request) });
});

afterEach(async () => {
  await world.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

const PROJECT_HOOKS = "/api/v4/projects/acme%2Fapi/hooks";

async function api(method: string, path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${world.url}${path}`, {
    method,
    headers: { "PRIVATE-TOKEN": ADMIN },
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** Has the sandbox deliver a test push event of hook `id` and returns what the receiver got. */
async function delivered(id: number) {
  const before = deliveries.length;
  const arrived = new Promise<void>((resolve) => waiting.push(resolve));
  const answer = await api("POST", `${PROJECT_HOOKS}/${id}/test/push_events`);
  expect(answer).toEqual({ status: 201, body: { message: "201 Created" } });
  await arrived;
  const delivery = deliveries[before]!;
  return {
    path: delivery.path,
    token: delivery.headers["x-gitlab-token"],
    auth: delivery.headers["x-auth"],
    event: delivery.headers["x-gitlab-event"],
  };
}

const env = () => ({ HOOK_TOKEN: CANARY_TOKEN, HOOK_AUTH: CANARY_HEADER });

async function run(yaml: string, command: string[], environment = env()) {
  requests = [];
  const path = configFile(yaml);
  const result = await runInProcess([...command, "-c", path, "--sandbox-url", world.url], {
    env: environment,
    cwd: dirname(path),
  });
  for (const core of CANARY_CORES) {
    expect(result.stdout, `${command.join(" ")} stdout`).not.toContain(core);
    expect(result.stderr, `${command.join(" ")} stderr`).not.toContain(core);
  }
  return result;
}

const writes = () =>
  requests
    .filter((request) => request.method !== "GET")
    .map((request) => ({
      method: request.method,
      path: decodeURIComponent(request.path),
      body: request.body,
    }));

function config(hook: string): string {
  return `version: 1
projects:
  - project: acme/api
    webhooks:
      hooks:
${hook
  .split("\n")
  .map((line) => `        ${line}`)
  .join("\n")}
`;
}

async function hookIdAt(url: string): Promise<number> {
  const listed = (await api("GET", PROJECT_HOOKS)).body as Array<{ id: number; url: string }>;
  const found = listed.find((hook) => hook.url === url);
  if (found === undefined) throw new Error(`no hook at ${url}`);
  return found.id;
}

describe("GitLab webhooks", () => {
  it("keeps the secret token through an edit, sends it again only when rotated, prints it nowhere", async () => {
    const url = `${receiverUrl}/hook`;
    const created = config(`- url: ${url}
  events: [push]
  token: \${HOOK_TOKEN}
  custom_headers: { X-Auth: "\${HOOK_AUTH}" }`);
    const planned = await run(created, ["plan", "--format", "json"]);
    expect(planned.code, planned.stdout + planned.stderr).toBe(2);
    const plan = JSON.parse(planned.stdout) as Plan;
    const [create] = plan.changes.filter((change) => change.kind === "gitlab_hook");
    expect(create?.action).toBe("create");
    expect(create?.requests[0]?.body).toMatchObject({
      url,
      push_events: true,
      merge_requests_events: false,
      token: { $secret: "HOOK_TOKEN" },
      custom_headers: [{ key: "X-Auth", value: { $secret: "HOOK_AUTH" } }],
    });
    expect(create?.diff.find((entry) => entry.path === "token")).toMatchObject({
      sensitive: true,
    });
    expect((await run(created, ["apply", "--auto-approve"])).code).toBe(0);
    const id = await hookIdAt(url);
    // The create sent the values themselves; the delivery carries them.
    expect(writes()[0]?.body).toMatchObject({
      token: CANARY_TOKEN,
      custom_headers: [{ key: "X-Auth", value: CANARY_HEADER }],
    });
    expect(await delivered(id)).toEqual({
      path: "/hook",
      token: CANARY_TOKEN,
      auth: CANARY_HEADER,
      event: "Push Hook",
    });

    // An edit of the events is one PUT without the token, and the hook keeps it.
    const edited = config(`- url: ${url}
  events: [push, merge_requests, pipeline]
  token: \${HOOK_TOKEN}
  custom_headers: { X-Auth: "\${HOOK_AUTH}" }`);
    const text = await run(edited, ["plan"]);
    expect(text.stdout).toContain("token is write-only");
    expect((await run(edited, ["apply", "--auto-approve"])).code).toBe(0);
    const sent = writes();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: "PUT", path: `/api/v4/projects/acme/api/hooks/${id}` });
    expect(sent[0]!.body).toMatchObject({
      url,
      merge_requests_events: true,
      pipeline_events: true,
    });
    expect(sent[0]!.body).not.toHaveProperty("token");
    expect(sent[0]!.body).not.toHaveProperty("custom_headers");
    expect(await delivered(id)).toMatchObject({ token: CANARY_TOKEN, auth: CANARY_HEADER });
    expect((await run(edited, ["plan"])).code).toBe(0);

    // A new value in the environment is not sent by itself: GitLab cannot show the old one.
    const rotatedEnv = { HOOK_TOKEN: ROTATED_TOKEN, HOOK_AUTH: CANARY_HEADER };
    expect((await run(edited, ["apply", "--auto-approve"], rotatedEnv)).code).toBe(0);
    expect(writes()).toEqual([]);
    expect(await delivered(id)).toMatchObject({ token: CANARY_TOKEN });

    // --rotate-secret HOOK_AUTH sends the header only; --rotate-secrets the token too.
    const header = await run(edited, ["apply", "--auto-approve", "--rotate-secret", "HOOK_AUTH"]);
    expect(header.code).toBe(0);
    expect(writes()).toEqual([
      {
        method: "PUT",
        path: `/api/v4/projects/acme/api/hooks/${id}`,
        body: { url, custom_headers: [{ key: "X-Auth", value: CANARY_HEADER }] },
      },
    ]);
    const plannedRotation = await run(
      edited,
      ["plan", "--format", "json", "--rotate-secrets"],
      rotatedEnv,
    );
    const rotation = (JSON.parse(plannedRotation.stdout) as Plan).changes.find(
      (change) => change.kind === "gitlab_hook",
    );
    expect(rotation?.diff.map((entry) => [entry.path, entry.before, entry.after])).toEqual([
      ["token", "(sensitive)", "(sensitive)"],
      ["custom_headers.X-Auth", "(sensitive)", "(sensitive)"],
    ]);
    const rotated = await run(edited, ["apply", "--auto-approve", "--rotate-secrets"], rotatedEnv);
    expect(rotated.code).toBe(0);
    expect(writes()).toEqual([
      {
        method: "PUT",
        path: `/api/v4/projects/acme/api/hooks/${id}`,
        body: {
          url,
          token: ROTATED_TOKEN,
          custom_headers: [{ key: "X-Auth", value: CANARY_HEADER }],
        },
      },
    ]);
    expect(await delivered(id)).toMatchObject({ token: ROTATED_TOKEN, auth: CANARY_HEADER });
  });

  it("sends the token and headers again when a pinned hook moves to another url", async () => {
    const first = `${receiverUrl}/first`;
    const moved = `${receiverUrl}/moved`;
    const hook = (url: string, id = "") =>
      config(`- url: ${url}${id}
  token: \${HOOK_TOKEN}
  custom_headers: { X-Auth: "\${HOOK_AUTH}" }`);
    expect((await run(hook(first), ["apply", "--auto-approve"])).code).toBe(0);
    const id = await hookIdAt(first);
    const pinned = hook(moved, `\n  id: ${id}`);
    const planned = await run(pinned, ["plan"]);
    expect(planned.stdout).toContain("token sent again with the url change");
    expect((await run(pinned, ["apply", "--auto-approve"])).code).toBe(0);
    // GitLab clears the token and the headers on a url change, those sent with it included: the
    // token goes with the url, the headers in a PUT after it.
    expect(writes()).toEqual([
      {
        method: "PUT",
        path: `/api/v4/projects/acme/api/hooks/${id}`,
        body: { url: moved, token: CANARY_TOKEN },
      },
      {
        method: "PUT",
        path: `/api/v4/projects/acme/api/hooks/${id}`,
        body: { url: moved, custom_headers: [{ key: "X-Auth", value: CANARY_HEADER }] },
      },
    ]);
    expect(await delivered(id)).toMatchObject({
      path: "/moved",
      token: CANARY_TOKEN,
      auth: CANARY_HEADER,
    });
    expect((await run(pinned, ["plan"])).code).toBe(0);

    // Moved by hand without the token, GitLab clears it: the delivery has none.
    const answer = await fetch(`${world.url}${PROJECT_HOOKS}/${id}`, {
      method: "PUT",
      headers: { "PRIVATE-TOKEN": ADMIN, "Content-Type": "application/json" },
      body: JSON.stringify({ url: first }),
    });
    expect(answer.status).toBe(200);
    expect(await delivered(id)).toMatchObject({
      path: "/first",
      token: undefined,
      auth: undefined,
    });
  });

  it("exports placeholders for the token and headers, which plan as no change once set", async () => {
    const out = configFile("", "acme-api.yaml");
    const exported = await runInProcess([
      "export",
      "--project",
      "acme/api",
      "--sandbox-url",
      world.url,
      "--out",
      out,
    ]);
    expect(exported.code).toBe(0);
    const text = readFileSync(out, "utf8");
    // The demo's project hook (id 2): its token and its header X-Acme-Route, never their values.
    expect(text).toContain("token: ${ACME_API_HOOK_2_TOKEN}");
    expect(text).toContain("X-Acme-Route: ${ACME_API_HOOK_2_HEADER_X_ACME_ROUTE}");
    expect(text).not.toContain("demo-project-hook-token");
    expect(text).not.toContain("ci-api");
    const planned = await runInProcess(["plan", "-c", out, "--sandbox-url", world.url], {
      cwd: dirname(out),
      env: { ACME_API_HOOK_2_TOKEN: "to fill", ACME_API_HOOK_2_HEADER_X_ACME_ROUTE: "to fill" },
    });
    expect(planned.stdout).toContain("No changes.");
    expect(planned.code).toBe(0);
  });

  it("answers group hooks 403 on GitLab Free, as GitLab's licensed feature does", async () => {
    await world.stop();
    world = await sandbox({ gitlabTier: "free" });
    expect(await api("GET", "/api/v4/groups/acme/hooks")).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    const result = await run(
      `version: 1
groups:
  - group: acme
    webhooks:
      hooks:
        - url: https://audit.acme.example/gitlab
          events: [member]
`,
      ["plan"],
    );
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain("403");
  });
});
