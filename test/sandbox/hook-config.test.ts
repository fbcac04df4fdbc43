import { describe, expect, it } from "vitest";
import { configShape, mergeConfig, SECRET_MASK } from "../../src/sandbox/github/webhooks/config.js";

const stored = { url: "https://h.example/x", content_type: "json", secret: "real" };

describe("mergeConfig", () => {
  it("stores a secret sent as the mask as that literal string (PyGithub/PyGithub#2906)", () => {
    // Reads cannot tell the two apart; a delivery would be signed with "********".
    const echoed = mergeConfig(stored, { ...configShape(stored) }, false);
    expect(echoed.secret).toBe(SECRET_MASK);
    expect(configShape(echoed)).toEqual(configShape(stored));
  });

  it("removes the secret unless kept or sent, keeps it for …/config, and drops unknown keys", () => {
    expect(mergeConfig(stored, { content_type: "form" }, false)).toEqual({
      url: "https://h.example/x",
      content_type: "form",
    });
    expect(mergeConfig(stored, { content_type: "form", extra: "x" }, true)).toEqual({
      ...stored,
      content_type: "form",
    });
    expect(mergeConfig(stored, { secret: "", insecure_ssl: 1 }, true)).toEqual({
      url: "https://h.example/x",
      content_type: "json",
      insecure_ssl: "1",
    });
  });
});
