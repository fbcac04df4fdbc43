import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/cli.js";
import { configFile } from "../helpers/sandbox.js";
import { placeholdersOf } from "../helpers/placeholders.js";
import { entryConfig, gitlabScenario } from "../helpers/gitlab-scenario.js";

/**
 * GitLab protected environments (#37, item 6) against the demo world: acme/api's `production`
 * (Maintainers and octo-dev deploy, entries 1 and 2; one Maintainer approves, rule 3). A change of
 * who may deploy is one PUT adding and destroying entries by id — never an unprotect and a protect,
 * and GitLab refuses a PUT that leaves none; a rule's approvals change by its id; a group's are
 * named by tier; on Free GitLab's 403 is the kind's error; export plans as no change.
 */

const ENVIRONMENTS = "/api/v4/projects/acme%2Fapi/protected_environments";

const scenario = gitlabScenario({ forgetBefore: ["plan", "apply"] });
const { start, apply } = scenario;

function config(scope: "project: acme/api" | "group: acme", yaml: string): string {
  return entryConfig(scope, "protected_environments", yaml);
}

/** The plan of a file with only its changes that are not no-op (or hold an error). */
async function plan(path: string) {
  const { code, plan: parsed } = await scenario.plan(path);
  const changes = parsed.changes.filter(
    (change) => change.action !== "no-op" || change.error !== undefined,
  );
  return { code, plan: { ...parsed, changes } };
}

const writes = () =>
  scenario.requests
    .filter((request) => request.method !== "GET")
    .map((request) => `${request.method} ${decodeURIComponent(request.path)}`);

async function call(method: string, path: string, body?: unknown) {
  const answer = await fetch(`${scenario.world.url}${path}`, {
    method,
    headers: { "PRIVATE-TOKEN": "sandbox-admin", "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

describe("GitLab protected environments", () => {
  it("changes who may deploy by one PUT that never leaves the environment unprotected", async () => {
    await start();
    const path = config(
      "project: acme/api",
      `
items:
  production:
    deploy_access_levels: [developer, { group: acme, group_inheritance_type: 1 }]
    approval_rules: [{ access_level: maintainer, required_approvals: 2 }]
`,
    );
    const first = await plan(path);
    expect(first.code).toBe(2);
    expect(
      first.plan.changes.map((change) => [change.address, change.action, change.requests]),
    ).toEqual([
      [
        "gitlab/acme/api/protected_environment/production",
        "update",
        [
          {
            method: "PUT",
            path: `${ENVIRONMENTS}/production`,
            body: {
              deploy_access_levels: [
                { id: 1, _destroy: true },
                { id: 2, _destroy: true },
                { access_level: 30 },
                { group_id: 1, group_inheritance_type: 1 },
              ],
              approval_rules: [{ id: 3, access_level: 40, required_approvals: 2 }],
            },
          },
        ],
      ],
    ]);
    expect(first.plan.changes[0]!.diff).toEqual([
      {
        path: "deploy_access_levels",
        before: ["maintainer", "user:octo-dev"],
        after: ["developer", "group:acme (with subgroups)"],
      },
      {
        path: "approval_rules",
        before: ["maintainer: 1 approval"],
        after: ["maintainer: 2 approvals"],
      },
    ]);
    expect((await apply(path)).code).toBe(0);
    // One write: no unprotect (DELETE) and protect (POST) around it.
    expect(writes()).toEqual([`PUT ${decodeURIComponent(ENVIRONMENTS)}/production`]);
    expect((await plan(path)).code).toBe(0);
    const live = await call("GET", `${ENVIRONMENTS}/production`);
    expect(
      (live.body.deploy_access_levels as Array<Record<string, unknown>>).map((entry) => [
        entry.access_level,
        entry.group_id,
        entry.group_inheritance_type,
      ]),
    ).toEqual([
      [30, null, 0],
      [40, 1, 1],
    ]);
    // GitLab refuses to destroy the last deploy level, so a PUT can never unprotect it either.
    const ids = (live.body.deploy_access_levels as Array<{ id: number }>).map((entry) => entry.id);
    const refused = await call("PUT", `${ENVIRONMENTS}/production`, {
      deploy_access_levels: ids.map((id) => ({ id, _destroy: true })),
    });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toEqual([
      "Deploy access levels is too short (minimum is 1 character)",
    ]);
  });

  it("protects a group's tier, unprotects with null, and refuses an unknown user at plan time", async () => {
    await start();
    const path = config(
      "group: acme",
      `
items:
  staging: { deploy_access_levels: [maintainer, { user: octo-dev }], required_approval_count: 1 }
`,
    );
    const first = await plan(path);
    expect(first.plan.changes.map((change) => [change.action, change.requests])).toEqual([
      [
        "create",
        [
          {
            method: "POST",
            path: "/api/v4/groups/acme/protected_environments",
            body: {
              name: "staging",
              deploy_access_levels: [{ access_level: 40 }, { user_id: 3 }],
              required_approval_count: 1,
            },
          },
        ],
      ],
    ]);
    expect((await apply(path)).code).toBe(0);
    expect((await plan(path)).code).toBe(0);
    const gone = config("group: acme", "items: { staging: null }");
    expect((await apply(gone, "--allow-delete")).code).toBe(0);
    expect(writes()).toEqual(["DELETE /api/v4/groups/acme/protected_environments/staging"]);
    const unknown = config(
      "project: acme/api",
      "items: { production: { deploy_access_levels: [{ user: nobody-here }] } }",
    );
    const refused = await plan(unknown);
    expect(refused.code).toBe(1);
    expect(refused.plan.changes[0]!.error!.message).toContain("user 'nobody-here' does not exist");
  });

  it("reports GitLab's 403 on Free as the kind's error, and writes nothing", async () => {
    await start({ gitlabTier: "free" });
    const path = config(
      "project: acme/api",
      "items: { production: { deploy_access_levels: [maintainer] } }",
    );
    const planned = await plan(path);
    expect(planned.code).toBe(1);
    const error = planned.plan.changes[0]!.error!;
    expect(error.request).toBe(`GET ${ENVIRONMENTS}?per_page=100`);
    expect(error.status).toBe(403);
    expect(error.message).toContain(
      "GitLab answers 403 where protected environments are not available (they need GitLab Premium)",
    );
    expect((await apply(path)).code).toBe(1);
    expect(writes()).toEqual([]);
  });

  it("exports acme/api's protected environments, which plan as no change", async () => {
    await start();
    const out = configFile("", "acme-environments.yaml");
    const exported = await runInProcess([
      "export",
      "--project",
      "acme/api",
      "--sandbox-url",
      scenario.world.url,
      "--out",
      out,
    ]);
    expect(exported.stderr).toBe("");
    expect(exported.code).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text).toMatch(
      /protected_environments:\n\s+mode: additive\n\s+items:\n\s+production:\n\s+deploy_access_levels:\n\s+- maintainer\n\s+- user: octo-dev/,
    );
    const planned = await runInProcess(["plan", "-c", out, "--sandbox-url", scenario.world.url], {
      cwd: dirname(out),
      // The demo's hooks export their write-only tokens as placeholders to fill.
      env: placeholdersOf(text),
    });
    expect(planned.stdout).toContain("No changes.");
    expect(planned.code).toBe(0);
  });
});
