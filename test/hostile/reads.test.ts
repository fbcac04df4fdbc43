import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { readPlan } from "../../src/engine/merge.js";
import { runInProcess } from "../helpers/cli.js";
import { configFile } from "../helpers/sandbox.js";
import { answer, hostile, json } from "./server.js";

/**
 * Reads answered with something that is not the operation's shape, planned and applied through the
 * CLI: each is an error for its resource naming the request, nothing is written for it, and nothing
 * crashes.
 */
const RATE_LIMIT = {
  resources: { core: { limit: 5000, remaining: 4999, reset: 4102444800, used: 1 } },
};

type Reads = Record<string, (res: ServerResponse) => void>;

/** Answers /rate_limit and the reads given; any other request is a 404, and every write is seen. */
function service(reads: Reads) {
  return hostile((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (req.method === "GET" && path === "/rate_limit") return answer(res, 200, json, RATE_LIMIT);
    const read = req.method === "GET" ? reads[path] : undefined;
    if (read !== undefined) return read(res);
    answer(res, 404, json, { message: "Not Found" });
  });
}

const protectionConfig = () =>
  configFile(`version: 1
repositories:
  - name: acme/api
    owner_type: organization
    branch_protection:
      main:
        enforce_admins: true
`);

const PROTECTION = "/repos/acme/api/branches/main/protection";

async function planAndApply(url: string, config: string) {
  const at = ["--sandbox-url", url];
  const planned = await runInProcess(["plan", "-c", config, ...at]);
  const applied = await runInProcess(["apply", "-c", config, ...at, "--auto-approve"]);
  return { planned, applied };
}

describe("a glob that cannot be listed", () => {
  it("is one error per address however many entries share it, so its saved plan reads back", async () => {
    const proxy = await service({});
    const config = configFile(`version: 1
repositories:
  - { name: "ghost/*", branch_protection: { main: { enforce_admins: true } } }
  - { name: "ghost/*", branch_protection: { dev: { enforce_admins: true } } }
`);
    const out = join(dirname(config), "plan.json");
    const planned = await runInProcess([
      "plan",
      "-c",
      config,
      "--sandbox-url",
      proxy.url,
      "--out",
      out,
    ]);
    expect(planned.code).toBe(1);
    const saved = readPlan({ source: out, text: readFileSync(out, "utf8") });
    expect(saved.changes.map((change) => change.address)).toEqual([
      "github/ghost/*/branch_protection/*",
    ]);
    expect(saved.errors).toBe(1);
  });
});

describe("a read that is not the shape of its operation", () => {
  it("a protection answered 200 with an HTML page writes nothing and exits 1 naming the request", async () => {
    const proxy = await service({
      [PROTECTION]: (res) =>
        answer(res, 200, { "content-type": "text/html" }, "<html>Bad gateway</html>"),
    });
    const { planned, applied } = await planAndApply(proxy.url, protectionConfig());
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain(`GET ${PROTECTION} answered 200 with text/html, not JSON`);
    expect(applied.code).toBe(1);
    expect(proxy.seen.filter((request) => request.method !== "GET")).toEqual([]);
  });

  it("a protection answered 200 with JSON that is not a Protected Branch writes nothing", async () => {
    const proxy = await service({
      // Valid JSON, every feature "off": taken for the record, the PUT would erase checks and reviews.
      [PROTECTION]: (res) => answer(res, 200, json, {}),
    });
    const { planned, applied } = await planAndApply(proxy.url, protectionConfig());
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain(
      `error: GET ${PROTECTION} answered 200 with a body that is not a Protected Branch: url: `,
    );
    // The request is named once, not again inside the message ("GET … → 200: GET … answered").
    expect(planned.stdout).not.toContain(`→ 200: GET`);
    expect(applied.code).toBe(1);
    expect(proxy.seen.filter((request) => request.method !== "GET")).toEqual([]);
  });

  it("lists with wrong item types end in an error for the resource, never a crash", async () => {
    const proxy = await service({
      "/orgs/acme/repos": (res) => answer(res, 200, json, [null, 42]),
      "/repos/acme/web/hooks": (res) => answer(res, 200, json, [{ id: "seven", config: null }]),
      "/api/v4/groups/1/epics/1/related_epics": (res) => answer(res, 200, json, { not: "a list" }),
      "/api/v4/groups/1": (res) => answer(res, 200, json, { id: 1 }),
    });
    const config = configFile(`version: 1
targets:
  github: { type: repository }
  gitlab: { type: planning }
repositories:
  - name: acme/*
    branch_protection: { main: { enforce_admins: true } }
  - name: acme/web
    webhooks: { hooks: [{ url: "https://ci.example/h" }] }
groups:
  - group: 1
    epic_links_absent: [{ epic: 1, related: 2 }]
`);
    const planned = await runInProcess(["plan", "-c", config, "--sandbox-url", proxy.url]);
    expect(planned.code).toBe(1);
    expect(planned.stderr).not.toContain("internal error");
    expect(planned.stdout).toContain(
      "GET /orgs/acme/repos answered 200 with a body that is not a list of repositories: [0]: ",
    );
    expect(planned.stdout).toContain(
      "GET /repos/acme/web/hooks answered 200 with a body that is not a list of webhooks: [0].id: ",
    );
    expect(planned.stdout).toContain("GET /api/v4/groups/1/epics/1/related_epics");
    expect(proxy.seen.filter((request) => request.method !== "GET")).toEqual([]);
  });
});
