import { describe, expect, it } from "vitest";
import { formatConfigError } from "../../src/config/index.js";
import { loadFiles, yaml } from "./helpers.js";

/**
 * Configs whose `${VAR}` values break each kind of rule the loader checks, as a program built on the
 * library loads them (no redactor): no message may hold the value, short or long, whichever rule
 * refused it; "(sensitive)" stands where it would.
 */
const SHORT = "qZx"; // shorter than the redactor searches for in free text
const LONG = "leakedValue-7Kq2";

interface Case {
  rule: string;
  /** A config whose `${V}` (and for some `${W}`) holds a value that breaks the rule. */
  config: string;
}

const entry = (body: string) => yaml`
  version: 1
  repositories:
    - name: acme/api
  ${body}
`;

const cases: Case[] = [
  {
    rule: "a number expected (schema type)",
    config: entry(`    branch_protection:
        main:
          required_pull_request_reviews: { required_approving_review_count: "\${V}" }`),
  },
  {
    rule: "a boolean expected (schema type)",
    config: entry(`    branch_protection: { main: { enforce_admins: "\${V}" } }`),
  },
  {
    rule: "one of listed values (enum)",
    config: entry(`    rulesets: { r: { enforcement: "\${V}" } }`),
  },
  {
    rule: "a URL (format)",
    config: entry(`    webhooks: { hooks: [{ url: "\${V}" }] }`),
  },
  {
    rule: "a URL with the value in its middle",
    config: entry(`    webhooks: { hooks: [{ url: "ftp://h.example/\${V}/x" }] }`),
  },
  {
    rule: "a hook content type",
    config: entry(
      `    webhooks: { hooks: [{ url: "https://h.example/", content_type: "\${V}" }] }`,
    ),
  },
  {
    rule: "a ruleset ref pattern",
    config: entry(`    rulesets: { r: { conditions: { ref_name: { include: ["\${V}"] } } } }`),
  },
  {
    rule: "an owner type",
    config: entry(`    owner_type: "\${V}"`),
  },
  {
    rule: "a target that does not exist",
    config: entry(`    target: "\${V}"`),
  },
  {
    rule: "a repository name",
    config: yaml`
      version: 1
      repositories:
        - name: "\${V}"
    `,
  },
  {
    rule: "a date",
    config: yaml`
      version: 1
      audits: { gists: { since: "\${V}" } }
    `,
  },
  {
    rule: "a base URL of a target",
    config: yaml`
      version: 1
      targets: { github: { type: repository, base_url: "\${V}" } }
    `,
  },
  {
    rule: "an App id",
    config: yaml`
      version: 1
      targets: { github: { type: repository, app_id: "\${V}", private_key_env: K } }
    `,
  },
  {
    rule: "a hook listed twice (a conflict between entries)",
    config: yaml`
      version: 1
      repositories:
        - name: acme/api
          webhooks: { hooks: [{ url: "https://\${V}.example/" }, { url: "https://\${V}.example/" }] }
    `,
  },
  {
    rule: "a whole number of days",
    config: entry(`    invitations: { max_age_days: "\${V}" }`),
  },
  {
    rule: "a bypass role",
    config: entry(`    rulesets: { r: { bypass_actors: [{ role: "\${V}" }] } }`),
  },
];

describe("config errors of the library hold no interpolated value", () => {
  for (const value of [SHORT, LONG]) {
    it.each(cases)(`$rule (a ${value.length}-character value)`, ({ config }) => {
      const result = loadFiles({ "a.yaml": config }, { V: value, W: value });
      expect(result.ok).toBe(false);
      const messages = result.ok ? [] : result.errors.map(formatConfigError);
      expect(messages.length).toBeGreaterThan(0);
      for (const message of messages) expect(message).not.toContain(value);
    });
  }

  it("puts (sensitive) where the value would stand", () => {
    const result = loadFiles(
      { "a.yaml": entry(`    branch_protection: { main: { enforce_admins: "\${V}" } }`) },
      { V: SHORT },
    );
    expect(result.ok ? [] : result.errors.map(formatConfigError)).toEqual([
      'a.yaml:4:50: repositories[0].branch_protection.main.enforce_admins: expected true or false or null, found the string "(sensitive)"',
    ]);
  });

  it("keeps a value marked public, and what was written without a reference", () => {
    const result = loadFiles(
      {
        "a.yaml": entry(
          `    branch_protection: { main: { enforce_admins: "\${V:public}", allow_deletions: "${SHORT}" } }`,
        ),
      },
      { V: "maybe" },
    );
    const text = result.ok ? "" : result.errors.map(formatConfigError).join("\n");
    expect(text).toContain('found the string "maybe"');
    expect(text).toContain(`found the string "${SHORT}"`);
  });

  it("masks the listed errors of a file with more, not the line that counts them", () => {
    // 102 entries each refusing its value "2"; the 101st is where the count line stands, and "2"
    // there must not turn "the 2 from here on" into "the (sensitive) from here on".
    const entries = Array.from(
      { length: 102 },
      (_, index) => `  - { name: acme/r${index}, settings: { has_wiki: "\${V}" } }`,
    );
    const result = loadFiles(
      { "a.yaml": ["version: 1", "repositories:", ...entries, ""].join("\n") },
      { V: "2" },
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toBe(102);
    expect(formatConfigError(result.errors[0]!)).toBe(
      'a.yaml:3:44: repositories[0].settings.has_wiki: expected true or false, found the string "(sensitive)"',
    );
    expect(formatConfigError(result.errors[100]!)).toBe(
      "a.yaml:103:46: 102 problems in all; the 2 from here on are not listed: fix the 100 above first",
    );
  });
});
