import { describe, expect, it } from "vitest";
import { makePlan, type ApplyReport, type Change } from "../../src/core/plan.js";
import { Secret } from "../../src/core/secret.js";
import {
  FORMATS,
  renderApplyReport,
  renderPlan,
  type RenderOptions,
} from "../../src/render/index.js";
import { change } from "./fixtures.js";

const RAW = {
  token: "ghp_R3alT0kenValue000000000000000000000",
  hookSecret: "whsec-correct-horse-battery-staple",
  header: "Bearer sk_live_51Hx9authorizationheader",
  oldSecret: "previous-hook-secret-7731",
  finding: "finding-secret-value-4242",
};

const leaky: Change[] = [
  change({
    kind: "webhook",
    action: "update",
    target: "github",
    scope: "acme/api",
    name: "ci",
    diff: [
      // Secret objects on either side of an entry that is not marked sensitive.
      {
        path: "config.secret",
        before: new Secret(RAW.oldSecret, "OLD"),
        after: new Secret(RAW.hookSecret, "HOOK"),
      },
      // Raw strings in entries marked sensitive.
      {
        path: "config.authorization_header",
        before: RAW.header,
        after: `${RAW.header}-rotated`,
        sensitive: true,
      },
      { path: "config.token", after: RAW.token, sensitive: true },
      { path: "config.nested", before: { deep: [new Secret(RAW.token, "TOKEN")] }, after: null },
    ],
    requests: [
      {
        method: "PATCH",
        path: "/repos/acme/api/hooks/1",
        body: {
          config: { secret: new Secret(RAW.hookSecret, "HOOK"), insecure_ssl: "0" },
          headers: [new Secret(RAW.header, "AUTH")],
        },
      },
    ],
    notes: ["secret could not be verified (write-only)"],
  }),
  change({
    kind: "invitation",
    action: "report",
    target: "github",
    scope: "acme/api",
    name: "7",
    // A finding built carelessly from a secret still prints "(sensitive)".
    findings: [
      `invited with ${new Secret(RAW.finding, "X")}`,
      new Secret(RAW.finding, "X") as unknown as string,
    ],
  }),
];

const plan = makePlan(leaky);
const report: ApplyReport = {
  outcomes: [{ address: leaky[0]!.address, kind: "webhook", action: "update", outcome: "applied" }],
  verification: plan,
  verified: false,
};
const optionSets: RenderOptions[] = [
  {},
  { color: true },
  { title: "t", commit: "abc", maxLength: 65_536 },
];

describe("secrets in every format", () => {
  for (const format of FORMATS) {
    it(`never reach ${format} output of a plan or an apply report`, () => {
      for (const options of optionSets) {
        const planOutput = renderPlan(plan, format, options);
        expect(planOutput).toContain("(sensitive)");
        for (const output of [planOutput, renderApplyReport(report, format, options)]) {
          for (const raw of Object.values(RAW)) expect(output).not.toContain(raw);
          expect(output).not.toMatch(/correct-horse|sk_live|ghp_R3al/);
        }
      }
    });
  }

  it("print as (sensitive) in the text diff", () => {
    const text = renderPlan(plan, "text");
    expect(text).toContain("    config.secret: (sensitive) → (sensitive)\n");
    expect(text).toContain("    config.authorization_header: (sensitive) → (sensitive)\n");
    expect(text).toContain("    + config.token: (sensitive)\n");
    expect(text).toContain("    config.nested: {deep: [(sensitive)]} → null\n");
    expect(text).toContain("    • invited with (sensitive)\n    • (sensitive)\n");
  });

  it("print as (sensitive) in json, where secret references stay references", () => {
    const parsed = JSON.parse(renderPlan(plan, "json")) as { changes: Change[] };
    expect(parsed.changes[0]?.diff).toEqual([
      { path: "config.secret", before: "(sensitive)", after: "(sensitive)" },
      {
        path: "config.authorization_header",
        before: "(sensitive)",
        after: "(sensitive)",
        sensitive: true,
      },
      { path: "config.token", after: "(sensitive)", sensitive: true },
      { path: "config.nested", before: { deep: ["(sensitive)"] }, after: null },
    ]);
    expect(parsed.changes[0]?.requests[0]?.body).toEqual({
      config: { secret: "(sensitive)", insecure_ssl: "0" },
      headers: ["(sensitive)"],
    });
  });
});
