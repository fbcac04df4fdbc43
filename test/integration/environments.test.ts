import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/cli.js";
import { recordedSandbox } from "../helpers/recorded-sandbox.js";
import { call, configFile } from "../helpers/sandbox.js";

/**
 * Environments against the demo world's acme/api: staging (protected branches only) and production
 * (30 minutes' wait, octo-admin and release-managers reviewing, self-review prevented, custom
 * patterns: branch main and tag v*).
 */

const live = recordedSandbox();

function environmentsConfig(body: string): string {
  return configFile(`version: 1\nrepositories:\n  - name: acme/api\n    environments:\n${body}`);
}

async function patterns(environment: string): Promise<string[]> {
  const { body } = await call(
    live.world,
    "GET",
    `/repos/acme/api/environments/${environment}/deployment-branch-policies`,
  );
  return (body as { branch_policies: Array<{ name: string; type: string }> }).branch_policies
    .map((policy) => `${policy.type} ${policy.name}`)
    .sort();
}

describe("custom deployment branch policies", () => {
  const production = (custom: string) =>
    environmentsConfig(
      `      production:\n        wait_timer: 30\n        prevent_self_review: true\n        reviewers: { users: [octo-admin], teams: [release-managers] }\n        deployment_branch_policy:\n          custom: [${custom}]\n`,
    );

  it("are compared as a set: only the missing are created and the extra deleted", async () => {
    const path = production('{ name: "v*", type: tag }, { name: "release/*" }');
    const { plan } = await live.planOf(path);
    const [change] = plan.changes.filter((candidate) => candidate.kind === "environment");
    expect(change!.action).toBe("update");
    expect(change!.requests.map((request) => request.method)).toEqual(["DELETE", "POST"]);
    expect(change!.requests[1]).toMatchObject({
      path: "/repos/acme/api/environments/production/deployment-branch-policies",
      body: { name: "release/*", type: "branch" },
    });
    await live.applied(path);
    expect(await patterns("production")).toEqual(["branch release/*", "tag v*"]);
    expect((await live.planOf(path)).code).toBe(0);
  });

  it("converge when an environment turns them on: the PUT first, then each pattern", async () => {
    const path = environmentsConfig(
      '      staging:\n        deployment_branch_policy: { custom: [{ name: main }, { name: "v*", type: tag }] }\n',
    );
    await live.applied(path);
    expect(live.sent()).toEqual([
      "PUT /repos/acme/api/environments/staging",
      "POST /repos/acme/api/environments/staging/deployment-branch-policies",
      "POST /repos/acme/api/environments/staging/deployment-branch-policies",
    ]);
    expect(live.writes[0]!.body).toEqual({
      wait_timer: 0,
      prevent_self_review: false,
      reviewers: [],
      deployment_branch_policy: { protected_branches: false, custom_branch_policies: true },
    });
    expect(await patterns("staging")).toEqual(["branch main", "tag v*"]);
    expect((await live.planOf(path)).code).toBe(0);
  });

  it("written as they are plan as no change, names of environments in any case", async () => {
    const { code } = await live.planOf(
      production('{ name: main }, { name: "v*", type: tag }').replace("production:", "Production:"),
    );
    expect(code).toBe(0);
  });
});

describe("an environment", () => {
  it("is written whole with GitHub's PUT body alone, reviewers resolved to ids", async () => {
    const path = environmentsConfig(
      "      preview:\n        wait_timer: 5\n        reviewers: { users: [Octo-Dev], teams: [platform] }\n",
    );
    await live.applied(path);
    expect(live.writes).toHaveLength(1);
    expect(live.writes[0]).toMatchObject({
      method: "PUT",
      path: "/repos/acme/api/environments/preview",
      body: {
        wait_timer: 5,
        prevent_self_review: false,
        reviewers: [
          { type: "User", id: 3 },
          { type: "Team", id: 1 },
        ],
        deployment_branch_policy: null,
      },
    });
  });

  it("with an unknown reviewer is an error for that environment alone", async () => {
    const path = environmentsConfig(
      "      preview:\n        reviewers: { users: [nobody-here] }\n      staging:\n        wait_timer: 10\n",
    );
    const { plan } = await live.planOf(path);
    const byName = Object.fromEntries(
      plan.changes.map((change) => [change.name, change.error?.message ?? change.action]),
    );
    expect(byName).toEqual({ preview: 'reviewer "nobody-here" is not a user', staging: "update" });
  });

  it.each([
    ["      preview:\n        wait_timer: 43201\n", "wait_timer: expected at most 43200"],
    [
      "      qa:\n        prevent_self_review: true\n",
      "prevent_self_review needs at least one reviewer",
    ],
    [
      "      prod:\n        reviewers: { users: [a, b, c, d], teams: [e, f, g] }\n",
      "at most 6 reviewers, users and teams together",
    ],
  ])("is checked against GitHub's limits when loading: %j", async (body, message) => {
    const result = await runInProcess(["validate", "-c", environmentsConfig(body)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("null deletes it, only with --allow-delete", async () => {
    const path = environmentsConfig("      staging: null\n");
    const { plan } = await live.planOf(path);
    expect(plan.changes.map((change) => [change.name, change.action])).toEqual([
      ["staging", "delete"],
    ]);
    const refused = await runInProcess([
      "apply",
      "-c",
      path,
      "--sandbox-url",
      live.world.url,
      "--auto-approve",
    ]);
    expect(refused.stdout).toContain("deletes need --allow-delete");
    expect(live.sent()).toEqual([]);
    await live.applied(path);
    expect(live.sent()).toEqual(["DELETE /repos/acme/api/environments/staging"]);
  });
});
