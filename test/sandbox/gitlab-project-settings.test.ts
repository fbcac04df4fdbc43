import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { sandbox } from "./helpers.js";

/**
 * The project settings area's PUT, sent deliberately wrong: a sandbox of this folder's helpers, which
 * records nothing, so the requests GitLab refuses are not held against the test
 * (test/helpers/sandbox.ts, expectRequestsValid).
 */

let world: RunningSandbox;
beforeEach(async () => {
  world = await sandbox();
});
afterEach(async () => {
  await world.stop();
});

describe("the sandbox's PUT /projects/:id", () => {
  const put = async (token: string, body: unknown) => {
    const answer = await fetch(`${world.url}/api/v4/projects/1`, {
      method: "PUT",
      headers: { "PRIVATE-TOKEN": token, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: (await answer.json()) as unknown };
  };

  it("answers as Grape and GitLab's model do", async () => {
    expect(await put("sandbox-admin", { squash_option: "sometimes" })).toEqual({
      status: 400,
      body: { error: "squash_option does not have a valid value" },
    });
    expect(await put("sandbox-admin", { build_timeout: "soon" })).toEqual({
      status: 400,
      body: { error: "build_timeout is invalid" },
    });
    expect(await put("sandbox-admin", { build_timeout: 60 })).toEqual({
      status: 400,
      body: { message: { build_timeout: ["needs to be between 10 minutes and 1 month"] } },
    });
    expect((await put("sandbox-admin", {})).status).toBe(400);
    // A Developer of acme may see the project but not edit it (Maintainer or Owner only).
    expect(await put("sandbox-dev", { merge_method: "ff" })).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
  });
});
