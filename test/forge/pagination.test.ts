import { afterEach, describe, expect, it } from "vitest";
import { Secret } from "../../src/core/secret.js";
import { ForgeClient, ForgeError } from "../../src/forge/client.js";
import { FakeClock } from "./fake-clock.js";
import { FakeService } from "./fake-service.js";
import { pagedList } from "./list-service.js";
import { answer, clientOf, hostile, json } from "../hostile/server.js";

const items = Array.from({ length: 250 }, (_, i) => ({ id: i + 1 }));
let service: FakeService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe("paginate", () => {
  it("reads every page, 100 at a time, following absolute Link rel=next", async () => {
    const clock = new FakeClock();
    service = await FakeService.start(pagedList(items), clock);
    const client = new ForgeClient({
      baseUrl: service.url,
      kind: "repository",
      token: new Secret("t", "T"),
      clock,
    });
    const all = await client.paginate<{ id: number }>("/repos/acme/api/invitations", {
      state: "open",
    });
    expect(all).toEqual(items);
    const paths = service.received.map((r) => r.path);
    // Pages 2 and 3 are asked for at once, so either may reach the service first.
    expect([paths[0], ...paths.slice(1).sort()]).toEqual([
      "/repos/acme/api/invitations?state=open&per_page=100",
      "/repos/acme/api/invitations?state=open&per_page=100&page=2",
      "/repos/acme/api/invitations?state=open&per_page=100&page=3",
    ]);
  });

  it("keeps a smaller per_page the caller asks for", async () => {
    const clock = new FakeClock();
    service = await FakeService.start(pagedList(items.slice(0, 7)), clock);
    const client = new ForgeClient({ baseUrl: service.url, kind: "repository", clock });
    expect(await client.paginate("/gists", { per_page: 3 })).toHaveLength(7);
    expect(service.received).toHaveLength(3);
  });

  it("works under a base URL with a path prefix", async () => {
    const clock = new FakeClock();
    service = await FakeService.start(pagedList(items), clock);
    const client = new ForgeClient({
      baseUrl: `${service.url}/api/v3/`,
      kind: "repository",
      clock,
    });
    expect(await client.paginate("/orgs/acme/repos")).toHaveLength(250);
    expect(service.received[2]?.path).toBe("/api/v3/orgs/acme/repos?per_page=100&page=3");
  });

  it("refuses to follow a next link to another origin", async () => {
    const clock = new FakeClock();
    service = await FakeService.start(
      pagedList(items, () => "http://evil.example:8080"),
      clock,
    );
    const client = new ForgeClient({
      baseUrl: service.url,
      kind: "repository",
      token: new Secret("t", "T"),
      clock,
    });
    const error = await client.paginate("/gists").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForgeError);
    expect((error as ForgeError).message).toBe(
      "GET /gists?per_page=100 → refused to follow a next-page link to another origin (http://evil.example:8080)",
    );
    expect(service.received).toHaveLength(1);
  });

  it("refuses a page that is not a list", async () => {
    const clock = new FakeClock();
    service = await FakeService.start(() => ({ body: { message: "hi" } }), clock);
    const client = new ForgeClient({ baseUrl: service.url, kind: "repository", clock });
    await expect(client.paginate("/gists")).rejects.toThrow(
      "GET /gists?per_page=100 → 200 expected a list in the response",
    );
  });

  it("reads the pages between the first and the named last at once, keeping their order", async () => {
    // Pages 2-5 are held until all four have been asked for (or a second has passed, so a reader
    // that waits for each page ends too), then answered with page 2 last.
    const held = new Map<number, () => void>();
    let most = 0;
    const answerHeld = () => {
      for (const page of [3, 4, 5, 2]) held.get(page)?.();
      held.clear();
    };
    const server = await hostile((req, res) => {
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      const page = Number(url.searchParams.get("page") ?? 1);
      const at = (n: number) => {
        url.searchParams.set("page", String(n));
        return `<${url.href}>`;
      };
      const link = page < 5 ? `${at(page + 1)}; rel="next", ${at(5)}; rel="last"` : "";
      const send = () => answer(res, 200, { ...json, ...(link ? { link } : {}) }, [{ id: page }]);
      if (page === 1) return send();
      held.set(page, send);
      most = Math.max(most, held.size);
      if (held.size === 4) answerHeld();
      else setTimeout(answerHeld, 1000);
    });
    const { client } = clientOf(server.url);
    const all = await client.paginate<{ id: number }>("/orgs/acme/repos", { per_page: 1 });
    expect(all.map((item) => item.id)).toEqual([1, 2, 3, 4, 5]);
    expect(server.seen).toHaveLength(5);
    expect(most).toBe(4);
  });

  it("reads a listing whose next link is not its numbered page 2 one page at a time", async () => {
    let inFlight = 0;
    let most = 0;
    const server = await hostile((req, res) => {
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      const after = Number(url.searchParams.get("after") ?? 0);
      const next = new URL(url.href);
      next.searchParams.set("after", String(after + 1));
      const last = new URL(url.href);
      last.searchParams.set("page", "3");
      const link = after < 2 ? `<${next.href}>; rel="next", <${last.href}>; rel="last"` : "";
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        answer(res, 200, { ...json, ...(link ? { link } : {}) }, [{ id: after }]);
      }, 5);
    });
    const { client } = clientOf(server.url);
    const all = await client.paginate<{ id: number }>("/orgs/acme/repos", { per_page: 1 });
    expect(all.map((item) => item.id)).toEqual([0, 1, 2]);
    expect(most).toBe(1);
  });
});
