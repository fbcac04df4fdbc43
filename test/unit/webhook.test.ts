import { describe, expect, it } from "vitest";
import type { WebhookSettings } from "../../src/config/model.js";
import { Secret } from "../../src/core/secret.js";
import { diffValues } from "../../src/resources/diff.js";
import {
  type CanonicalHook,
  fromRead,
  SECRET_VERSION_KEY,
  targetOf,
  toBody,
  toSettings,
  verifyWritten,
} from "../../src/resources/webhook.js";
import { githubExample } from "../helpers/github-examples.js";

const origin = { file: "forgeplan.yaml", line: 1, column: 1 };
const url = "https://ci.acme.example/hooks/forge";

const liveHook: CanonicalHook = {
  url,
  content_type: "json",
  events: ["pull_request", "push"],
  active: true,
  branch_filter: "*",
  config: {},
  secret: "set",
  authorization_header: "unset",
};

function desired(settings: Partial<WebhookSettings>): WebhookSettings {
  return { url, origin, ...settings };
}

describe("webhook normalization", () => {
  it("plans GitHub's documented hook example, written back as desired state, as no change", () => {
    const live = fromRead(githubExample("hook") as never);
    expect(live.url).toBe("https://example.com/webhook");
    const settings = { ...toSettings(live), origin };
    expect(diffValues(live, targetOf(settings, live, false))).toEqual([]);
  });

  it("compares events as sets", () => {
    const target = targetOf(desired({ events: ["push", "pull_request", "push"] }), liveHook, false);
    expect(diffValues(liveHook, target)).toEqual([]);
  });

  it("never compares a masked secret, and says it could not be verified", () => {
    const secret = new Secret("s3cr3t-value", "CI_HOOK_SECRET");
    const target = targetOf(desired({ secret }), liveHook, false);
    expect(diffValues(liveHook, target)).toEqual([]);
  });

  it("sets a missing secret as a reference, never as the value", () => {
    const secret = new Secret("s3cr3t-value", "CI_HOOK_SECRET");
    const live = { ...liveHook, secret: "unset" as const };
    const settings = desired({ secret });
    const target = targetOf(settings, live, true);
    expect(diffValues(live, target)).toEqual([{ path: "secret", before: "unset", after: "set" }]);
    const body = toBody(target, live, settings, true);
    expect(body).toEqual({ config: { secret: { $secret: "CI_HOOK_SECRET" } } });
    expect(JSON.stringify(body)).not.toContain("s3cr3t-value");
  });

  it("rotates write-only values when secret_version changes, remembering it in the hook config", () => {
    const secret = new Secret("new", "CI_HOOK_SECRET");
    const authorization_header = new Secret("Bearer x", "CI_HOOK_AUTH");
    const live = { ...liveHook, authorization_header: "set" as const, secret_version: "1" };
    const settings = desired({ secret, authorization_header, secret_version: "2" });
    const target = targetOf(settings, live, true);
    expect(diffValues(live, target)).toEqual([{ path: "secret_version", before: "1", after: "2" }]);
    expect(toBody(target, live, settings, true)).toEqual({
      config: { secret: { $secret: "CI_HOOK_SECRET" }, [SECRET_VERSION_KEY]: "2" },
      authorization_header: { $secret: "CI_HOOK_AUTH" },
    });
  });

  it("sends only the fields that differ in a PATCH", () => {
    const settings = desired({ events: ["push", "pull_request", "release"], active: false });
    const target = targetOf(settings, liveHook, false);
    expect(toBody(target, liveHook, settings, false)).toEqual({
      events: ["pull_request", "push", "release"],
      active: false,
    });
  });

  it("builds a complete create body with the upstream defaults", () => {
    const settings = desired({ events: ["push"] });
    const target = targetOf(settings, null, false);
    expect(toBody(target, null, settings, false)).toEqual({
      config: { url, content_type: "json" },
      events: ["push"],
      active: true,
      branch_filter: "*",
    });
  });

  it("detects a value the service did not keep after a write", () => {
    const response = {
      id: 1,
      config: { url, content_type: "json" },
      events: ["push"],
      active: true,
    };
    expect(verifyWritten({ events: ["push", "release"], active: true }, response)).toEqual([
      { path: "events", before: ["push", "release"], after: ["push"] },
    ]);
    expect(verifyWritten({ config: { secret: { $secret: "X" } } }, response)).toEqual([
      { path: "secret", before: "set", after: "unset" },
    ]);
  });
});
