import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { sandbox } from "./helpers.js";

/**
 * The project lifecycle routes, sent deliberately wrong as well as right: who may create, archive
 * and transfer, paths taken, and an old path answered with the moved project (a sandbox of this
 * folder's helpers, which records nothing, so refused requests are not held against the test).
 */

let world: RunningSandbox;
beforeEach(async () => {
  world = await sandbox();
});
afterEach(async () => {
  await world.stop();
});

async function call(method: string, path: string, token = "sandbox-admin", body?: unknown) {
  const answer = await fetch(`${world.url}/api/v4${path}`, {
    method,
    headers: { "PRIVATE-TOKEN": token, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

describe("the sandbox's project lifecycle", () => {
  it("creates a project in a group the caller may create in, on a free path only", async () => {
    expect(
      await call("POST", "/projects", "sandbox-admin", { name: "api", namespace_id: 1 }),
    ).toEqual({
      status: 400,
      body: { message: { path: ["has already been taken"], name: ["has already been taken"] } },
    });
    // A subgroup's path is taken too: routes are unique.
    expect(
      (await call("POST", "/projects", "sandbox-admin", { path: "platform", namespace_id: 1 }))
        .body,
    ).toEqual({
      message: { path: ["has already been taken"] },
    });
    expect(
      (await call("POST", "/projects", "sandbox-admin", { path: "-bad", namespace_id: 1 })).body,
    ).toMatchObject({ message: { path: [expect.stringMatching(/^can contain only letters/)] } });
    expect(
      await call("POST", "/projects", "sandbox-admin", { path: "x", namespace_id: 99 }),
    ).toEqual({
      status: 400,
      body: { message: { namespace: ["is not valid"] } },
    });
    const created = await call("POST", "/projects", "sandbox-dev", {
      path: "tools",
      namespace_id: 1,
      initialize_with_readme: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      path_with_namespace: "acme/tools",
      visibility: "private",
      default_branch: "main",
      archived: false,
    });
  });

  it("archives and unarchives for an Owner only, answering 201 also when nothing changes", async () => {
    expect((await call("POST", "/projects/1/archive", "sandbox-dev")).status).toBe(403);
    for (const verb of ["archive", "archive", "unarchive"]) {
      const answer = await call("POST", `/projects/1/${verb}`);
      expect([answer.status, answer.body.archived]).toEqual([201, verb === "archive"]);
    }
  });

  it("answers a renamed or transferred project's old path with the project, until the path is taken", async () => {
    expect((await call("PUT", "/projects/2", "sandbox-admin", { path: "api" })).body).toEqual({
      message: { path: ["has already been taken"] },
    });
    expect(
      (await call("PUT", "/projects/2/transfer", "sandbox-admin", { namespace: "acme" })).status,
    ).toBe(400);
    const moved = await call("PUT", "/projects/2/transfer", "sandbox-admin", {
      namespace: "acme/platform",
    });
    expect([moved.status, moved.body.path_with_namespace]).toEqual([200, "acme/platform/web"]);
    await call("PUT", "/projects/2", "sandbox-admin", { path: "frontend" });
    for (const old of ["acme/web", "acme/platform/web"]) {
      const answer = await call("GET", `/projects/${encodeURIComponent(old)}`);
      expect([answer.status, answer.body.path_with_namespace]).toEqual([
        200,
        "acme/platform/frontend",
      ]);
    }
    // A new project takes the old path: the redirect goes.
    await call("POST", "/projects", "sandbox-admin", { path: "web", namespace_id: 1 });
    const taken = await call("GET", `/projects/${encodeURIComponent("acme/web")}`);
    expect(taken.body.path_with_namespace).toBe("acme/web");
    expect(taken.body.id).not.toBe(2);
  });
});
