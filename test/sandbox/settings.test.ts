import { describe, expect, it } from "vitest";
import { call, READER, sandbox } from "./helpers.js";
import { check, responseSchema } from "./openapi-check.js";

const REPO = "/repos/acme/api";
const READ_ONLY = "Repository was archived so is read-only.";

describe("repository settings in the sandbox", () => {
  it("answers GET and PATCH with GitHub's Full Repository, GitHub's defaults included", async () => {
    const sb = await sandbox();
    const read = await call(sb, "GET", REPO);
    expect(check(responseSchema("/repos/{owner}/{repo}", "get"), read.body)).toEqual([]);
    expect(read.body).toMatchObject({
      has_issues: true,
      allow_auto_merge: false,
      squash_merge_commit_title: "COMMIT_OR_PR_TITLE",
      squash_merge_commit_message: "COMMIT_MESSAGES",
      merge_commit_title: "MERGE_MESSAGE",
      merge_commit_message: "PR_TITLE",
      archived: false,
      topics: [],
      security_and_analysis: { secret_scanning: { status: "disabled" } },
    });
    const patched = await call(sb, "PATCH", REPO, {
      body: {
        description: "",
        homepage: "https://api.acme.example",
        delete_branch_on_merge: true,
        squash_merge_commit_title: "PR_TITLE",
        squash_merge_commit_message: "PR_BODY",
        security_and_analysis: {
          secret_scanning: { status: "enabled" },
          secret_scanning_delegated_bypass_options: {
            reviewers: [{ reviewer_id: 1, reviewer_type: "TEAM" }],
          },
        },
      },
    });
    expect(patched.status).toBe(200);
    expect(check(responseSchema("/repos/{owner}/{repo}", "patch"), patched.body)).toEqual([]);
    expect(patched.body).toMatchObject({
      description: null,
      homepage: "https://api.acme.example",
      delete_branch_on_merge: true,
      squash_merge_commit_message: "PR_BODY",
      security_and_analysis: {
        secret_scanning: { status: "enabled" },
        secret_scanning_delegated_bypass_options: {
          reviewers: [{ reviewer_id: 1, reviewer_type: "TEAM", mode: "ALWAYS" }],
        },
      },
    });
    // Administrators only see security_and_analysis.
    expect((await call(sb, "GET", REPO, { token: READER })).body.security_and_analysis).toBe(
      undefined,
    );
  });

  it("refuses a message without its title, a pair GitHub does not offer and a missing default branch", async () => {
    const sb = await sandbox();
    const messages = (body: unknown) =>
      call(sb, "PATCH", REPO, { body }).then((answer) => [
        answer.status,
        answer.body.errors.map((error: { message: string }) => error.message),
      ]);
    expect(await messages({ merge_commit_message: "BLANK" })).toEqual([
      422,
      ["merge_commit_title is required when using merge_commit_message"],
    ]);
    expect(
      await messages({
        squash_merge_commit_title: "COMMIT_OR_PR_TITLE",
        squash_merge_commit_message: "PR_BODY",
      }),
    ).toEqual([
      422,
      [
        "squash_merge_commit_title COMMIT_OR_PR_TITLE cannot be used with squash_merge_commit_message PR_BODY",
      ],
    ]);
    expect(await messages({ default_branch: "develop" })).toEqual([
      422,
      ["default_branch: branch develop does not exist"],
    ]);
    expect((await call(sb, "PATCH", REPO, { body: { default_branch: "release" } })).status).toBe(
      200,
    );
  });

  it("refuses every write to an archived repository but the one that unarchives it", async () => {
    const sb = await sandbox();
    const legacy = "/repos/acme/legacy";
    const writes: Array<[string, string, unknown]> = [
      ["PATCH", legacy, { description: "still here" }],
      ["PATCH", legacy, { archived: true }],
      ["PUT", `${legacy}/topics`, { names: ["x"] }],
      ["PUT", `${legacy}/vulnerability-alerts`, undefined],
      ["POST", `${legacy}/hooks`, { config: { url: "https://hooks.example/a" } }],
      [
        "PUT",
        `${legacy}/branches/master/protection`,
        {
          required_status_checks: null,
          enforce_admins: null,
          required_pull_request_reviews: null,
          restrictions: null,
        },
      ],
    ];
    for (const [method, path, body] of writes) {
      const answer = await call(sb, method, path, body === undefined ? {} : { body });
      expect([method, path, answer.status, answer.body.message]).toEqual([
        method,
        path,
        403,
        READ_ONLY,
      ]);
    }
    // Reads go on; the repository is hidden from those who cannot see it, archived or not.
    expect((await call(sb, "GET", `${legacy}/topics`)).body).toEqual({ names: ["monolith"] });
    const unarchived = await call(sb, "PATCH", legacy, { body: { archived: false } });
    expect([unarchived.status, unarchived.body.archived]).toEqual([200, false]);
    expect((await call(sb, "PATCH", legacy, { body: { description: "back" } })).status).toBe(200);
  });

  it("refuses what follows an archive, so archiving must come last", async () => {
    const sb = await sandbox();
    expect((await call(sb, "PATCH", REPO, { body: { archived: true } })).status).toBe(200);
    const after = await call(sb, "PATCH", REPO, { body: { description: "too late" } });
    expect([after.status, after.body.message]).toEqual([403, READ_ONLY]);
  });

  it("redirects a renamed repository's old name: 301 for reads, 307 for writes", async () => {
    const sb = await sandbox();
    const renamed = await call(sb, "PATCH", REPO, { body: { name: "api-v2" } });
    expect([renamed.status, renamed.body.full_name]).toEqual([200, "acme/api-v2"]);
    const moved = await fetch(`${sb.url}${REPO}/hooks?per_page=1`, {
      headers: { Authorization: "Bearer sandbox-admin" },
      redirect: "manual",
    });
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe(`${sb.url}/repositories/1001/hooks?per_page=1`);
    const write = await fetch(`${sb.url}${REPO}`, {
      method: "PATCH",
      headers: { Authorization: "Bearer sandbox-admin" },
      body: JSON.stringify({ description: "x" }),
      redirect: "manual",
    });
    expect(write.status).toBe(307);
    // Followed, the old name reads the repository under its new one.
    expect((await call(sb, "GET", REPO)).body.full_name).toBe("acme/api-v2");
    // The demo world's acme/web was renamed from acme/website in the past.
    expect((await call(sb, "GET", "/repos/acme/website")).body.full_name).toBe("acme/web");
    // A repository that takes the old name ends the redirect.
    const created = await call(sb, "POST", "/orgs/acme/repos", { body: { name: "api" } });
    expect(created.status).toBe(201);
    expect((await call(sb, "GET", REPO)).body.id).toBe(created.body.id);
  });

  it("creates repositories under an organization and for the caller, refusing a name in use", async () => {
    const sb = await sandbox();
    const org = await call(sb, "POST", "/orgs/acme/repos", {
      body: { name: "new-service", visibility: "private", description: "A new service" },
    });
    expect(org.status).toBe(201);
    expect(check(responseSchema("/orgs/{org}/repos", "post", "201"), org.body)).toEqual([]);
    expect(org.body).toMatchObject({ full_name: "acme/new-service", private: true });
    // GitHub's default labels come with every new repository ("About default labels").
    const labels = await call(sb, "GET", "/repos/acme/new-service/labels");
    expect(labels.body.map((label: { name: string }) => label.name)).toContain("good first issue");
    const user = await call(sb, "POST", "/user/repos", { body: { name: "notes", private: true } });
    expect([user.status, user.body.full_name]).toEqual([201, "octo-admin/notes"]);
    const taken = await call(sb, "POST", "/orgs/acme/repos", { body: { name: "API" } });
    expect([taken.status, taken.body.message, taken.body.errors[0].message]).toEqual([
      422,
      "Repository creation failed.",
      "name already exists on this account",
    ]);
    const member = await call(sb, "POST", "/orgs/acme/repos", {
      token: READER,
      body: { name: "mine" },
    });
    expect(member.status).toBe(403);
  });

  it("serves topics and the three security toggles with GitHub's answers", async () => {
    const sb = await sandbox();
    const topics = await call(sb, "PUT", `${REPO}/topics`, { body: { names: ["api", "go"] } });
    expect([topics.status, topics.body]).toEqual([200, { names: ["api", "go"] }]);
    const bad = await call(sb, "PUT", `${REPO}/topics`, { body: { names: ["Go"] } });
    expect(bad.status).toBe(422);
    expect((await call(sb, "GET", `${REPO}/vulnerability-alerts`)).status).toBe(404);
    expect((await call(sb, "GET", `${REPO}/automated-security-fixes`)).status).toBe(404);
    const early = await call(sb, "PUT", `${REPO}/automated-security-fixes`);
    expect([early.status, early.body.message]).toEqual([
      422,
      "Vulnerability alerts must be enabled to configure automated security fixes.",
    ]);
    expect((await call(sb, "PUT", `${REPO}/vulnerability-alerts`)).status).toBe(204);
    expect((await call(sb, "GET", `${REPO}/vulnerability-alerts`)).status).toBe(204);
    expect((await call(sb, "PUT", `${REPO}/automated-security-fixes`)).status).toBe(204);
    expect((await call(sb, "GET", `${REPO}/automated-security-fixes`)).body).toEqual({
      enabled: true,
      paused: false,
    });
    expect((await call(sb, "DELETE", `${REPO}/vulnerability-alerts`)).status).toBe(204);
    expect((await call(sb, "GET", `${REPO}/automated-security-fixes`)).status).toBe(404);
    // Private vulnerability reporting is for public repositories.
    expect((await call(sb, "GET", `${REPO}/private-vulnerability-reporting`)).status).toBe(404);
    const dotfiles = "/repos/octo-admin/dotfiles/private-vulnerability-reporting";
    expect((await call(sb, "GET", dotfiles)).body).toEqual({ enabled: false });
    expect((await call(sb, "PUT", dotfiles)).status).toBe(204);
    expect((await call(sb, "GET", dotfiles)).body).toEqual({ enabled: true });
  });

  it("renames a branch, the default one included", async () => {
    const sb = await sandbox();
    const renamed = await call(sb, "POST", `/repos/acme/legacy/branches/master/rename`, {
      body: { new_name: "main" },
    });
    expect(renamed.status).toBe(403);
    await call(sb, "PATCH", "/repos/acme/legacy", { body: { archived: false } });
    const answer = await call(sb, "POST", `/repos/acme/legacy/branches/master/rename`, {
      body: { new_name: "main" },
    });
    expect(answer.status).toBe(201);
    expect(
      check(
        responseSchema("/repos/{owner}/{repo}/branches/{branch}/rename", "post", "201"),
        answer.body,
      ),
    ).toEqual([]);
    expect((await call(sb, "GET", "/repos/acme/legacy")).body.default_branch).toBe("main");
  });
});
