import { request } from "node:http";
import { describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { call, protectionBody, sandbox } from "./helpers.js";

const MAIN = "/repos/acme/api/branches/main/protection";

/** A snapshot of the state hostile requests aim at. */
async function snapshot(sb: RunningSandbox) {
  return {
    protection: (await call(sb, "GET", MAIN)).body,
    hooks: (await call(sb, "GET", "/repos/acme/api/hooks")).body,
    boards: (await call(sb, "GET", "/api/v4/projects/1/boards")).body,
  };
}

function raw(
  sb: RunningSandbox,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${sb.url}${path}`, { method, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("hostile input", () => {
  it("answers malformed JSON with 400 and changes nothing", async () => {
    const sb = await sandbox();
    const before = await snapshot(sb);
    for (const rawBody of ["{bad", "[1,2]", "null", "42", '"text"', "[".repeat(100_000)]) {
      const answer = await call(sb, "PUT", MAIN, { rawBody });
      expect(answer.status).toBe(400);
      expect(["Problems parsing JSON", "Body should be a JSON object"]).toContain(
        answer.body.message,
      );
    }
    const binary = await call(sb, "PATCH", "/repos/acme/api/hooks/1", {
      rawBody: Buffer.from([0xff, 0xfe, 0x00, 0x7b]),
    });
    expect(binary.status).toBe(400);
    const gitlab = await call(sb, "POST", "/api/v4/projects/1/boards", { rawBody: "{oops" });
    expect(gitlab.status).toBe(400);
    expect(await snapshot(sb)).toEqual(before);
    expect(sb.stats().mutations_applied).toBe(0);
  });

  it("refuses bodies over 1 MiB with 413, declared or streamed, and keeps serving", async () => {
    const sb = await sandbox();
    const before = await snapshot(sb);
    const huge = `{"enforce_admins": true, "pad": "${"x".repeat(1024 * 1024)}"}`;
    const declared = await call(sb, "PUT", MAIN, { rawBody: huge });
    expect(declared.status).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new Uint8Array(100 * 1024).fill(32));
        controller.close();
      },
    });
    const streamed = await fetch(`${sb.url}${MAIN}`, {
      method: "PUT",
      headers: { Authorization: "Bearer sandbox-admin" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await snapshot(sb)).toEqual(before);
  });

  it("treats wrong types as 422 and ignores unknown fields, changing nothing on rejection", async () => {
    const sb = await sandbox();
    const before = await snapshot(sb);
    const bodies = [
      protectionBody({ enforce_admins: "true" }),
      protectionBody({ restrictions: { users: "octo-dev", teams: [] } }),
      protectionBody({ required_pull_request_reviews: { required_approving_review_count: 1.5 } }),
      protectionBody({ required_status_checks: { strict: true, contexts: [1] } }),
      protectionBody({ lock_branch: null }),
    ];
    for (const body of bodies) expect((await call(sb, "PUT", MAIN, { body })).status).toBe(422);
    const hook = await call(sb, "PATCH", "/repos/acme/api/hooks/1", {
      rawBody: '{"config": {"url": {"__proto__": {"polluted": "yes"}}}}',
    });
    expect(hook.status).toBe(422);
    expect(await snapshot(sb)).toEqual(before);
  });

  it("drops hostile config keys like any key the service does not keep", async () => {
    const sb = await sandbox();
    const answer = await call(sb, "PATCH", "/repos/acme/api/hooks/2", {
      rawBody: '{"config": {"__proto__": {"polluted": "yes"}, "constructor": "y"}}',
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body.config).sort()).toEqual(["content_type", "insecure_ssl", "url"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("answers odd paths with 404 and unsupported methods with 404 (GitHub) or 405 (GitLab)", async () => {
    const sb = await sandbox();
    const paths = [
      "/",
      "/repos",
      "/repos/acme",
      "/repos/acme/api/nothing",
      "/repos/acme/api/branches//protection",
      "/repos/%E0%A4%A/api",
      "/repos/acme/api/../../user",
      `/repos/${"a".repeat(5000)}/api`,
      "/api/v4",
      "/api/v4/groups/1/epics/x",
      "/_sandbox/nothing",
    ];
    for (const path of paths) expect((await call(sb, "GET", path)).status).toBe(404);
    expect((await call(sb, "POST", "/repos/acme/api")).status).toBe(404);
    expect((await call(sb, "PATCH", "/api/v4/projects/1/boards")).status).toBe(405);
    expect(await raw(sb, "OPTIONS", "/repos/acme/api")).toBe(404);
    expect(await raw(sb, "HEAD", "/repos/acme/api", { Authorization: "token sandbox-admin" })).toBe(
      200,
    );
    expect((await call(sb, "GET", "/repos/acme/api")).status).toBe(200);
  });

  it("takes malformed pagination parameters as the defaults", async () => {
    const sb = await sandbox({ generate: 40 });
    for (const query of ["per_page=abc&page=-1", "per_page=0", "page=zero", "per_page=%20"]) {
      const { status, body } = await call(sb, "GET", `/orgs/acme/repos?${query}`);
      expect(status).toBe(200);
      expect(body).toHaveLength(30);
    }
  });
});
