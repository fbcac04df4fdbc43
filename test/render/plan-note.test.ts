import { describe, expect, it } from "vitest";
import { type Change, makePlan } from "../../src/core/plan.js";
import { Redactor } from "../../src/core/redact.js";
import { planNoteBody } from "../../src/report/ci/plan-note.js";
import { readDigest } from "../../src/report/plan-digest.js";
import { GITLAB_NOTE_LIMIT } from "../../src/report/gitlab/merge-request-note.js";
import { change } from "./fixtures.js";

/**
 * The sticky note's body on either host: within the host's limit however large the plan (GitLab's
 * 1,000,000 characters here), its marker and digest first, the token nowhere.
 */

const TOKEN = "glpat-forgeplanCanary9x8y7z";

/** 3,000 project changes with long descriptions: about 3,000,000 characters of markdown. */
function largePlan() {
  const changes: Change[] = [];
  for (let project = 1; project <= 3000; project += 1) {
    changes.push(
      change({
        kind: "project_settings",
        action: "update",
        target: "gitlab",
        scope: `acme/project-${String(project).padStart(4, "0")}`,
        name: "settings",
        diff: [{ path: "description", before: "x".repeat(500), after: `y${"z".repeat(499)}` }],
      }),
    );
  }
  return makePlan(changes);
}

describe("the plan note's body", () => {
  it("fits GitLab's note limit, starting with its marker and the whole plan's digest", () => {
    const redactor = new Redactor();
    redactor.add(TOKEN, "FORGEPLAN_GITLAB_TOKEN");
    const plan = largePlan();
    const body = planNoteBody(plan, redactor, {
      key: "forgeplan.yaml",
      title: "forgeplan plan",
      maxLength: GITLAB_NOTE_LIMIT,
      detailsUrl: "https://gitlab.example/acme/settings/-/jobs/77",
    });
    expect([...body].length).toBeLessThanOrEqual(GITLAB_NOTE_LIMIT);
    expect(body.length).toBeGreaterThan(GITLAB_NOTE_LIMIT * 0.9);
    expect(body.startsWith("<!-- forgeplan: forgeplan.yaml -->\n<!-- forgeplan-plan-digest ")).toBe(
      true,
    );
    expect(readDigest(body)?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(body).toContain("https://gitlab.example/acme/settings/-/jobs/77");
    expect(body).not.toContain(TOKEN);
  });
});
