import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/cli.js";
import { configFile } from "../helpers/sandbox.js";
import { answer, hostile, json } from "./server.js";

const config = () =>
  configFile(`version: 1
repositories:
  - name: acme/api
    owner_type: organization
    branch_protection:
      main:
        enforce_admins: true
`);

describe("plan against a service that reports a limit of 0", () => {
  it("ends at once with one clear line per read, and exit 1", { timeout: 10_000 }, async () => {
    const service = await hostile((req, res) =>
      req.url === "/rate_limit"
        ? answer(res, 200, json, {
            resources: { core: { limit: 0, remaining: 0, reset: 1, used: 0 } },
          })
        : answer(res, 200, json, {}),
    );
    const result = await runInProcess(["plan", "-c", config(), "--sandbox-url", service.url]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "GET /repos/acme/api: not sent: the service reports a limit of 0 requests for core: no request can be sent with this token",
    );
    expect(service.seen.map((r) => r.url)).toEqual(["/rate_limit"]);
  });
});

describe("export and migrate when listing an owner's repositories is refused", () => {
  it("name the request, its status and what the token needs", async () => {
    const service = await hostile((req, res) =>
      req.url === "/rate_limit"
        ? answer(res, 200, json, {
            resources: { core: { limit: 5000, remaining: 5000, reset: 1, used: 0 } },
          })
        : answer(
            res,
            403,
            { ...json, "X-Accepted-GitHub-Permissions": "metadata=read" },
            { message: "Resource not accessible by integration" },
          ),
    );
    const at = ["--sandbox-url", service.url];
    const refused =
      "GET /orgs/acme/repos?type=all&per_page=100 → 403: Resource not accessible by integration (the token needs metadata=read)";
    const exported = await runInProcess(["export", "--repo", "acme/*", ...at]);
    expect([exported.code, exported.stdout, exported.stderr]).toEqual([
      1,
      "",
      `forgeplan: export: cannot list acme/*: ${refused}\n`,
    ]);
    const glob = configFile(`version: 1
repositories:
  - name: acme/*
    branch_protection:
      main: { enforce_admins: true }
`);
    const migrated = await runInProcess(["migrate", "protection-to-rulesets", "-c", glob, ...at]);
    expect([migrated.code, migrated.stdout]).toEqual([1, ""]);
    expect(migrated.stderr).toContain(`cannot list the repositories of acme: ${refused}`);
  });
});
