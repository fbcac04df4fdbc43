import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import { ForgeClient } from "../../src/forge/client.js";
import { fromBody, verifyWritten } from "../../src/resources/branch-protection/canonical.js";
import { branchProtection } from "../../src/resources/branch-protection/index.js";
import { fromRead } from "../../src/resources/classic-protection.js";
import { ResourceReader } from "../../src/resources/context.js";
import { answer, hostile, json } from "../hostile/server.js";

/**
 * GitHub's own recorded branch-protection exchange (@octokit/fixtures, scenario
 * "branch-protection": 404 "Branch not protected", PUT, PUT, DELETE), replayed through forgeplan's
 * reader and normalizer: with the desired state equal to what each PUT wrote, the plan is no change.
 */
interface Recorded {
  method: string;
  path: string;
  status: number;
  body: unknown;
  response: unknown;
}

const require = createRequire(import.meta.url);
const exchange = JSON.parse(
  readFileSync(
    require.resolve("@octokit/fixtures/scenarios/api.github.com/branch-protection/normalized-fixture.json"),
    "utf8",
  ),
) as Recorded[];

const [notProtected, firstPut, secondPut, deletion] = exchange;
const repo = { owner: "octokit-fixture-org", name: "branch-protection" };

/** Plans `main` against a service that answers the protection read as GitHub recorded it. */
async function planAgainst(read: Recorded, desired: unknown) {
  const service = await hostile((_req, res) => {
    if (_req.url === "/rate_limit") return answer(res, 404, json, { message: "Not Found" });
    answer(res, read.status, json, read.response);
  });
  const client = new ForgeClient({
    baseUrl: service.url,
    kind: "repository",
    token: new Secret("recorded", "TOKEN"),
  });
  const [change] = await branchProtection.repository!.plan({
    reader: new ResourceReader("github", client),
    at: repo,
    value: { main: desired },
    options: { now: 0, rotateSecrets: false },
  });
  return { change: change!, seen: service.seen };
}

describe("GitHub's recorded branch-protection exchange", () => {
  it("records the four steps this test replays", () => {
    expect(exchange.map(({ method, status }) => `${method} ${status}`)).toEqual([
      "get 404",
      "put 200",
      "put 200",
      "delete 204",
    ]);
  });

  it("takes 'Branch not protected' as an unprotected branch, and plans the first PUT as written", async () => {
    const unprotected = await planAgainst(notProtected!, null);
    expect(unprotected.change.action).toBe("no-op");
    expect(unprotected.change.error).toBeUndefined();

    const created = await planAgainst(notProtected!, firstPut!.body);
    expect(created.change.action).toBe("create");
    expect(fromBody(created.change.requests[0]!.body)).toEqual(fromBody(firstPut!.body));
  });

  it.each([
    ["the first PUT", firstPut!],
    ["the second PUT", secondPut!],
  ])("plans no change once %s is what the service holds", async (_name, put) => {
    const { change } = await planAgainst({ ...put, method: "get" }, put.body);
    expect(change.error).toBeUndefined();
    expect(change.diff).toEqual([]);
    expect(change.action).toBe("no-op");
  });

  it("verifies each recorded PUT against GitHub's answer to it", () => {
    // The second PUT left required_approving_review_count out; GitHub answered 1, forgeplan's default.
    expect(fromRead(secondPut!.response).required_pull_request_reviews).toMatchObject({
      required_approving_review_count: 1,
    });
    for (const put of [firstPut!, secondPut!]) {
      const request = { method: "PUT" as const, path: put.path, body: put.body };
      expect(verifyWritten(request, put.response)).toEqual([]);
    }
    expect(deletion!.status).toBe(204);
  });
});
