import { beforeEach, describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/cli.js";
import { recordedSandbox } from "../helpers/recorded-sandbox.js";
import { call, configFile } from "../helpers/sandbox.js";

/**
 * Labels against the demo world's acme/api: GitHub's default labels and needs-triage, which two
 * issues opened here carry (with bug and documentation).
 */

const live = recordedSandbox();
beforeEach(async () => {
  for (const [title, labels] of [
    ["Login fails behind the SSO proxy", ["bug", "needs-triage"]],
    ["Document the rate limits", ["documentation", "needs-triage"]],
  ] as const) {
    const opened = await call(live.world, "POST", "/repos/acme/api/issues", {
      body: { title, labels },
    });
    expect(opened.status).toBe(201);
  }
  live.forget();
});

function labelsConfig(body: string): string {
  return configFile(`version: 1\nrepositories:\n  - name: acme/api\n    labels:\n${body}`);
}

/** Each issue's title with the names of the labels it carries. */
async function issueLabels(): Promise<Record<string, string[]>> {
  const { body } = await call(live.world, "GET", "/repos/acme/api/issues?state=all");
  return Object.fromEntries(
    (body as Array<{ title: string; labels: Array<{ name: string }> }>).map((issue) => [
      issue.title,
      issue.labels.map((label) => label.name).sort(),
    ]),
  );
}

describe("a label found under a previous name", () => {
  it("is renamed in place, so every issue that carried it keeps it", async () => {
    const path = labelsConfig(
      "      items:\n        triage: { color: fbca04, previously: [needs-triage] }\n",
    );
    expect(await issueLabels()).toEqual({
      "Document the rate limits": ["documentation", "needs-triage"],
      "Login fails behind the SSO proxy": ["bug", "needs-triage"],
    });
    const { code, plan } = await live.planOf(path);
    expect(code).toBe(2);
    const [change] = plan.changes.filter((candidate) => candidate.kind === "label");
    expect(change).toMatchObject({
      address: "github/acme/api/label/triage",
      action: "update",
      diff: [{ path: "name", before: "needs-triage", after: "triage" }],
      requests: [
        {
          method: "PATCH",
          path: "/repos/acme/api/labels/needs-triage",
          body: { new_name: "triage" },
        },
      ],
    });
    await live.applied(path);
    expect(live.sent()).toEqual(["PATCH /repos/acme/api/labels/needs-triage"]);
    expect(await issueLabels()).toEqual({
      "Document the rate limits": ["documentation", "triage"],
      "Login fails behind the SSO proxy": ["bug", "triage"],
    });
    expect((await live.planOf(path)).code).toBe(0);
  });

  it("in another case only is renamed to the written case, kept on its issues", async () => {
    const path = labelsConfig("      items:\n        Bug: { previously: [bug] }\n");
    const { plan } = await live.planOf(path);
    expect(plan.changes.find((change) => change.kind === "label")).toMatchObject({
      action: "update",
      requests: [
        { method: "PATCH", path: "/repos/acme/api/labels/bug", body: { new_name: "Bug" } },
      ],
    });
    await live.applied(path);
    expect((await issueLabels())["Login fails behind the SSO proxy"]).toEqual([
      "Bug",
      "needs-triage",
    ]);
  });

  it("with a name that has spaces, emoji and a slash is addressed URL-encoded", async () => {
    const path = labelsConfig(
      '      items:\n        "area/ui 🎨 triage": { previously: [needs-triage] }\n',
    );
    await live.applied(path);
    expect(live.sent()).toEqual(["PATCH /repos/acme/api/labels/needs-triage"]);
    const renamed = encodeURIComponent("area/ui 🎨 triage");
    expect((await call(live.world, "GET", `/repos/acme/api/labels/${renamed}`)).body).toMatchObject(
      {
        name: "area/ui 🎨 triage",
        color: "fbca04",
      },
    );
    // A later change of it goes to its encoded name.
    await live.applied(
      labelsConfig('      items:\n        "area/ui 🎨 triage": { color: "#0E8A16" }\n'),
    );
    expect(live.writes.at(-1)).toMatchObject({
      method: "PATCH",
      path: `/repos/acme/api/labels/${renamed}`,
      body: { color: "0e8a16" },
    });
  });
});

describe("names and colours compare as GitHub keeps them", () => {
  it("Bug with #D73A4A against the live bug d73a4a plans as no change", async () => {
    const path = labelsConfig(
      '      mode: additive\n      items:\n        Bug: { color: "#D73A4A", description: "Something isn\'t working" }\n        DOCUMENTATION: {}\n',
    );
    const { code, plan } = await live.planOf(path);
    expect(code).toBe(0);
    expect(
      plan.changes.filter((change) => change.kind === "label").map((change) => change.action),
    ).toEqual(["no-op", "no-op"]);
  });

  it("a name written twice in different cases across layers is refused when loading", async () => {
    const path = configFile(
      "version: 1\ndefaults:\n  labels:\n    items:\n      bug: {}\nrepositories:\n  - name: acme/api\n    labels:\n      items:\n        Bug: { color: d73a4a }\n",
    );
    const result = await runInProcess(["validate", "-c", path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/label names are not case-sensitive: "bug" is the same label/);
  });
});

describe("authoritative labels", () => {
  it("delete the unlisted, each marked as a removal of the collection, and take them off issues", async () => {
    const path = labelsConfig(
      "      mode: authoritative\n      items:\n        bug: {}\n        documentation: {}\n",
    );
    const { plan } = await live.planOf(path);
    const deletes = plan.changes.filter((change) => change.action === "delete");
    expect(deletes.map((change) => change.name).sort()).toEqual([
      "duplicate",
      "enhancement",
      "good first issue",
      "help wanted",
      "invalid",
      "needs-triage",
      "question",
      "wontfix",
    ]);
    for (const change of deletes) {
      expect(change.removal).toEqual({ collection: "github/acme/api/label", live: 10 });
    }
    // Eight of ten is over the default removal limit of 25 %, which is the point of the limit.
    await live.applied(path, "--removal-limit", "80");
    expect(await issueLabels()).toEqual({
      "Document the rate limits": ["documentation"],
      "Login fails behind the SSO proxy": ["bug"],
    });
  });

  it("null deletes one label, and is not a removal of the collection", async () => {
    const path = labelsConfig("      items:\n        wontfix: null\n");
    const { plan } = await live.planOf(path);
    const [change] = plan.changes.filter((candidate) => candidate.kind === "label");
    expect(change).toMatchObject({ action: "delete", name: "wontfix" });
    expect(change!.removal).toBeUndefined();
  });
});
