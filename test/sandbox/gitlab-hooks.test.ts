import { describe, expect, it } from "vitest";
import type { SandboxOptions } from "../../src/sandbox/index.js";
import { sandbox } from "./helpers.js";

/**
 * The webhooks area answered as GitLab answers, requests sent deliberately wrong (a sandbox of this
 * folder's helpers records nothing, so GitLab's refusals are not held against the test). The demo
 * world: acme/api (id 1) has hook 2 (a token, header X-Acme-Route), group acme hook 1.
 */

async function start(options: SandboxOptions = {}) {
  const world = await sandbox(options);
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${world.url}/api/v4${path}`, {
      method,
      headers: { "PRIVATE-TOKEN": token, "Content-Type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.text();
    return { status: answer.status, body: text === "" ? undefined : (JSON.parse(text) as unknown) };
  };
  return {
    call,
    admin: (method: string, path: string, body?: unknown) =>
      call("sandbox-admin", method, path, body),
  };
}

describe("webhooks", () => {
  it("never shows a token, and shows custom headers by name, not in a project's listing", async () => {
    const { admin } = await start();
    const listed = (await admin("GET", "/projects/1/hooks")).body as Array<Record<string, unknown>>;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      id: 2,
      url: "https://ci.acme.example/gitlab/api",
      project_id: 1,
      push_events: true,
      merge_requests_events: true,
      issues_events: false,
      push_events_branch_filter: "main",
      branch_filter_strategy: "wildcard",
      enable_ssl_verification: true,
    });
    expect(listed[0]).not.toHaveProperty("custom_headers");
    expect(JSON.stringify(listed)).not.toContain("demo-project-hook-token");
    const one = (await admin("GET", "/projects/1/hooks/2")).body as Record<string, unknown>;
    expect(one.custom_headers).toEqual([{ key: "X-Acme-Route" }]);
    expect(JSON.stringify(one)).not.toContain("ci-api");
    const group = (await admin("GET", "/groups/acme/hooks")).body as Array<Record<string, unknown>>;
    expect(group[0]).toMatchObject({ id: 1, group_id: 1, member_events: true, custom_headers: [] });
    expect(group[0]).not.toHaveProperty("milestone_events");
  });

  it("merges headers on an edit and clears them, and the token, when the url changes", async () => {
    const { admin } = await start();
    const edited = await admin("PUT", "/projects/1/hooks/2", {
      custom_headers: [{ key: "X-Other", value: "v" }],
    });
    expect(edited.status).toBe(200);
    expect((edited.body as Record<string, unknown>).custom_headers).toEqual([
      { key: "X-Acme-Route" },
      { key: "X-Other" },
    ]);
    const moved = await admin("PUT", "/projects/1/hooks/2", {
      url: "https://moved.example/hook",
      custom_headers: [{ key: "X-Sent-With-The-Move", value: "v" }],
    });
    expect((moved.body as Record<string, unknown>).custom_headers).toEqual([]);
    expect(await admin("DELETE", "/projects/1/hooks/2/custom_headers/X-Acme-Route")).toEqual({
      status: 404,
      body: { message: "404 Custom header Not Found" },
    });
  });

  it("refuses what GitLab refuses, changing nothing", async () => {
    const { admin, call } = await start();
    expect(await admin("PUT", "/projects/1/hooks/2", {})).toEqual({
      status: 400,
      body: { error: "No parameters provided" },
    });
    expect(await admin("POST", "/projects/1/hooks", { url: "ftp://example.com/x" })).toEqual({
      status: 422,
      body: { error: "Invalid url given" },
    });
    expect(
      await admin("PUT", "/projects/1/hooks/2", {
        branch_filter_strategy: "regex",
        push_events_branch_filter: "(",
      }),
    ).toEqual({ status: 422, body: { error: "Invalid branch filter given" } });
    expect(await admin("POST", "/projects/1/hooks", {})).toEqual({
      status: 400,
      body: { error: "url is missing" },
    });
    expect(await admin("PUT", "/projects/1/hooks/2", { branch_filter_strategy: "glob" })).toEqual({
      status: 400,
      body: { error: "branch_filter_strategy does not have a valid value" },
    });
    expect(await admin("GET", "/projects/1/hooks/1")).toEqual({
      status: 404,
      body: { message: "404 Not found" },
    });
    // A Developer may not read a project's hooks; a group's take its Owner.
    expect((await call("sandbox-dev", "GET", "/projects/1/hooks")).status).toBe(403);
    expect((await call("sandbox-dev", "GET", "/groups/acme/hooks")).status).toBe(403);
    const after = (await admin("GET", "/projects/1/hooks/2")).body as Record<string, unknown>;
    expect(after).toMatchObject({
      branch_filter_strategy: "wildcard",
      push_events_branch_filter: "main",
    });
  });

  it("clears the filter under all_branches, and answers group hooks 403 on Free", async () => {
    const { admin } = await start();
    const all = await admin("PUT", "/projects/1/hooks/2", {
      branch_filter_strategy: "all_branches",
    });
    expect(all.body).toMatchObject({
      branch_filter_strategy: "all_branches",
      push_events_branch_filter: null,
    });
    const free = await start({ gitlabTier: "free" });
    expect(await free.admin("GET", "/groups/acme/hooks")).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    expect((await free.admin("GET", "/projects/1/hooks")).status).toBe(200);
  });
});
