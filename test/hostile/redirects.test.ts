import { describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import { ForgeError } from "../../src/forge/client.js";
import { answer, clientOf, failure, hostile, json } from "./server.js";

const HOOK = "/repos/acme/api/hooks/1";
const SECRET = "whsec_never_elsewhere";

describe("redirects", () => {
  it("refuses a write's redirect to another origin, sending the body nowhere else", async () => {
    const elsewhere = await hostile((_req, res) => answer(res, 200, json, {}));
    const service = await hostile((_req, res) =>
      answer(res, 307, { location: `${elsewhere.url}${HOOK}` }),
    );
    const { client } = clientOf(service.url);
    for (const method of ["PATCH", "PUT", "POST", "DELETE"] as const) {
      const error = await failure(
        client.request(method, HOOK, {
          body: { config: { url: "https://hooks.example/x", secret: new Secret(SECRET, "ENV") } },
        }),
      );
      expect(error).toBeInstanceOf(ForgeError);
      expect(error.message).toBe(
        `${method} ${HOOK} → 307 redirect from ${service.url} to ${elsewhere.url} not followed: a write is followed only on its own origin, so its body never goes to another host`,
      );
      expect((error as ForgeError).mayHaveBeenApplied).toBe(false);
    }
    expect(elsewhere.seen).toEqual([]);
    // Refused once each: a redirect would be refused again, so it is not retried.
    expect(service.seen).toHaveLength(4);
  });

  it("follows a write's redirect on its own origin, as for a renamed repository", async () => {
    const service = await hostile((req, res, body) =>
      req.url === "/repos/acme/old-name/hooks/1"
        ? answer(res, 307, { location: "/repositories/42/hooks/1" })
        : answer(res, 200, json, { url: req.url, body: JSON.parse(body) as unknown }),
    );
    const { client } = clientOf(service.url);
    const response = await client.request("PATCH", "/repos/acme/old-name/hooks/1", {
      body: { active: false },
    });
    expect(response.data).toEqual({ url: "/repositories/42/hooks/1", body: { active: false } });
    expect(service.seen[1]?.authorization).toBe("Bearer ghp_hostiletesttoken");
  });

  it("follows a read's redirect to another origin without the token", async () => {
    const elsewhere = await hostile((_req, res) => answer(res, 200, json, { moved: true }));
    const service = await hostile((_req, res) =>
      answer(res, 302, { location: `${elsewhere.url}/x` }),
    );
    const { client } = clientOf(service.url);
    expect(await client.get("/repos/acme/api")).toEqual({ moved: true });
    expect(elsewhere.seen).toEqual([
      { method: "GET", url: "/x", authorization: undefined, body: "" },
    ]);
  });

  it("ends a redirect loop with a clear error, without retrying it", async () => {
    const service = await hostile((_req, res) => answer(res, 302, { location: "/again" }));
    const { client } = clientOf(service.url);
    expect((await failure(client.get("/repos/acme/api"))).message).toBe(
      "GET /repos/acme/api → 302 more than 20 redirects in a row",
    );
    expect(service.seen).toHaveLength(21);
  });
});
