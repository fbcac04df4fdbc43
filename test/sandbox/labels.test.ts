import { describe, expect, it } from "vitest";
import { call, sandbox } from "./helpers.js";
import { check, responseSchema } from "./openapi-check.js";

const LABELS = "/repos/acme/api/labels";
const LABEL = "/repos/{owner}/{repo}/labels/{name}";

const names = (labels: Array<{ name: string }>) => labels.map((label) => label.name);

/** Opens the two issues the tests rename and delete labels under. */
async function openIssues(sb: Awaited<ReturnType<typeof sandbox>>): Promise<void> {
  await call(sb, "POST", "/repos/acme/api/issues", {
    body: { title: "Login fails", labels: ["bug", "needs-triage"] },
  });
  await call(sb, "POST", "/repos/acme/api/issues", {
    body: { title: "Document limits", labels: ["documentation", "needs-triage"] },
  });
}

async function issueLabels(sb: Awaited<ReturnType<typeof sandbox>>): Promise<string[][]> {
  const { body } = await call(sb, "GET", "/repos/acme/api/issues?direction=asc");
  return (body as Array<{ labels: Array<{ name: string }> }>).map((issue) => names(issue.labels));
}

describe("labels", () => {
  it("a repository starts with GitHub's default labels, in GitHub's shapes", async () => {
    const sb = await sandbox();
    const web = await call(sb, "GET", "/repos/acme/web/labels");
    expect(check(responseSchema("/repos/{owner}/{repo}/labels", "get"), web.body)).toEqual([]);
    expect(names(web.body)).toEqual([
      "bug",
      "documentation",
      "duplicate",
      "enhancement",
      "good first issue",
      "help wanted",
      "invalid",
      "question",
      "wontfix",
    ]);
    expect(web.body[0]).toMatchObject({
      color: "d73a4a",
      description: "Something isn't working",
      default: true,
    });
    expect(names((await call(sb, "GET", LABELS)).body)).toContain("needs-triage");
  });

  it("are found by name in any case and refused twice in any case, as GitHub answers", async () => {
    const sb = await sandbox();
    const found = await call(sb, "GET", `${LABELS}/BUG`);
    expect([found.status, found.body.name]).toEqual([200, "bug"]);
    expect(check(responseSchema(LABEL, "get"), found.body)).toEqual([]);
    const twice = await call(sb, "POST", LABELS, { body: { name: "Bug", color: "000000" } });
    expect(twice.status).toBe(422);
    expect(twice.body).toEqual({
      message: "Validation Failed",
      errors: [{ resource: "Label", code: "already_exists", field: "name" }],
      documentation_url: "https://docs.github.com/rest/issues/labels#create-a-label",
    });
    expect(
      check(responseSchema("/repos/{owner}/{repo}/labels", "post", "422"), twice.body),
    ).toEqual([]);
  });

  it("refuse a long name, a colour that is not six hex digits and a long description", async () => {
    const sb = await sandbox();
    const refused = await call(sb, "POST", LABELS, {
      body: { name: "x".repeat(51), color: "#ffffff", description: "d".repeat(101) },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        resource: "Label",
        code: "custom",
        field: "name",
        message: "name is too long (maximum is 50 characters)",
      },
      { resource: "Label", code: "invalid", field: "color" },
      {
        resource: "Label",
        code: "custom",
        field: "description",
        message: "description is too long (maximum is 100 characters)",
      },
    ]);
  });

  it("a rename, a case-only one too, keeps the label on its issues; a delete takes it off them", async () => {
    const sb = await sandbox();
    await openIssues(sb);
    expect(await issueLabels(sb)).toEqual([
      ["bug", "needs-triage"],
      ["documentation", "needs-triage"],
    ]);
    const renamed = await call(sb, "PATCH", `${LABELS}/needs-triage`, {
      body: { new_name: "area/ui 🎨" },
    });
    expect(renamed.status).toBe(200);
    expect(check(responseSchema(LABEL, "patch"), renamed.body)).toEqual([]);
    expect(renamed.body.url).toMatch(/\/labels\/area%2Fui%20%F0%9F%8E%A8$/);
    const recased = await call(sb, "PATCH", `${LABELS}/bug`, { body: { new_name: "Bug" } });
    expect(recased.status).toBe(200);
    expect(await issueLabels(sb)).toEqual([
      ["Bug", "area/ui 🎨"],
      ["documentation", "area/ui 🎨"],
    ]);
    const clash = await call(sb, "PATCH", `${LABELS}/Bug`, { body: { new_name: "WONTFIX" } });
    expect(clash.body.errors).toEqual([
      { resource: "Label", code: "already_exists", field: "name" },
    ]);
    const gone = await call(sb, "DELETE", `${LABELS}/${encodeURIComponent("area/ui 🎨")}`);
    expect(gone.status).toBe(204);
    expect(await issueLabels(sb)).toEqual([["Bug"], ["documentation"]]);
  });

  it("an issue given a label no one made makes it, with GitHub's ededed and no description", async () => {
    const sb = await sandbox();
    const opened = await call(sb, "POST", "/repos/acme/api/issues", {
      body: { title: "Drift", labels: ["forgeplan-drift", "BUG"] },
    });
    expect(names(opened.body.labels)).toEqual(["forgeplan-drift", "bug"]);
    expect((await call(sb, "GET", `${LABELS}/forgeplan-drift`)).body).toMatchObject({
      color: "ededed",
      description: null,
      default: false,
    });
  });

  it("need write access to change", async () => {
    const sb = await sandbox();
    const refused = await call(sb, "POST", LABELS, {
      token: "sandbox-reader",
      body: { name: "mine" },
    });
    expect(refused.status).toBe(403);
  });
});
