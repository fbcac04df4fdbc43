import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { sandbox } from "./helpers.js";

/**
 * The labels area as GitLab answers it: colours stored as Gitlab::Color.of stores them, names as
 * Label validates them, a place's inherited labels, the role it takes (a sandbox of this folder's
 * helpers, which records nothing, so requests GitLab refuses are not held against the test).
 */

let world: RunningSandbox;
beforeEach(async () => {
  world = await sandbox();
});
afterEach(async () => {
  await world.stop();
});

async function call(method: string, path: string, body?: unknown, token = "sandbox-admin") {
  const answer = await fetch(`${world.url}${path}`, {
    method,
    headers: { "PRIVATE-TOKEN": token, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  return { status: answer.status, body: text === "" ? undefined : (JSON.parse(text) as unknown) };
}

const API = "/api/v4/projects/acme%2Fapi/labels";

describe("the sandbox's labels", () => {
  it("stores a CSS colour name as its hex and a hex as sent, and refuses what is no colour", async () => {
    const red = await call("POST", API, { name: "red one", color: " Red " });
    expect(red).toMatchObject({
      status: 201,
      body: { name: "red one", color: "#FF0000", text_color: "#FFFFFF", is_project_label: true },
    });
    const short = await call("POST", API, { name: "short", color: "#F00", priority: 0 });
    expect(short.body).toMatchObject({ color: "#F00", priority: 0 });
    const light = await call("POST", API, { name: "light", color: "#f5f5f5" });
    expect(light.body).toMatchObject({ color: "#f5f5f5", text_color: "#333333" });
    expect(await call("POST", API, { name: "bad", color: "d73a4a" })).toEqual({
      status: 400,
      body: { message: { color: ["must be a valid color code"] } },
    });
    expect(await call("POST", API, { name: "a,b", color: "#000000" })).toEqual({
      status: 400,
      body: { message: { title: ["is invalid"] } },
    });
    expect(await call("POST", API, { name: "no colour" })).toEqual({
      status: 400,
      body: { error: "color is missing" },
    });
    // HTML is stripped from a name and a description (Label#sanitize_value).
    const html = await call("POST", API, {
      name: "<b>bold</b>",
      color: "#000000",
      description: "Tom &amp; Jerry",
    });
    expect(html.body).toMatchObject({ name: "bold", description: "Tom & Jerry" });
  });

  it("shows a project its groups' labels and refuses their names, case-sensitively", async () => {
    const listed = (await call("GET", `${API}?with_counts=true`)).body as Array<
      Record<string, unknown>
    >;
    expect(listed.map((label) => [label.name, label.is_project_label, label.priority])).toEqual([
      ["bug", false, null],
      ["documentation", false, null],
      ["enhancement", true, 1],
      ["legacy", true, null],
      ["needs-triage", true, null],
    ]);
    expect(listed.find((label) => label.name === "bug")).toMatchObject({
      open_issues_count: 1,
      closed_issues_count: 1,
      open_merge_requests_count: 0,
    });
    const own = (await call("GET", `${API}?include_ancestor_groups=false`)).body as unknown[];
    expect(own).toHaveLength(5); // its own group's labels always show (LabelsFinder)
    const deep = (await call("GET", "/api/v4/projects/acme%2Fplatform%2Finfra/labels")).body;
    expect((deep as Array<{ name: string }>).map((label) => label.name)).toEqual([
      "bug",
      "documentation",
      "infra",
    ]);
    expect(await call("POST", API, { name: "bug", color: "#000000" })).toEqual({
      status: 409,
      body: { message: "Label already exists" },
    });
    expect((await call("POST", API, { name: "Bug", color: "#000000" })).status).toBe(201);
    const legacy = listed.find((label) => label.name === "legacy")!;
    expect(await call("PUT", `${API}/${legacy.id}`, { new_name: "documentation" })).toEqual({
      status: 400,
      body: {
        message: { title: ["already exists at group level for Acme. Please choose another one."] },
      },
    });
    expect(await call("PUT", `${API}/${legacy.id}`, {})).toEqual({
      status: 400,
      body: {
        error:
          "new_name, color, description, priority, archived are missing, at least one parameter must be provided",
      },
    });
    // A group's label is its group's: a subgroup's create of its name is refused too.
    expect(
      await call("POST", "/api/v4/groups/acme%2Fplatform/labels", { name: "bug", color: "red" }),
    ).toEqual({ status: 409, body: { message: "Label already exists" } });
    const platform = (
      await call("GET", "/api/v4/groups/acme%2Fplatform/labels?include_ancestor_groups=false")
    ).body as Array<{ name: string; priority?: unknown }>;
    expect(platform.map((label) => label.name)).toEqual(["infra"]);
    expect(platform[0]!.priority).toBeUndefined();
  });

  it("renames in place, sets and removes a priority, deletes off the issues, by role", async () => {
    const listed = (await call("GET", API)).body as Array<{ id: number; name: string }>;
    const needsTriage = listed.find((label) => label.name === "needs-triage")!;
    expect((await call("PUT", `${API}/needs-triage`, { priority: 3 })).body).toMatchObject({
      id: needsTriage.id,
      priority: 3,
    });
    expect((await call("PUT", `${API}/${needsTriage.id}`, { priority: null })).body).toMatchObject({
      priority: null,
    });
    expect(await call("PUT", `${API}/${needsTriage.id}`, { priority: -1 })).toEqual({
      status: 400,
      body: { message: { priority: ["must be greater than or equal to 0"] } },
    });
    const renamed = await call("PUT", `${API}/${needsTriage.id}`, { new_name: "triage" });
    expect(renamed.body).toMatchObject({ id: needsTriage.id, name: "triage" });
    const issues = (await call("GET", "/api/v4/projects/acme%2Fapi/issues?labels=triage")).body;
    expect((issues as Array<{ title: string }>).map((issue) => issue.title)).toEqual([
      "Login fails on Safari",
    ]);
    // octo-reader is a Reporter of acme/api but a Guest of acme: the project's label is theirs to
    // manage, the group's `bug` (found through the project too) is not.
    expect((await call("DELETE", `${API}/bug`, undefined, "sandbox-reader")).status).toBe(403);
    expect(
      (await call("DELETE", "/api/v4/groups/acme/labels/bug", undefined, "sandbox-reader")).status,
    ).toBe(403);
    expect((await call("PUT", `${API}/bug`, { priority: 2 }, "sandbox-reader")).body).toMatchObject(
      {
        name: "bug",
        priority: 2,
        is_project_label: false,
      },
    );
    expect((await call("DELETE", `${API}/${needsTriage.id}`)).status).toBe(204);
    const after = (await call("GET", "/api/v4/projects/acme%2Fapi/issues")).body as Array<{
      title: string;
      labels: string[];
    }>;
    expect(after.find((issue) => issue.title === "Login fails on Safari")!.labels).toEqual(["bug"]);
    expect((await call("GET", `${API}/${needsTriage.id}`)).status).toBe(404);
  });
});
