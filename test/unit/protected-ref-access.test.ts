import { describe, expect, it } from "vitest";
import {
  BRANCH_LEVELS,
  levelName,
  patchItems,
  premiumShown,
  type ResolvedLive,
  unkept,
  writtenEntry,
  writtenKey,
} from "../../src/resources/protected-ref-access.js";

/** The pure part of GitLab's protection entries: what one PATCH sends, and how answers read. */

const role = (id: number, level: number): ResolvedLive => ({
  id,
  shown: levelName(BRANCH_LEVELS, level),
  item: { access_level: level },
});
const user = (id: number, userId: number, name: string): ResolvedLive => ({
  id,
  shown: `user:${name}`,
  item: { user_id: userId },
});

describe("patchItems", () => {
  it("destroys exactly the one entry that goes: [No one, Maintainers] → [maintainer]", () => {
    expect(patchItems([role(7, 0), role(8, 40)], [role(0, 40)])).toEqual([
      { id: 7, _destroy: true },
    ]);
  });

  it("sends nothing for entries that stay, and adds new ones without an id", () => {
    expect(
      patchItems([role(1, 40), user(2, 3, "octo-dev")], [role(0, 40), user(0, 6, "mona")]),
    ).toEqual([{ id: 2, _destroy: true }, { user_id: 6 }]);
  });

  it("destroys a second live entry of the same name, so duplicates never stay", () => {
    expect(patchItems([role(1, 30), role(2, 30)], [role(0, 30)])).toEqual([
      { id: 2, _destroy: true },
    ]);
  });

  it("is empty when the lists agree, whatever their order", () => {
    expect(patchItems([role(1, 30), role(2, 40)], [role(0, 40), role(0, 30)])).toEqual([]);
  });
});

describe("reading GitLab's answers", () => {
  it("takes the tier from the entries: Premium shows user_id and group_id on every one", () => {
    expect(premiumShown([])).toBeUndefined();
    expect(premiumShown([{ id: 1, access_level: 40 }])).toBe(false);
    expect(premiumShown([{ id: 1, access_level: 40, user_id: null, group_id: null }])).toBe(true);
    // A Free project holding a user entry a higher tier made is still Free.
    expect(
      premiumShown([
        { id: 1, access_level: 40 },
        { id: 2, access_level: null, user_id: 3, group_id: null },
      ]),
    ).toBe(false);
  });

  it("names what a write's answer did not keep", () => {
    const entries = [
      { id: 1, access_level: 40, user_id: null, group_id: null },
      { id: 2, access_level: null, user_id: 3, group_id: null },
    ];
    expect(
      unkept(
        [{ access_level: 40 }, { user_id: 3 }, { user_id: 6 }, { id: 2, _destroy: true }],
        entries,
      ),
    ).toEqual([{ user_id: 6 }, { id: 2, _destroy: true }]);
  });

  it("writes entries back as the configuration does, and compares roles by name or number alike", () => {
    expect(writtenEntry("maintainer")).toBe("maintainer");
    expect(writtenEntry("user:octo-dev")).toEqual({ user: "octo-dev" });
    expect(writtenEntry("group:acme/platform")).toEqual({ group: "acme/platform" });
    expect(writtenEntry("deploy_key:1")).toEqual({ deploy_key: 1 });
    expect(writtenKey(BRANCH_LEVELS, 40)).toBe(writtenKey(BRANCH_LEVELS, "maintainer"));
    expect(writtenKey(BRANCH_LEVELS, { user: "Octo-Dev" })).toBe("user:octo-dev");
  });
});
