import { describe, expect, it } from "vitest";
import { loaderAccepted } from "../../src/engine/export-accepted.js";

/**
 * The loader lists at most 100 problems in full and counts the rest in one more line with no key
 * path (issue #35, item 11). An export leaves out what the loader refuses: that line is no value to
 * leave out, and the problems past it are found by the next pass.
 */
describe("an export the loader refuses in more than 100 places", () => {
  it("leaves out every refused value, with a comment each, and refuses nothing", () => {
    const repositories = Array.from({ length: 150 }, (_, i) => ({
      name: `acme/r${String(i).padStart(3, "0")}`,
      settings: { description: "kept", has_wiki: "maybe" },
    }));
    const accepted = loaderAccepted({ version: 1, repositories });
    expect(accepted.refused).toBeUndefined();
    expect(accepted.comments).toHaveLength(150);
    expect(accepted.comments[0]!.text).toMatch(/^acme\/r000: settings\.has_wiki is live "maybe"/);
    const written = accepted.document.repositories as typeof repositories;
    expect(written.every((entry) => !("has_wiki" in entry.settings))).toBe(true);
    expect(written.every((entry) => entry.settings.description === "kept")).toBe(true);
  });
});
