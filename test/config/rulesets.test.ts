import { describe, expect, it } from "vitest";
import { printState } from "../../src/engine/desired.js";
import { errorLines, stateOf, yaml } from "./helpers.js";

describe("rulesets in the configuration", () => {
  it("refuses rule types forgeplan does not manage by name, never dropping them", () => {
    expect(
      errorLines({
        "a.yaml": yaml`
          version: 1
          repositories:
            - name: acme/api
              rulesets:
                main:
                  rules: { deletion: true, copilot_code_review: {}, pull_requests: {} }
        `,
      }),
    ).toEqual([
      'a.yaml:6:34: repositories[0].rulesets.main.rules.copilot_code_review: rule type "copilot_code_review" is not supported by forgeplan; manage it on the service and leave this ruleset to forgeplan without it',
      'a.yaml:6:59: repositories[0].rulesets.main.rules.pull_requests: unknown rule type "pull_requests"; did you mean "pull_request"?',
    ]);
  });

  it("checks rules against the ruleset's target, patterns, actors and conditions", () => {
    expect(
      errorLines({
        "a.yaml": yaml`
          version: 1
          repositories:
            - name: acme/api
              rulesets:
                tags:
                  target: tag
                  conditions: { ref_name: { include: [v1, "~DEFAULT_BRANCH"] } }
                  bypass_actors: [{ role: admin, bypass_mode: pull_request }, { role: admin }]
                  rules: { pull_request: {}, tag_name_pattern: { operator: regex, pattern: "^v" } }
                  replaces_protection: [main]
                files:
                  target: push
                  conditions: { ref_name: { include: ["~ALL"] } }
                  rules: { deletion: true, max_file_size: { max_file_size: 10 } }
                actors:
                  bypass_actors: [{ role: owner }, { team: a, app: b }, {}]
        `,
      }),
    ).toEqual([
      'a.yaml:16:33: repositories[0].rulesets.actors.bypass_actors[0].role: expected one of "OrganizationAdmin", "maintain", "write", "admin", found the string "owner"',
      "a.yaml:16:42: repositories[0].rulesets.actors.bypass_actors[1]: give exactly one of role, team, app, deploy_keys (found team and app)",
      "a.yaml:16:63: repositories[0].rulesets.actors.bypass_actors[2]: give exactly one of role, team, app, deploy_keys",
    ]);
    expect(
      errorLines({
        "a.yaml": yaml`
          version: 1
          repositories:
            - name: acme/api
              rulesets:
                tags:
                  target: tag
                  conditions: { ref_name: { include: [v1, "~DEFAULT_BRANCH"] } }
                  bypass_actors: [{ role: admin, bypass_mode: pull_request }, { role: admin }]
                  rules: { pull_request: {}, tag_name_pattern: { operator: regex, pattern: "^v" } }
                  replaces_protection: [main]
                files:
                  target: push
                  conditions: { ref_name: { include: ["~ALL"] } }
                  rules: { deletion: true, max_file_size: { max_file_size: 10 } }
        `,
      }),
    ).toEqual([
      "a.yaml:7:45: repositories[0].rulesets.tags.conditions.ref_name.include[0]: a tag pattern is a full ref name: write refs/tags/v1 or ~ALL",
      "a.yaml:7:49: repositories[0].rulesets.tags.conditions.ref_name.include[1]: a tag pattern is a full ref name: write refs/tags/~DEFAULT_BRANCH or ~ALL",
      "a.yaml:8:53: repositories[0].rulesets.tags.bypass_actors[0].bypass_mode: bypass_mode pull_request applies only to branch rulesets, and not to deploy keys",
      "a.yaml:8:69: repositories[0].rulesets.tags.bypass_actors[1]: role admin is listed twice (line 8)",
      "a.yaml:9:32: repositories[0].rulesets.tags.rules.pull_request: pull_request is not available in tag rulesets",
      "a.yaml:10:30: repositories[0].rulesets.tags.replaces_protection: only branch rulesets replace classic branch protection",
      "a.yaml:13:33: repositories[0].rulesets.files.conditions.ref_name: push rulesets do not target refs; leave out conditions.ref_name",
      "a.yaml:14:28: repositories[0].rulesets.files.rules.deletion: deletion is not available in push rulesets",
    ]);
  });

  it("checks organization rulesets as written: one way of targeting repositories, no merge queue", () => {
    expect(
      errorLines({
        "a.yaml": yaml`
          version: 1
          organizations:
            - name: acme
              rulesets:
                everywhere:
                  conditions: { ref_name: { include: ["~ALL"] } }
                  rules: { merge_queue: {} }
                deploy:
                  conditions: { repository_name: { include: ["~ALL"] } }
                  bypass_actors: [{ deploy_keys: true }]
        `,
      }),
    ).toEqual([
      "a.yaml:6:9: organizations[0].rulesets.everywhere: an organization ruleset targets repositories with exactly one of conditions.repository_name or conditions.repository_property",
      "a.yaml:7:31: organizations[0].rulesets.everywhere.rules.merge_queue: merge_queue is not available in organization rulesets; set it per repository",
      "a.yaml:10:40: organizations[0].rulesets.deploy.bypass_actors[0].deploy_keys: deploy keys belong to repositories; name them in repository rulesets",
    ]);
    expect(
      errorLines({
        "a.yaml": yaml`
          version: 1
          organizations:
            - name: acme
              rulesets:
                deploy: { conditions: { repository_name: { include: ["~ALL"] } } }
            - name: ACME
              rulesets:
                deploy: null
        `,
      }),
    ).toEqual([
      'a.yaml:8:15: organizations[1].rulesets.deploy: the ruleset "deploy" of organization ACME is also listed at a.yaml:5 (organizations[0].rulesets.deploy); list it once',
    ]);
  });

  it("refuses a branch that a ruleset replaces and branch_protection still protects, also through a profile", () => {
    expect(
      errorLines({
        "a.yaml": yaml`
          version: 1
          profiles:
            protected:
              branch_protection: { main: { enforce_admins: true } }
          repositories:
            - name: acme/api
              profiles: [protected]
              rulesets:
                protect main: { replaces_protection: [main] }
                again: { replaces_protection: [main] }
        `,
      }),
    ).toEqual([
      'a.yaml:9:45: repositories[0].rulesets["protect main"].replaces_protection[0]: branch main is replaced by this ruleset and also set under branch_protection; leave it out of branch_protection',
      "a.yaml:10:38: repositories[0].rulesets.again.replaces_protection[0]: branch main is replaced by another ruleset too; one ruleset replaces a branch's protection (line 9)",
      "a.yaml:10:38: repositories[0].rulesets.again.replaces_protection[0]: branch main is replaced by this ruleset and also set under branch_protection; leave it out of branch_protection",
    ]);
  });

  it("merges rulesets rule by rule across defaults, profiles and entries, and prints them with file:line", () => {
    const state = stateOf({
      "a.yaml": yaml`
        version: 1
        defaults:
          rulesets:
            baseline:
              rules: { deletion: true, non_fast_forward: true }
        repositories:
          - name: acme/api
            rulesets:
              baseline:
                bypass_actors: [{ team: platform }]
                rules: { non_fast_forward: null, pull_request: { required_approving_review_count: 2 } }
        organizations:
          - name: acme
            rulesets:
              org:
                conditions: { repository_name: { include: ["~ALL"] } }
                rules: { required_signatures: true }
      `,
    });
    expect(state.repositories[0]!.settings.rulesets).toEqual({
      baseline: {
        bypass_actors: [{ team: "platform" }],
        rules: {
          deletion: true,
          non_fast_forward: null,
          pull_request: { required_approving_review_count: 2 },
        },
      },
    });
    const printed = printState(state);
    expect(printed).toContain("github/acme/api/ruleset/baseline  (a.yaml:10)");
    expect(printed).toMatch(/ {2}rules\.deletion = true +a\.yaml:5 \(defaults\)/);
    expect(printed).toMatch(
      / {2}rules\.pull_request\.required_approving_review_count = 2 +a\.yaml:11 \(entry\)/,
    );
    expect(printed).toContain("github/acme/ruleset/org  (a.yaml:16)");
    expect(printed).toMatch(/ {2}rules\.required_signatures = true +a\.yaml:17 \(entry\)/);
  });
});
