import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";

/**
 * `npm ci` warns EBADENGINE for every installed package whose `engines.node` refuses the running
 * Node. The lockfile records each package's range; these tests read them so a dependency update
 * that leaves Node 20 behind fails here instead of warning in every install.
 */

interface Locked {
  dev?: boolean;
  engines?: { node?: string };
}

const lock = JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8")) as {
  packages: Record<string, Locked>;
};
const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  engines: { node: string };
};

type Version = [number, number, number];

function version(text: string): Version {
  const parts = text.replace(/^v/, "").split(".").map(Number);
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * Whether a range admits a version, for the forms the lockfile holds: `*`, `>=X`, `^X`, a bare
 * `X[.Y[.Z]]`, and alternatives joined by `||`. Any other form fails the test, to be added here.
 */
function admits(range: string, at: Version): boolean {
  return range.split("||").some((alternative) => {
    const text = alternative.trim().replace(/^(>=|\^)\s+/, "$1");
    if (text === "*") return true;
    const match = /^(>=|\^)?(\d+(?:\.\d+){0,2})$/.exec(text);
    if (match === null) throw new Error(`unsupported engines range '${range}'`);
    const [, operator, bound = ""] = match;
    const low = version(bound);
    if (operator === ">=") return compare(at, low) >= 0;
    if (operator === "^") return at[0] === low[0] && compare(at, low) >= 0;
    const given = bound.split(".").length;
    return low.slice(0, given).every((part, index) => part === at[index]);
  });
}

const lowest = version(/^>=\s*(\d+(?:\.\d+)*)$/.exec(manifest.engines.node)?.[1] ?? "");

function refusing(at: Version, include: (entry: Locked) => boolean): string[] {
  return Object.entries(lock.packages)
    .filter(([name, entry]) => name !== "" && include(entry) && entry.engines?.node !== undefined)
    .filter(([, entry]) => !admits(entry.engines!.node!, at))
    .map(([name, entry]) => `${name.replace(/^.*node_modules\//, "")} (${entry.engines!.node})`);
}

describe("engines", () => {
  it("every package a user installs runs on the oldest Node package.json promises", () => {
    expect(manifest.engines.node).toBe(">=20");
    expect(refusing(lowest, (entry) => entry.dev !== true)).toEqual([]);
  });

  it("every package, development ones included, admits the Node running the tests (a clean npm ci)", () => {
    expect(refusing(version(process.version), () => true)).toEqual([]);
  });
});
