import { describe, expect, it } from "vitest";
import { readGitlabCiJob, stepOf } from "../../src/cli/gitlab-ci-env.js";

/** GitLab's predefined variables as `forgeplan ci` reads them, and the step each pipeline runs. */

const job = {
  CI_SERVER_URL: "https://gitlab.example",
  CI_PROJECT_ID: "42",
  CI_DEFAULT_BRANCH: "main",
  CI_COMMIT_SHA: "A".repeat(40),
};

describe("forgeplan ci's GitLab CI job", () => {
  it("chooses the step by the pipeline's source and branch", () => {
    const step = (env: Record<string, string>) => stepOf(readGitlabCiJob({ ...job, ...env }));
    expect(step({ CI_PIPELINE_SOURCE: "merge_request_event", CI_MERGE_REQUEST_IID: "7" })).toBe(
      "plan",
    );
    expect(step({ CI_PIPELINE_SOURCE: "schedule", CI_COMMIT_BRANCH: "main" })).toBe("drift");
    expect(step({ CI_PIPELINE_SOURCE: "push", CI_COMMIT_BRANCH: "main" })).toBe("apply");
    expect(step({ CI_PIPELINE_SOURCE: "web", CI_COMMIT_BRANCH: "main" })).toBe("apply");
    expect(step({ CI_PIPELINE_SOURCE: "push", CI_COMMIT_BRANCH: "feature" })).toBe("plan");
    // A tag pipeline has no CI_COMMIT_BRANCH: it applies nothing.
    expect(step({ CI_PIPELINE_SOURCE: "push", CI_COMMIT_TAG: "v1" })).toBe("plan");
  });

  it("reads the API from CI_API_V4_URL alone, and takes 40 zeros for no commit", () => {
    const read = readGitlabCiJob({
      CI_API_V4_URL: "https://gitlab.example/gitlab/api/v4",
      CI_PROJECT_ID: "42",
      CI_COMMIT_SHA: "A".repeat(40),
      CI_COMMIT_BEFORE_SHA: "0".repeat(40),
      CI_MERGE_REQUEST_DIFF_BASE_SHA: "not a sha",
    });
    expect(read).toMatchObject({
      serverUrl: "https://gitlab.example/gitlab",
      project: "42",
      source: "push",
      sha: "a".repeat(40),
    });
    expect(read.before).toBeUndefined();
    expect(read.diffBase).toBeUndefined();
  });

  it("refuses a merge request iid that is not one", () => {
    expect(() => readGitlabCiJob({ ...job, CI_MERGE_REQUEST_IID: "!7" })).toThrow(
      "ci: CI_MERGE_REQUEST_IID must be a merge request's iid, got '!7'",
    );
  });
});
