import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makePlan, type Change } from "../../src/core/plan.js";
import { COMMENT_MARKER, renderApplyReport, renderPlan } from "../../src/render/index.js";
import {
  appliedReport,
  change,
  createProtection,
  missingBranch,
  realisticPlan,
  reportInvitation,
  unchangedProtection,
  updateHook,
} from "./fixtures.js";

const GITHUB_COMMENT_LIMIT = 65_536;

/** Table cell separators: pipes that are not backslash-escaped. */
const separators = (line: string) => line.match(/(?<!\\)\|/g)?.length ?? 0;

describe("markdown plan", () => {
  it("starts with the marker, then the header, the summary table and one section per scope", () => {
    const plan = makePlan([createProtection, unchangedProtection, reportInvitation, missingBranch]);
    expect(
      renderPlan(plan, "markdown", { title: "Plan for acme/settings@1a2b3c4", commit: "1a2b3c4" }),
    ).toBe(
      [
        "<!-- forgeplan -->",
        "",
        "### Plan for acme/settings@1a2b3c4",
        "",
        "Planned at commit <code>1a2b3c4</code>.",
        "",
        "| create | update | delete | report | no-op | errors |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
        "| 1 | 0 | 0 | 1 | 1 | 1 |",
        "",
        "❗ 1 change could not be planned: apply applies nothing while the plan has errors (--allow-plan-errors applies the rest).",
        "",
        "<details open><summary>❌ <b>github/acme/ghost</b>: 1 error</summary>",
        "",
        "**✗ could not be planned** <code>github/acme/ghost/branch\\_protection/main</code>",
        "",
        "error: <code>GET /repos/acme/ghost/branches/main</code> → 404: Not Found",
        "",
        "</details>",
        "",
        "<details><summary><b>github/acme/web</b>: 1 to create</summary>",
        "",
        "**\\+ create** <code>github/acme/web/branch\\_protection/main</code>",
        "",
        "| field | before | after |",
        "| --- | --- | --- |",
        "| <code>enforce\\_admins</code> | <code>(absent)</code> | <code>true</code> |",
        '| <code>required\\_status\\_checks.checks</code> | <code>(absent)</code> | <code>\\[{context: "ci/test"}\\]</code> |',
        "",
        "</details>",
        "",
        "<details><summary><b>github/acme/api</b>: 1 to report</summary>",
        "",
        "**\\! report** <code>github/acme/api/invitation/3</code>",
        "",
        "- octo-rogue was invited 45 days ago (maximum 30)",
        "",
        "</details>",
        "",
      ].join("\n"),
    );
  });

  it("lists sections with errors first, then sections with deletes, each open and marked", () => {
    const markdown = renderPlan(realisticPlan(), "markdown");
    const summaries = [...markdown.matchAll(/^<details( open)?><summary>(.*)<\/summary>$/gm)].map(
      (match) => `${match[1] ?? ""}|${match[2]}`,
    );
    expect(summaries).toEqual([
      " open|❌ <b>github/acme/ghost</b>: 1 error",
      " open|⚠️ <b>planning/acme/api</b>: 1 to delete",
      "|<b>github/acme/api</b>: 1 to update, 1 to report",
      "|<b>github/acme/web</b>: 1 to create",
    ]);
  });

  it("shows notes and sensitive values", () => {
    const markdown = renderPlan(makePlan([updateHook]), "markdown");
    expect(markdown).toContain(
      "| <code>config.secret</code> | <code>(sensitive)</code> | <code>(sensitive)</code> |",
    );
    expect(markdown).toContain("- _note:_ secret could not be verified (write-only)");
  });

  it("says so when nothing changes, and still shows reports", () => {
    expect(renderPlan(makePlan([unchangedProtection]), "markdown")).toBe(
      [
        COMMENT_MARKER,
        "",
        "### forgeplan plan",
        "",
        "| create | update | delete | report | no-op | errors |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
        "| 0 | 0 | 0 | 0 | 1 | 0 |",
        "",
        "**No changes. Live state matches the desired state.**",
        "",
      ].join("\n"),
    );
    const withReport = renderPlan(makePlan([unchangedProtection, reportInvitation]), "markdown");
    expect(withReport).toContain(
      "**No changes. Live state matches the desired state.**\n\n<details>",
    );
  });

  describe("escaping what users and the service control", () => {
    const hostile: Change[] = [
      change({
        kind: "branch_protection",
        action: "create",
        target: "github",
        scope: "acme/<script>alert(1)</script>",
        name: "<img src=x>",
        diff: [{ path: "restrictions.users", after: ["@octo-admin", "*bold*", "`tick`"] }],
      }),
      change({
        kind: "webhook",
        action: "update",
        target: "github",
        scope: "acme/api",
        name: "1",
        diff: [
          {
            path: "config.url",
            before: "https://hooks.example.com/a|b",
            after: "https://hooks.example.com/x?y=|</code></td>`",
          },
        ],
        findings: ["- not a list | nor a table", "# not a heading", "1. not a list"],
        notes: ["line one\n| injected | row |"],
      }),
    ];
    const markdown = renderPlan(makePlan(hostile), "markdown", {
      title: "Plan for <b>evil</b>",
      commit: "`rm`",
    });

    it("lets no user string open an HTML tag", () => {
      expect(markdown).not.toMatch(/(?<!\\)<(img|script|b>evil)/);
      expect(markdown).not.toContain("</code></td>");
      expect(markdown).toContain("acme/&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(markdown).toContain("<code>github/acme/api/webhook/1</code>");
      expect(markdown).toContain("\\<img src=x\\>");
    });

    it("keeps every table row at its number of cells", () => {
      const diffRows = markdown.split("\n").filter((line) => line.startsWith("| <code>"));
      expect(diffRows).toHaveLength(2);
      for (const row of diffRows) expect(separators(row), row).toBe(4);
      expect(markdown).toContain(
        '| <code>config.url</code> | <code>"https://hooks.example.com/a\\|b"</code> | <code>"https://hooks.example.com/x?y=\\|\\</code\\>\\</td\\>\\`"</code> |',
      );
    });

    it("escapes backticks, emphasis and line-start markers", () => {
      expect(markdown).toContain('<code>\\["@octo-admin", "\\*bold\\*", "\\`tick\\`"\\]</code>');
      expect(markdown).toContain(
        "- \\- not a list \\| nor a table\n- \\# not a heading\n- 1\\. not a list",
      );
      expect(markdown).toContain("### Plan for \\<b\\>evil\\</b\\>");
      expect(markdown).toContain("Planned at commit <code>\\`rm\\`</code>.");
    });

    it("keeps control characters from ending a line", () => {
      expect(markdown).toContain("- _note:_ line one\\\\u000a\\| injected \\| row \\|");
    });
  });
});

/** 2,000 changes over 200 repositories: far more than one comment holds. */
function hugePlan(): ReturnType<typeof makePlan> {
  const changes: Change[] = [];
  for (let repo = 1; repo <= 200; repo += 1) {
    for (let hook = 1; hook <= 10; hook += 1) {
      changes.push(
        change({
          kind: "webhook",
          action: hook === 10 ? "delete" : "update",
          target: "github",
          scope: `acme/repo-${String(repo).padStart(4, "0")}`,
          name: String(hook),
          diff: [
            { path: "events", before: ["push"], after: ["pull_request", "push"] },
            {
              path: "config.url",
              before: `https://ci.example.com/${repo}/${hook}`,
              after: "https://ci.example.com/new",
            },
          ],
        }),
      );
    }
  }
  return makePlan(changes);
}

describe("markdown truncation", () => {
  const plan = hugePlan();
  const full = renderPlan(plan, "markdown", { title: "Plan" });
  const sectionCount = full.match(/<details/g)?.length ?? 0;

  it("cuts a plan of 2,000 changes at a section boundary under GitHub's comment limit", () => {
    expect(full.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT);
    const cut = renderPlan(plan, "markdown", {
      title: "Plan",
      maxLength: GITHUB_COMMENT_LIMIT,
      detailsUrl: "https://github.com/acme/settings/actions/runs/42",
    });
    expect(cut.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(cut.startsWith(`${COMMENT_MARKER}\n`)).toBe(true);

    const kept = cut.match(/<details/g)?.length ?? 0;
    expect(kept).toBeGreaterThan(0);
    expect(cut.match(/<\/details>/g)).toHaveLength(kept);
    const note = `_… ${sectionCount - kept} more sections not shown: the plan is longer than GitHub's comment limit; see [the full plan](<https://github.com/acme/settings/actions/runs/42>)._\n`;
    expect(cut.endsWith(`</details>\n\n${note}`)).toBe(true);
    // Everything before the note is the full rendering, word for word, up to a section's end.
    const body = cut.slice(0, -note.length);
    expect(full.startsWith(body)).toBe(true);
    expect(full.slice(body.length).startsWith("<details")).toBe(true);
    // The next section would not have fitted.
    const nextEnd = full.indexOf("</details>", body.length) + "</details>\n\n".length;
    expect(nextEnd + note.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT);
  });

  it("keeps the summary table of the whole plan", () => {
    const cut = renderPlan(plan, "markdown", { maxLength: GITHUB_COMMENT_LIMIT });
    expect(cut).toContain("| 0 | 1800 | 200 | 0 | 0 | 0 |");
    expect(cut).toMatch(/see the job summary\._\n$/);
  });

  it("shows the header, the summary table and the note when even one section is too long", () => {
    const wide = change({
      ...updateHook,
      diff: Array.from({ length: 200 }, (_, index) => ({ path: `labels.${index}`, after: "x" })),
    });
    const cut = renderPlan(makePlan([wide, createProtection]), "markdown", { maxLength: 2000 });
    expect(cut).toBe(
      [
        COMMENT_MARKER,
        "",
        "### forgeplan plan",
        "",
        "| create | update | delete | report | no-op | errors |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
        "| 1 | 1 | 0 | 0 | 0 | 0 |",
        "",
        "_… 2 more sections not shown: the plan is longer than GitHub's comment limit; see the job summary._",
        "",
      ].join("\n"),
    );
  });

  it("leaves a plan that fits as it is", () => {
    const fits = renderPlan(realisticPlan(), "markdown", { maxLength: GITHUB_COMMENT_LIMIT });
    expect(fits).toBe(renderPlan(realisticPlan(), "markdown"));
  });

  it("is never longer than the limit, whatever the limit", () => {
    const small = makePlan(plan.changes.slice(0, 60));
    const whole = renderPlan(small, "markdown");
    fc.assert(
      fc.property(fc.integer({ min: 0, max: whole.length + 10 }), (maxLength) => {
        const cut = renderPlan(small, "markdown", { maxLength });
        expect(cut.length).toBeLessThanOrEqual(maxLength);
        expect(cut.match(/<details/g)?.length ?? 0).toBe(cut.match(/<\/details>/g)?.length ?? 0);
      }),
      { numRuns: 200 },
    );
  });
});

describe("markdown apply report", () => {
  it("tables the outcomes, problems first, after the counts and the verification", () => {
    expect(renderApplyReport(appliedReport(), "markdown", { commit: "9f8e7d6" })).toBe(
      [
        COMMENT_MARKER,
        "",
        "### forgeplan apply",
        "",
        "Applied at commit <code>9f8e7d6</code>.",
        "",
        "| applied | failed | held | skipped |",
        "| ---: | ---: | ---: | ---: |",
        "| 1 | 1 | 0 | 1 |",
        "",
        "**Not verified:** the re-plan still shows 2 changes:",
        "",
        "- <code>github/acme/api/webhook/ci</code> (update): <code>events</code>, <code>config.secret</code>",
        "- <code>planning/acme/api/board/2</code> (delete): <code>name</code>",
        "",
        "| outcome | change | action | request | status | message |",
        "| --- | --- | --- | --- | --- | --- |",
        "| ❌ failed | <code>github/acme/api/webhook/ci</code> | update | <code>PATCH /repos/acme/api/hooks/1</code> | 422 | Validation Failed |",
        "| ⏭️ skipped | <code>planning/acme/api/board/2</code> | delete |  |  | deletes need --allow-delete |",
        "| ✅ applied | <code>github/acme/web/branch\\_protection/main</code> | create |  |  |  |",
        "",
      ].join("\n"),
    );
  });

  it("lists each applied change the re-plan could not check, and why", () => {
    const gone = "github/acme/api/webhook/https://old.acme.example/hook";
    const reason =
      "the re-plan has no entry for it; it could not plan github/acme/*/webhook/*: GET /orgs/acme/repos → 502: Server_Error";
    const alone = {
      outcomes: [
        { address: gone, kind: "webhook", action: "delete" as const, outcome: "applied" as const },
      ],
      verification: makePlan([]),
      verified: false,
      unchecked: [{ address: gone, reason }],
    };
    expect(renderApplyReport(alone, "markdown")).toContain(
      [
        "**Not verified:** the re-plan could not check 1 applied change:",
        "",
        `- <code>${gone}</code>: the re-plan has no entry for it; it could not plan github/acme/\\*/webhook/\\*: GET /orgs/acme/repos → 502: Server\\_Error`,
        "",
      ].join("\n"),
    );
    const both = { ...appliedReport(), unchecked: alone.unchecked };
    expect(renderApplyReport(both, "markdown")).toContain(
      [
        "- <code>planning/acme/api/board/2</code> (delete): <code>name</code>",
        "",
        "The re-plan could not check 1 applied change:",
        "",
        `- <code>${gone}</code>: the re-plan has no entry for it;`,
      ].join("\n"),
    );
  });

  it("confirms a clean verification", () => {
    const report = {
      outcomes: appliedReport().outcomes.slice(0, 1),
      verification: makePlan([]),
      verified: true,
    };
    expect(renderApplyReport(report, "markdown")).toContain(
      "**Verified:** re-plan shows no changes.",
    );
  });

  it("drops rows from the end to fit the limit", () => {
    const outcomes = Array.from({ length: 3000 }, (_, index) => ({
      address: `github/acme/repo-${index}/webhook/1`,
      kind: "webhook" as const,
      action: "update" as const,
      outcome: index === 2999 ? ("failed" as const) : ("applied" as const),
      request: index === 2999 ? "PATCH /repos/acme/repo-2999/hooks/1" : undefined,
      status: index === 2999 ? 500 : undefined,
    }));
    const cut = renderApplyReport({ outcomes, verified: false }, "markdown", {
      maxLength: GITHUB_COMMENT_LIMIT,
    });
    expect(cut.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(cut).toContain("| ❌ failed | <code>github/acme/repo-2999/webhook/1</code>");
    expect(cut).toMatch(
      /\|\n\n_… \d+ more outcomes not shown: the report is longer than GitHub's comment limit; see the job summary\._\n$/,
    );
  });
});

describe("every markdown output", () => {
  it("starts with the marker on its own line", () => {
    for (const output of [
      renderPlan(realisticPlan(), "markdown"),
      renderPlan(makePlan([]), "markdown"),
      renderApplyReport(appliedReport(), "markdown"),
    ]) {
      expect(output.split("\n")[0]).toBe(COMMENT_MARKER);
    }
  });
});
