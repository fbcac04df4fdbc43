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
    expect(exported.code).toBe(1);
    expect(exported.stdout.split("\n")).toContain(
      `# not exported: acme/*, which could not be listed: ${refused}`,
    );
    expect(exported.stderr).toBe(
      'forgeplan: export: 1 part could not be read and is left out; the YAML names it in a comment starting "# not exported:"\n',
    );
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

describe("plan over a listing of an owner's repositories that does not end", () => {
  const glob = () =>
    configFile(`version: 1
repositories:
  - name: acme/*
    branch_protection:
      main: { enforce_admins: true }
`);

  /** Pages of `size` repositories, each linking to the next page and none naming the last. */
  const endless = (size: number) =>
    hostile((req, res) => {
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      if (url.pathname === "/rate_limit") {
        return answer(res, 200, json, {
          resources: { core: { limit: 5000, remaining: 5000, reset: 1, used: 0 } },
        });
      }
      const page = Number(url.searchParams.get("page") ?? 1);
      const repos = Array.from({ length: size }, (_, i) => ({
        name: `repo-${page}-${i}`,
        full_name: `acme/repo-${page}-${i}`,
        owner: { login: "acme" },
        archived: false,
      }));
      url.searchParams.set("page", String(page + 1));
      answer(res, 200, { ...json, link: `<${url.href}>; rel="next"` }, repos);
    });

  it(
    "ends in under 10 s with an error naming the listing when its pages run short",
    { timeout: 10_000 },
    async () => {
      const service = await endless(1);
      const result = await runInProcess(["plan", "-c", glob(), "--sandbox-url", service.url]);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        "error: GET /orgs/acme/repos?type=all&per_page=100: page 1 of the listing holds 1 item of the 100 asked for, yet links to a next page: a short page is the last, so the listing would not end",
      );
      expect(service.seen.map((seen) => seen.url)).toEqual([
        "/rate_limit",
        "/orgs/acme/repos?type=all&per_page=100",
      ]);
      const applied = await runInProcess([
        "apply",
        "-c",
        glob(),
        "--sandbox-url",
        service.url,
        "--auto-approve",
      ]);
      expect(applied.code).toBe(1);
      expect(service.seen.filter((seen) => seen.method !== "GET")).toEqual([]);
    },
  );

  it("stops at --max-pages when every page is full", { timeout: 10_000 }, async () => {
    const service = await endless(100);
    const result = await runInProcess([
      "plan",
      "-c",
      glob(),
      "--sandbox-url",
      service.url,
      "--max-pages",
      "3",
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "error: GET /orgs/acme/repos?type=all&per_page=100&page=4: the listing goes on past 3 pages, the most forgeplan reads of one listing (--max-pages raises it)",
    );
    expect(service.seen).toHaveLength(4);
  });
});
