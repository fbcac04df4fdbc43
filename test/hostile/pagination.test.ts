import { describe, expect, it } from "vitest";
import { ForgeError } from "../../src/forge/client.js";
import { answer, clientOf, failure, hostile, json } from "./server.js";

const HOOKS = "/repos/acme/api/hooks";

/** Pages of one item each, every one with a next link to the page after it — forever. */
function endless(last?: number) {
  return hostile((req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    const page = Number(url.searchParams.get("page") ?? 1);
    const link = (n: number, rel: string) => {
      url.searchParams.set("page", String(n));
      return `<${url.href}>; rel="${rel}"`;
    };
    const links = [link(page + 1, "next"), ...(last === undefined ? [] : [link(last, "last")])];
    answer(res, 200, { ...json, link: links.join(", ") }, [{ id: page }]);
  });
}

describe("a listing that does not end", () => {
  it("stops at the page cap when no last page is named and every page is full", async () => {
    const service = await endless();
    const { client } = clientOf(service.url, { maxPages: 20 });
    const error = await failure(client.paginate(HOOKS, { per_page: 1 }));
    expect(error).toBeInstanceOf(ForgeError);
    expect(error.message).toBe(
      `GET ${HOOKS}?per_page=1&page=21 → the listing goes on past 20 pages, the most forgeplan reads of one listing (--max-pages raises it)`,
    );
    expect(service.seen).toHaveLength(20);
  });

  it("stops at the first page shorter than asked for that still links onward, naming the listing", async () => {
    const service = await endless();
    const { client } = clientOf(service.url);
    const error = await failure(client.paginate(HOOKS));
    expect(error.message).toBe(
      `GET ${HOOKS}?per_page=100 → page 1 of the listing holds 1 item of the 100 asked for, yet links to a next page: a short page is the last, so the listing would not end`,
    );
    expect(service.seen).toHaveLength(1);
  });

  it("stops one page past the last page its first page named", async () => {
    const service = await endless(3);
    const { client } = clientOf(service.url);
    const error = await failure(client.paginate(HOOKS));
    expect(error.message).toBe(
      `GET ${HOOKS}?per_page=100&page=5 → the listing goes on past 4 pages, though its first page named page 3 as the last`,
    );
    expect(service.seen).toHaveLength(4);
  });

  it("stops after the first page when it names a last page past the page cap", async () => {
    const service = await endless(50);
    const { client } = clientOf(service.url, { maxPages: 20 });
    const error = await failure(client.paginate(HOOKS, { per_page: 1 }));
    expect(error.message).toBe(
      `GET ${HOOKS}?per_page=1&page=21 → the listing goes on past 20 pages, the most forgeplan reads of one listing (--max-pages raises it)`,
    );
    expect(service.seen).toHaveLength(1);
  });

  it("reads a listing that grew by a page while it was read", async () => {
    const service = await hostile((req, res) => {
      const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? 1);
      const at = (n: number) => `<http://${req.headers.host}${HOOKS}?per_page=100&page=${n}>`;
      const link =
        page === 1
          ? `${at(2)}; rel="next", ${at(2)}; rel="last"`
          : page === 2
            ? `${at(3)}; rel="next", ${at(3)}; rel="last"`
            : `${at(1)}; rel="first"`;
      answer(res, 200, { ...json, link }, [{ id: page }]);
    });
    const { client } = clientOf(service.url);
    expect(await client.paginate(HOOKS)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it("fails a Link header whose next link is not a URL", async () => {
    const service = await hostile((_req, res) =>
      answer(res, 200, { ...json, link: '<http://[nope>; rel="next"' }, [{ id: 1 }]),
    );
    const { client } = clientOf(service.url);
    expect((await failure(client.paginate(HOOKS))).message).toBe(
      `GET ${HOOKS}?per_page=100 → the Link header holds a link that is not a URL`,
    );
  });
});

describe("a listing whose pages hold their items under a key", () => {
  const INSTALLATION = "/installation/repositories";
  const pages = { itemsUnder: "repositories" };

  it("reads the items of every page from under the key", async () => {
    const service = await hostile((req, res) => {
      const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? 1);
      const next = `<http://${req.headers.host}${INSTALLATION}?per_page=1&page=2>; rel="next"`;
      const body = { total_count: 2, repositories: [{ id: page }] };
      answer(res, 200, page === 1 ? { ...json, link: next } : json, body);
    });
    const { client } = clientOf(service.url);
    expect(await client.paginate(INSTALLATION, { per_page: 1 }, pages)).toEqual([
      { id: 1 },
      { id: 2 },
    ]);
  });

  it.each([
    ["a bare list", [{ id: 1 }]],
    ["no list under the key", { total_count: 1, repositories: { id: 1 } }],
    ["no key at all", { total_count: 0 }],
  ])("fails a page that is %s, naming the request", async (_what, body) => {
    const service = await hostile((_req, res) => answer(res, 200, json, body));
    const { client } = clientOf(service.url);
    expect((await failure(client.paginate(INSTALLATION, {}, pages))).message).toBe(
      `GET ${INSTALLATION}?per_page=100 → 200 expected an object with a list under "repositories" in the response`,
    );
  });
});
