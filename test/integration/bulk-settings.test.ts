/**
 * What settings read over GraphQL, and what they leave to REST, in the demo world's acme/api: the
 * Full Repository (its PATCH fields, topics, default branch) and the Dependabot alerts come from the
 * query; automated security fixes and private vulnerability reporting, which GitHub's schema lacks,
 * stay on REST, and so does the whole Full Repository for a value that writes
 * `security_and_analysis` or lists previous names. A named repository whose settings are not
 * configured is located from the query too. Both paths plan alike in every case.
 */
import { describe, expect, it } from "vitest";
import { bothPaths } from "../helpers/bulk-paths.js";
import { FIXTURES } from "../kinds/fixtures/index.js";
import { KindWorld } from "../kinds/harness.js";

const REPO = "/repos/acme/api";

describe("settings over GraphQL", () => {
  it("reads the repository and its alerts in the query, the rest over REST", async () => {
    const world = await KindWorld.start(FIXTURES.settings!);
    try {
      const fields = await bothPaths(world, "settings", "settings", {
        description: "The API",
        homepage: null,
        has_wiki: false,
        squash_merge_commit_title: "PR_TITLE",
        squash_merge_commit_message: "BLANK",
        default_branch: "main",
        topics: ["api", "backend"],
        vulnerability_alerts: true,
        automated_security_fixes: true,
        private_vulnerability_reporting: false,
      });
      expect(fields.rest).toEqual(expect.arrayContaining([REPO, `${REPO}/vulnerability-alerts`]));
      expect(fields.graphql).not.toContain(REPO);
      expect(fields.graphql).not.toContain(`${REPO}/vulnerability-alerts`);
      expect(fields.graphql).toEqual(
        expect.arrayContaining([
          `${REPO}/automated-security-fixes`,
          `${REPO}/private-vulnerability-reporting`,
        ]),
      );
      expect(fields.queries).toBeGreaterThan(0);

      const security = await bothPaths(world, "settings", "settings", {
        description: "The API",
        security_and_analysis: { secret_scanning: { status: "enabled" } },
      });
      expect(security.graphql).toContain(REPO);

      const renamed = await bothPaths(world, "settings", "settings", {
        description: "The API",
        previously: ["old-api"],
        vulnerability_alerts: false,
      });
      expect(renamed.graphql).toContain(REPO);
      expect(renamed.graphql).not.toContain(`${REPO}/vulnerability-alerts`);
    } finally {
      await world.stop();
    }
  });

  it("locates a named repository without settings from the query", async () => {
    const world = await KindWorld.start(FIXTURES.label!);
    try {
      const labels = await bothPaths(world, "label", "labels", {
        items: { bug: { color: "ff0000" } },
      });
      expect(labels.rest).toContain(REPO);
      expect(labels.graphql).not.toContain(REPO);
      expect(labels.queries).toBeGreaterThan(0);
    } finally {
      await world.stop();
    }
  });
});
