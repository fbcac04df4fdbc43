/**
 * What access and labels read over GraphQL, and what they leave to REST, in the demo world's
 * acme/api: labels and direct collaborators come from the query; a custom role among a
 * collaborator's sources (GraphQL names only the five built-in levels) leaves the collaborators to
 * REST; pending invitations, which GraphQL does not show, are read only for a repository whose plan
 * needs them — by either path — and teams always over REST. Both paths plan alike in every case.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sandboxEngine } from "../helpers/engine.js";
import { call, sandbox } from "../helpers/sandbox.js";
import { FIXTURES } from "../kinds/fixtures/index.js";
import { KindWorld, runs } from "../kinds/harness.js";
import { bothPaths } from "../helpers/bulk-paths.js";

const REPO = "/repos/acme/api";

describe("access and labels over GraphQL", () => {
  it("reads collaborators and labels in the query, and invitations only where a plan needs them", async () => {
    const world = await KindWorld.start(FIXTURES.access!);
    try {
      // octo-dev and mona are collaborators already: nobody's invitation is needed.
      const kept = await bothPaths(world, "access", "access", {
        users: { "octo-dev": "write", mona: "triage" },
      });
      expect(kept.rest).toContain(`${REPO}/collaborators`);
      expect(kept.rest).not.toContain(`${REPO}/invitations`);
      expect(kept.graphql).not.toContain(`${REPO}/collaborators`);
      expect(kept.graphql).not.toContain(`${REPO}/invitations`);
      expect(kept.queries).toBeGreaterThan(0);

      // hubot has a pending invitation and is no collaborator: both paths read the invitations.
      const invited = await bothPaths(world, "access", "access", { users: { hubot: "write" } });
      expect(invited.rest).toContain(`${REPO}/invitations`);
      expect(invited.graphql).toContain(`${REPO}/invitations`);
      expect(invited.graphql).not.toContain(`${REPO}/collaborators`);

      // Teams are read over REST whichever path reads the collaborators.
      const teams = await bothPaths(world, "access", "access", { teams: { platform: "write" } });
      expect(teams.graphql).toContain(`${REPO}/teams`);

      const labels = await bothPaths(world, "label", "labels", {
        items: { bug: { color: "ff0000" } },
      });
      expect(labels.rest).toContain(`${REPO}/labels`);
      expect(labels.graphql).not.toContain(`${REPO}/labels`);
    } finally {
      await world.stop();
    }
  });

  it("leaves the collaborators to REST when a source's role is a custom role", async () => {
    const world = await KindWorld.start(FIXTURES.access!);
    try {
      const granted = await world.live().call("PUT", `${REPO}/collaborators/mona`, {
        permission: "auditor",
      });
      expect(granted.status).toBeLessThan(300);
      const custom = await bothPaths(world, "access", "access", { users: { mona: "read" } });
      expect(custom.graphql).toContain(`${REPO}/collaborators`);
      expect(custom.queries).toBeGreaterThan(0);
    } finally {
      await world.stop();
    }
  });
});

const TEAM_ROLES = ["pull", "triage", "push", "maintain", "admin", "auditor"] as const;
const GENERATED = 110;

/** A team grant changed on one generated repository, behind forgeplan's back. */
const teamChange = fc.record({
  repo: fc.integer({ min: 1, max: GENERATED }),
  team: fc.constantFrom("platform", "release-managers", "security"),
  role: fc.option(fc.constantFrom(...TEAM_ROLES), { nil: null }),
});

const teamsWanted = fc.record(
  {
    mode: fc.constantFrom("additive" as const, "authoritative" as const),
    teams: fc.dictionary(
      fc.constantFrom("platform", "release-managers"),
      fc.option(fc.constantFrom("read", "write", "maintain", "admin", "auditor"), { nil: null }),
      { minKeys: 1 },
    ),
  },
  { requiredKeys: ["teams"] },
);

describe("teams read from the organization's side", () => {
  it("plan as each repository's own listing plans them, nested teams, security managers and custom roles included", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(teamChange, { maxLength: 12 }),
        teamsWanted,
        async (changes, access) => {
          const world = await sandbox({ generate: GENERATED, generateProfile: "full" });
          try {
            for (const { repo, team, role } of changes) {
              const path = `/orgs/acme/teams/${team}/repos/acme/repo-${String(repo).padStart(4, "0")}`;
              const answer =
                role === null
                  ? await call(world, "DELETE", path)
                  : await call(world, "PUT", path, { body: { permission: role } });
              // A security manager team keeps every repository: GitHub refuses its removal.
              expect([204, 403]).toContain(answer.status);
            }
            const engine = sandboxEngine(world);
            const state = engine.state([
              {
                selector: { kind: "glob", owner: "acme", pattern: "repo-*", exclude: [] },
                ownerType: "organization",
                settings: { access: access },
              },
            ]);
            const teamReads = () => world.stats().requests_total;
            const before = teamReads();
            const rest = await engine.plan(state, "rest");
            const middle = teamReads();
            const graphql = await engine.plan(state, "graphql");
            expect(graphql.changes).toEqual(rest.changes);
            // The organization's side answered most repositories: far fewer requests.
            expect(teamReads() - middle).toBeLessThan((middle - before) / 2);
          } finally {
            await world.stop();
          }
        },
      ),
      runs(29, 8),
    );
  }, 600_000);
});
