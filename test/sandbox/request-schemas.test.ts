import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { checkedOperations } from "../../src/sandbox/index.js";
import { emptyStats } from "../../src/sandbox/core/stats.js";
import { githubRoutes } from "../../src/sandbox/github/index.js";
import { repoRoot } from "../helpers/cli.js";
import { github } from "./openapi-check.js";

const run = promisify(execFile);
const committed = readFileSync(join(repoRoot, "src/sandbox/github/request-schemas.json"), "utf8");

type Operation = { requestBody?: unknown };
const githubOperation = (key: string): Operation | undefined => {
  const [method = "", path = ""] = key.split(" ");
  return (github.paths[path] as Record<string, Operation> | undefined)?.[method.toLowerCase()];
};

describe("src/sandbox/github/request-schemas.json", () => {
  it("is what scripts/generate-request-schemas.js makes of the installed @octokit/openapi", async () => {
    const { stdout } = await run(
      process.execPath,
      ["scripts/generate-request-schemas.js", "--stdout"],
      { cwd: repoRoot, encoding: "utf8", maxBuffer: 1 << 24 },
    );
    // Regenerate with: node scripts/generate-request-schemas.js
    expect(committed, "src/sandbox/github/request-schemas.json is stale").toBe(stdout);
  });

  it("holds the request schema of every write the sandbox serves on GitHub's paths", () => {
    // POST /graphql carries queries, reads metered as GraphQL; GitHub's REST description has no
    // operation for it.
    const writes = githubRoutes({ tokenTtlSeconds: 3600, stats: emptyStats() }).filter(
      (route) => route.method !== "GET" && route.metered === undefined,
    );
    expect(writes.length).toBeGreaterThanOrEqual(22);
    for (const route of writes) {
      expect(route.operation, `${route.method} ${route.pattern} names no operation`).toBeDefined();
      const operation = route.operation ?? "";
      expect(operation.startsWith(`${route.method} /`), operation).toBe(true);
      expect(githubOperation(operation), `${operation} is not GitHub's`).toBeDefined();
    }
    const withBodies = writes
      .map((route) => route.operation ?? "")
      .filter((operation) => githubOperation(operation)?.requestBody !== undefined);
    expect(checkedOperations().sort()).toEqual(withBodies.sort());
  });
});
