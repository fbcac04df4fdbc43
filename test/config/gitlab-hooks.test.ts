import { describe, expect, it } from "vitest";
import { errorLines, stateOf, yaml } from "./helpers.js";

/**
 * How GitLab webhooks are written (`webhooks` of a projects or groups entry, kind gitlab_hook):
 * each mistake is one error naming the file, the line and the key; secrets are references only.
 */

/** A projects entry whose hooks are `hooks`, a YAML list written from column 0 (line 6 on). */
const file = (hooks: string) => ({
  "a.yaml": [
    "version: 1",
    "projects:",
    "  - project: acme/api",
    "    webhooks:",
    "      hooks:",
    ...yaml([hooks] as unknown as TemplateStringsArray)
      .split("\n")
      .map((line) => `        ${line}`),
    "",
  ].join("\n"),
});

describe("GitLab webhooks, as written", () => {
  it("refuses a literal token and an event the endpoint does not have", () => {
    const lines = errorLines(
      file(`
- url: https://a.example/hook
  token: plain-text
  events: [push, pushes, member]`),
    );
    expect(lines).toEqual([
      expect.stringMatching(/^a\.yaml:7:\d+: .*hooks\[0\]\.token: literal secrets are refused/),
      expect.stringMatching(/^a\.yaml:8:\d+: .*events\[1\]: expected one of "push", .*"pushes"/),
      expect.stringMatching(/^a\.yaml:8:\d+: .*events\[2\]: expected one of .*"member"/),
    ]);
  });

  it("refuses a filter GitLab would clear or cannot read, an absent hook with settings, a shared url", () => {
    const lines = errorLines(
      file(`
- url: https://b.example/hook
  branch_filter_strategy: all_branches
  branch_filter: main
- url: https://c.example/hook
  absent: true
  events: [push]
- url: https://d.example/hook
  branch_filter_strategy: regex
  branch_filter: "("
- url: https://d.example/hook`),
    );
    expect(lines).toEqual([
      expect.stringMatching(
        /^a\.yaml:8:\d+: .*hooks\[0\]\.branch_filter: all_branches has no filter/,
      ),
      expect.stringMatching(
        /^a\.yaml:11:\d+: .*hooks\[1\]\.events: an absent hook has no settings/,
      ),
      expect.stringMatching(
        /^a\.yaml:14:\d+: .*hooks\[2\]\.branch_filter: not a regular expression/,
      ),
      expect.stringMatching(
        /^a\.yaml:15:\d+: .*hooks\[3\]\.url: another hook of this list has the same url; hooks may share a url only when each is pinned by id/,
      ),
    ]);
  });

  it("takes the token and header values as secrets from the environment", () => {
    const state = stateOf(
      file(`
      - url: https://a.example/hook
        token: \${HOOK_TOKEN}
        custom_headers: { X-Auth: "\${HOOK_AUTH}" }`),
      { HOOK_TOKEN: "t", HOOK_AUTH: "h" },
    );
    expect(JSON.stringify(state)).not.toMatch(/"t"|"h"/);
  });
});
