import { describe, expect, it } from "vitest";
import type { WebhookSettings } from "../../src/resources/webhook/settings.js";
import { Secret } from "../../src/core/secret.js";
import { diffValues } from "../../src/resources/diff.js";
import { fromRead, repositorySite, verifyWritten } from "../../src/resources/webhook/canonical.js";
import { toSettings } from "../../src/resources/webhook/export.js";
import { planHook, targetOf } from "../../src/resources/webhook/plan.js";
import { githubExample } from "../helpers/github-examples.js";

const url = "https://ci.acme.example/hooks/forge";
const site = repositorySite({ owner: "acme", name: "api" });
const path = site.path;
const asIs = {};
const rotateAll = { rotateSecrets: true };

/** A hook as the service lists it: a secret set (masked), no authorization header. */
const listed = {
  id: 1,
  url,
  content_type: "json",
  events: ["push", "pull_request"],
  active: true,
  branch_filter: "*",
  config: { url, content_type: "json", insecure_ssl: "0", secret: "********" },
};

function desired(settings: Partial<WebhookSettings>): WebhookSettings {
  return { url, ...settings };
}

const secret = new Secret("s3cr3t-value", "CI_HOOK_SECRET");
const authorization = new Secret("Bearer x", "CI_HOOK_AUTH");

describe("webhook normalization", () => {
  it("plans GitHub's documented hook example, written back as desired state, as no change", () => {
    const live = fromRead(githubExample("hook") as never);
    expect(live.url).toBe("https://example.com/webhook");
    const settings = toSettings(live);
    expect(diffValues(live, targetOf(settings, live, []))).toEqual([]);
  });

  it("compares events as sets", () => {
    const planned = planHook(
      desired({ events: ["push", "pull_request", "push"] }),
      listed,
      site,
      asIs,
    );
    expect(planned.action).toBe("no-op");
  });

  it("never compares a masked secret, and says it could not be verified", () => {
    const planned = planHook(desired({ secret }), listed, site, asIs);
    expect(planned.action).toBe("no-op");
    expect(planned.requests).toEqual([]);
    expect(planned.notes).toEqual([
      "secret is write-only and could not be verified; apply with --rotate-secrets to send the current value again",
    ]);
  });

  it("sets a missing secret through the config endpoint, as a reference, never as the value", () => {
    const unset = { ...listed, config: { url, content_type: "json", insecure_ssl: "0" } };
    const planned = planHook(desired({ secret }), unset, site, asIs);
    expect(planned.diff).toEqual([
      { path: "secret", before: "unset", after: "set", sensitive: true },
    ]);
    expect(planned.requests).toEqual([
      {
        method: "PATCH",
        path: `${path}/1/config`,
        body: { secret: { $secret: "CI_HOOK_SECRET" } },
      },
    ]);
    expect(JSON.stringify(planned.requests)).not.toContain("s3cr3t-value");
  });

  it("changes a config key with the config endpoint only, carrying the managed secret", () => {
    const planned = planHook(desired({ content_type: "form", secret }), listed, site, asIs);
    expect(planned.requests).toEqual([
      {
        method: "PATCH",
        path: `${path}/1/config`,
        body: { content_type: "form", secret: { $secret: "CI_HOOK_SECRET" } },
      },
    ]);
    expect(planned.diff.map((entry) => entry.path)).toEqual(["content_type"]);
    expect(planned.notes).toEqual([
      "secret sent again with the config edit, so the hook keeps the one configured",
    ]);
    const unmanaged = planHook(desired({ content_type: "form" }), listed, site, asIs);
    expect(unmanaged.requests).toEqual([
      { method: "PATCH", path: `${path}/1/config`, body: { content_type: "form" } },
    ]);
  });

  it("rotates only the secrets named, by the variable they are read from", () => {
    const live = { ...listed, authorization_header: "********" };
    const settings = desired({ secret, authorization_header: authorization });
    const planned = planHook(settings, live, site, { rotateSecretNames: ["ci_hook_auth"] });
    expect(planned.diff).toEqual([
      { path: "authorization_header", before: "set", after: "rotated", sensitive: true },
    ]);
    expect(planned.requests).toEqual([
      {
        method: "PATCH",
        path: `${path}/1`,
        body: { authorization_header: { $secret: "CI_HOOK_AUTH" } },
      },
    ]);
  });

  it("changes events and active with a hook PATCH that carries no config", () => {
    const settings = desired({ events: ["push", "pull_request", "release"], active: false });
    expect(planHook(settings, listed, site, asIs).requests).toEqual([
      {
        method: "PATCH",
        path: `${path}/1`,
        body: { events: ["pull_request", "push", "release"], active: false },
      },
    ]);
  });

  it("rotates write-only values only when asked, as one visible write each", () => {
    const live = { ...listed, authorization_header: "********" };
    const settings = desired({ secret, authorization_header: authorization });
    expect(planHook(settings, live, site, asIs).action).toBe("no-op");
    const planned = planHook(settings, live, site, rotateAll);
    expect(planned.action).toBe("update");
    expect(planned.diff).toEqual([
      { path: "secret", before: "set", after: "rotated", sensitive: true },
      { path: "authorization_header", before: "set", after: "rotated", sensitive: true },
    ]);
    expect(planned.requests).toEqual([
      {
        method: "PATCH",
        path: `${path}/1/config`,
        body: { secret: { $secret: "CI_HOOK_SECRET" } },
      },
      {
        method: "PATCH",
        path: `${path}/1`,
        body: { authorization_header: { $secret: "CI_HOOK_AUTH" } },
      },
    ]);
  });

  it("creates with GitHub's closed POST body and sets the spec's fields on the hook it created", () => {
    const plain = planHook(desired({ events: ["push"] }), undefined, site, asIs);
    expect(plain.requests).toEqual([
      {
        method: "POST",
        path,
        body: { config: { url, content_type: "json" }, events: ["push"], active: true },
      },
    ]);
    // Nothing secret is configured, so nothing secret is shown.
    expect(plain.diff.map((entry) => entry.path)).not.toContain("authorization_header");
    expect(plain.diff.map((entry) => entry.path)).not.toContain("secret");
    const filtered = planHook(
      desired({ branch_filter: "main", secret, authorization_header: authorization }),
      undefined,
      site,
      asIs,
    );
    expect(filtered.requests).toEqual([
      {
        method: "POST",
        path,
        body: {
          config: { url, content_type: "json", secret: { $secret: "CI_HOOK_SECRET" } },
          events: ["push"],
          active: true,
        },
      },
      {
        method: "PATCH",
        path: `${path}/{created.id}`,
        body: { branch_filter: "main", authorization_header: { $secret: "CI_HOOK_AUTH" } },
      },
    ]);
  });

  it("detects a value the service did not keep after a write", () => {
    const response = {
      id: 1,
      config: { url, content_type: "json" },
      events: ["push"],
      active: true,
    };
    const patch = { method: "PATCH" as const, path: `${path}/1` };
    expect(verifyWritten({ ...patch, body: { events: ["push", "release"] } }, response)).toEqual([
      { path: "events", before: ["push", "release"], after: ["push"] },
    ]);
    const config = { method: "PATCH" as const, path: `${path}/1/config` };
    expect(
      verifyWritten({ ...config, body: { secret: { $secret: "X" } } }, response.config),
    ).toEqual([{ path: "secret", before: "set", after: "unset" }]);
    expect(verifyWritten({ ...config, body: { content_type: "form" } }, "<html>")).toEqual([
      { path: "(response)", before: "a webhook", after: "something else" },
    ]);
  });
});
