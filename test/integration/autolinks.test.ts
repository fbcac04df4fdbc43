import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/cli.js";
import { failingProxy } from "../helpers/failing-proxy.js";
import { recordedSandbox } from "../helpers/recorded-sandbox.js";
import { call, configFile } from "../helpers/sandbox.js";

/** Autolinks against the demo world's acme/api: JIRA- (id 1), numeric references only. */

const live = recordedSandbox();

const JIRA = "https://jira.acme.example/browse/JIRA-<num>";
const MOVED = "https://acme.atlassian.example/browse/JIRA-<num>";

function autolinksConfig(body: string): string {
  return configFile(`version: 1\nrepositories:\n  - name: acme/api\n    autolinks:\n${body}`);
}

const moved = () =>
  autolinksConfig(
    `      items:\n        JIRA-: { url_template: "${MOVED}", is_alphanumeric: false }\n`,
  );

async function liveAutolinks(): Promise<Array<Record<string, unknown>>> {
  return (await call(live.world, "GET", "/repos/acme/api/autolinks")).body as Array<
    Record<string, unknown>
  >;
}

describe("a changed autolink", () => {
  it("plans as one replacement, a DELETE then a POST, and converges", async () => {
    const path = moved();
    const { code, plan } = await live.planOf(path);
    expect(code).toBe(2);
    expect(plan.summary).toMatchObject({ create: 0, update: 1, delete: 0 });
    const [change] = plan.changes;
    expect(change).toMatchObject({
      address: "github/acme/api/autolink/JIRA-",
      action: "update",
      diff: [{ path: "url_template", before: JIRA, after: MOVED }],
      requests: [
        { method: "DELETE", path: "/repos/acme/api/autolinks/1" },
        {
          method: "POST",
          path: "/repos/acme/api/autolinks",
          body: { key_prefix: "JIRA-", url_template: MOVED, is_alphanumeric: false },
        },
      ],
    });
    expect(change!.notes?.[0]).toMatch(/^replaced: GitHub has no update for an autolink/);
    const applied = await runInProcess([
      "apply",
      "-c",
      path,
      "--sandbox-url",
      live.world.url,
      "--auto-approve",
    ]);
    expect([applied.code, applied.stderr]).toEqual([0, ""]);
    expect(applied.stdout).toContain("Apply: 1 applied, 0 failed, 0 held, 0 skipped.");
    expect(applied.stdout).toContain("Verified: re-plan shows no changes.");
    expect(await liveAutolinks()).toMatchObject([
      { key_prefix: "JIRA-", url_template: MOVED, is_alphanumeric: false },
    ]);
    expect((await live.planOf(path)).code).toBe(0);
  });

  it("whose POST is refused after its DELETE is reported exactly, and the next plan creates it", async () => {
    const proxy = await failingProxy(live.world.url, (method, at) =>
      method === "POST" && at === "/repos/acme/api/autolinks"
        ? {
            status: 422,
            body: {
              message: "Validation Failed",
              errors: [{ resource: "KeyLink", code: "custom", field: "url_template" }],
              documentation_url: "https://docs.github.com/rest",
            },
          }
        : undefined,
    );
    try {
      const path = moved();
      const applied = await runInProcess([
        "apply",
        "-c",
        path,
        "--sandbox-url",
        proxy.url,
        "--auto-approve",
        "--format",
        "json",
      ]);
      expect(applied.code).toBe(1);
      const { outcomes } = JSON.parse(applied.stdout) as {
        outcomes: Array<Record<string, unknown>>;
      };
      expect(outcomes).toHaveLength(1);
      expect(outcomes[0]).toMatchObject({
        address: "github/acme/api/autolink/JIRA-",
        outcome: "failed",
        request: "POST /repos/acme/api/autolinks",
        status: 422,
      });
      expect(outcomes[0]!.message).toMatch(
        /\(after DELETE \/repos\/acme\/api\/autolinks\/1, which was applied\)$/,
      );
      expect(await liveAutolinks()).toEqual([]);
      const { plan } = await live.planOf(path);
      expect(plan.changes.map((change) => [change.name, change.action])).toEqual([
        ["JIRA-", "create"],
      ]);
    } finally {
      await proxy.stop();
    }
  });
});

describe("autolinks", () => {
  it("as they are plan as no change; a url_template without <num> is refused when loading", async () => {
    expect(
      (
        await live.planOf(
          autolinksConfig(
            `      items:\n        JIRA-: { url_template: "${JIRA}", is_alphanumeric: false }\n`,
          ),
        )
      ).code,
    ).toBe(0);
    const result = await runInProcess([
      "validate",
      "-c",
      autolinksConfig('      items:\n        ZD-: { url_template: "https://zd.example/ticket" }\n'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("url_template must contain <num>");
  });

  it("in authoritative mode delete the unlisted, each marked as a removal", async () => {
    const path = autolinksConfig(
      '      mode: authoritative\n      items:\n        ZD-: { url_template: "https://zd.example/<num>" }\n',
    );
    const { plan } = await live.planOf(path);
    expect(plan.changes.map((change) => [change.name, change.action, change.removal])).toEqual([
      ["ZD-", "create", undefined],
      ["JIRA-", "delete", { collection: "github/acme/api/autolink", live: 1 }],
    ]);
  });
});
