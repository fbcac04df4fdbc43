import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forge/answer.js";
import { RateBudget } from "../../src/forge/budget.js";
import { categoryOf } from "../../src/forge/limits.js";
import { permissionsNote, serviceMessage } from "../../src/forge/errors.js";
import { reportedWindow, retryAfterMs, throttleOf } from "../../src/forge/rate-headers.js";
import { backoffDelay, mayRetry, transportFailure } from "../../src/forge/retry-policy.js";
import { displayPath, lastLink, nextLink, pageNumber } from "../../src/forge/urls.js";

describe("permissionsNote", () => {
  it("says what GitHub's X-Accepted-GitHub-Permissions asks for: sets as alternatives", () => {
    expect(permissionsNote("members=read")).toBe("the token needs members=read");
    expect(permissionsNote("issues=write; pull_requests=write")).toBe(
      "the token needs issues=write or pull_requests=write",
    );
    expect(permissionsNote("repository_projects=write, organization_projects=admin")).toBe(
      "the token needs repository_projects=write and organization_projects=admin",
    );
  });

  it("leaves out a value that is not of that header's form", () => {
    for (const value of [
      undefined,
      "",
      ";",
      "members",
      "members=read; <script>",
      `${"members=read,".repeat(30)}members=read`,
    ])
      expect(permissionsNote(value)).toBeUndefined();
  });
});

describe("serviceMessage", () => {
  it("joins GitHub's message and Validation Error Simple strings", () => {
    expect(serviceMessage(422, { message: "Validation Failed", errors: ["a", "b"] })).toBe(
      "Validation Failed: a; b",
    );
  });
  it("describes GitHub's full validation errors", () => {
    expect(
      serviceMessage(422, {
        message: "Validation Failed",
        errors: [
          { resource: "Hook", code: "custom", message: "Hook already exists" },
          { resource: "Hook", field: "url", code: "missing" },
        ],
      }),
    ).toBe("Validation Failed: Hook already exists; Hook url missing");
  });
  it("reads GitLab's message maps and error strings", () => {
    expect(serviceMessage(400, { message: { name: ["can't be blank"] } })).toBe(
      "name can't be blank",
    );
    expect(serviceMessage(400, { error: "board_id is invalid" })).toBe("board_id is invalid");
  });
  it("falls back to the reason phrase for empty or HTML bodies", () => {
    expect(serviceMessage(502, "<html><body>Bad gateway</body></html>")).toBe("Bad Gateway");
    expect(serviceMessage(404, undefined)).toBe("Not Found");
  });
  it("keeps it to one bounded line", () => {
    const text = serviceMessage(500, `line one\nline two ${"x".repeat(400)}`);
    expect(text).not.toContain("\n");
    expect(text.length).toBeLessThanOrEqual(300);
  });
});

describe("urls", () => {
  const base = new URL("https://ghe.example/api/v3");
  it("finds rel=next among several relations", () => {
    const header =
      '<https://ghe.example/api/v3/gists?page=3>; rel="next", <https://ghe.example/api/v3/gists?page=9>; rel="last"';
    expect(nextLink(header, base)?.href).toBe("https://ghe.example/api/v3/gists?page=3");
    expect(nextLink('<https://x/gists?page=1>; rel="first"', base)).toBeUndefined();
    expect(nextLink(undefined, base)).toBeUndefined();
  });
  it("reads the page number of rel=last, and none for cursor-paged lists", () => {
    const header =
      '<https://ghe.example/api/v3/gists?page=3>; rel="next", <https://ghe.example/api/v3/gists?page=9>; rel="last"';
    const lastOf = (links: string | undefined) => {
      const last = lastLink(links, base);
      return last === undefined ? undefined : pageNumber(last);
    };
    expect(lastOf(header)).toBe(9);
    expect(lastOf('<https://x/gists?after=abc>; rel="next"')).toBeUndefined();
    expect(lastOf('<https://x/gists?cursor=z>; rel="last"')).toBeUndefined();
    expect(lastOf(undefined)).toBeUndefined();
  });
  it("shows paths relative to the base with credential-like values redacted", () => {
    const url = new URL("https://ghe.example/api/v3/gists?since=2024&private_token=abc&page=2");
    expect(displayPath(url, base)).toBe("/gists?since=2024&private_token=REDACTED&page=2");
  });
});

describe("rate headers", () => {
  it("reads GitHub and GitLab windows", () => {
    expect(
      reportedWindow(
        {
          "x-ratelimit-limit": "5000",
          "x-ratelimit-remaining": "4999",
          "x-ratelimit-reset": "1700000000",
          "x-ratelimit-used": "1",
          "x-ratelimit-resource": "search",
        },
        "repository",
      ),
    ).toEqual({
      category: "search",
      window: { limit: 5000, remaining: 4999, reset: 1700000000, used: 1 },
    });
    expect(
      reportedWindow(
        { "ratelimit-limit": "600", "ratelimit-remaining": "599", "ratelimit-reset": "1700000060" },
        "planning",
      ),
    ).toEqual({
      category: undefined,
      window: { limit: 600, remaining: 599, reset: 1700000060, used: 1 },
    });
    expect(reportedWindow({ "ratelimit-limit": "600" }, "repository")).toBeUndefined();
  });
  it("reads Retry-After as seconds or a date", () => {
    expect(retryAfterMs({ "retry-after": "12" }, 0)).toBe(12_000);
    const now = Date.parse("2024-01-01T00:00:00Z");
    expect(retryAfterMs({ "retry-after": "Mon, 01 Jan 2024 00:00:30 GMT" }, now)).toBe(30_000);
  });
  it("tells throttling from refusal", () => {
    expect(throttleOf(403, {}, "Must have admin rights to Repository.", 0, 1000)).toBeUndefined();
    expect(throttleOf(404, { "retry-after": "1" }, "", 0, 1000)).toBeUndefined();
    expect(
      throttleOf(
        403,
        { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "100" },
        "API rate limit exceeded for user ID 1.",
        0,
        1000,
      ),
    ).toEqual({ reason: "rate-limit-reset", until: 101_000 });
    expect(throttleOf(429, {}, "", 0, 1000)).toEqual({ reason: "secondary-limit" });
  });
});

describe("retry policy", () => {
  it("backs off with full jitter under the cap", () => {
    const policy = { max: 5, baseMs: 100, capMs: 1000 };
    expect([0, 1, 2, 3, 4].map((n) => backoffDelay(n, policy, () => 0.5))).toEqual([
      50, 100, 200, 400, 500,
    ]);
  });
  it("retries POST only after a refused connection", () => {
    const refused = transportFailure(
      new TypeError("fetch failed", {
        cause: Object.assign(new Error("x"), { code: "ECONNREFUSED" }),
      }),
    );
    const reset = transportFailure(
      new TypeError("fetch failed", {
        cause: Object.assign(new Error("x"), { code: "ECONNRESET" }),
      }),
    );
    expect(refused).toMatchObject({ refused: true, transient: true });
    expect(reset.description).toBe("connection reset (ECONNRESET)");
    expect(mayRetry("POST", { transport: refused })).toBe(true);
    expect(mayRetry("POST", { transport: reset })).toBe(false);
    expect(mayRetry("POST", { status: 503 })).toBe(false);
    expect(mayRetry("DELETE", { transport: reset })).toBe(true);
    expect(mayRetry("PUT", { status: 502 })).toBe(true);
    expect(mayRetry("GET", { status: 409 })).toBe(false);
    const dns = transportFailure(
      new TypeError("fetch failed", {
        cause: Object.assign(new Error("getaddrinfo ENOTFOUND x"), { code: "ENOTFOUND" }),
      }),
    );
    expect(mayRetry("GET", { transport: dns })).toBe(false);
  });
});

describe("RateBudget", () => {
  const window = { limit: 100, remaining: 50, reset: 1000, used: 50 };
  it("keeps later windows and the lowest remaining within one window", () => {
    const budget = new RateBudget({ share: 1, skewMs: 0 });
    budget.observe("core", window);
    budget.observe("core", { ...window, remaining: 60, used: 40 });
    expect(budget.snapshot().core?.remaining).toBe(50);
    budget.observe("core", { ...window, reset: 999, remaining: 99 });
    expect(budget.snapshot().core?.remaining).toBe(50);
    budget.observe("core", { ...window, reset: 2000, remaining: 99, used: 1 });
    expect(budget.snapshot().core?.remaining).toBe(99);
  });
  it("holds back the margin, counting requests in flight", () => {
    const budget = new RateBudget({ share: 1, skewMs: 0, margin: 10 });
    budget.observe("core", { ...window, remaining: 12 });
    expect(budget.admit("core", 0)).toEqual({ go: true });
    expect(budget.admit("core", 0)).toEqual({ go: true });
    expect(budget.admit("core", 0)).toEqual({
      go: false,
      until: 1_000_000,
      reason: "rate-limit-reset",
    });
    budget.release("core");
    expect(budget.admit("core", 500_000)).toEqual({ go: true });
    budget.release("core");
    budget.release("core");
    budget.observe("core", { ...window, remaining: 10, used: 90 });
    expect(budget.admit("core", 600_000)).toMatchObject({ go: false, reason: "rate-limit-reset" });
  });
  it("treats a category as fresh once its reset has passed", () => {
    const budget = new RateBudget({ share: 1, skewMs: 1000 });
    budget.observe("core", { ...window, remaining: 0 });
    expect(budget.admit("core", 1_000_500)).toMatchObject({ go: false, until: 1_001_000 });
    expect(budget.admit("core", 1_001_000)).toEqual({ go: true });
  });
  it("keeps at least half of a tiny limit usable", () => {
    const budget = new RateBudget({ share: 1, skewMs: 0 });
    expect(budget.margin(5000)).toBe(100);
    expect(budget.margin(100)).toBe(10);
    expect(budget.margin(8)).toBe(4);
  });
});

describe("readAnswer", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it("reads JSON under application/json and +json types", () => {
    expect(readAnswer("GET", 200, "application/json; charset=utf-8", bytes('{"a":1}'))).toEqual({
      usable: true,
      data: { a: 1 },
    });
    expect(readAnswer("GET", 200, "application/vnd.github+json", bytes("[]"))).toEqual({
      usable: true,
      data: [],
    });
  });
  it("says what a success answer came with when it is not JSON", () => {
    expect(readAnswer("GET", 200, "text/html", bytes("<html></html>"))).toEqual({
      usable: false,
      problem: "text/html, not JSON",
    });
    expect(readAnswer("GET", 200, undefined, bytes("{}"))).toEqual({
      usable: false,
      problem: "no content type, not JSON",
    });
    expect(readAnswer("PUT", 201, "application/json", bytes("{"))).toEqual({
      usable: false,
      problem: "application/json that does not parse as JSON",
    });
  });
  it("accepts no body on 204, 205 and writes, but not on a read", () => {
    expect(readAnswer("GET", 204, undefined, undefined)).toEqual({ usable: true, data: undefined });
    expect(readAnswer("DELETE", 200, undefined, bytes(""))).toEqual({
      usable: true,
      data: undefined,
    });
    expect(readAnswer("GET", 200, "application/json", bytes(" \n"))).toEqual({
      usable: false,
      problem: "no body",
    });
  });
});

describe("limit groups", () => {
  it("draw search, code search and GraphQL from their own categories, the rest from core", () => {
    expect(categoryOf("/search/code")).toBe("code_search");
    expect(categoryOf("/search/issues")).toBe("search");
    expect(categoryOf("/graphql")).toBe("graphql");
    expect(categoryOf("/graphql/x")).toBe("core");
    expect(categoryOf("/repos/acme/api")).toBe("core");
  });
});

describe("RateBudget that can never admit", () => {
  it("says so for a limit of 0 and for a share that leaves nothing", () => {
    const zero = new RateBudget({ share: 1, skewMs: 1000 });
    zero.observe("core", { limit: 0, remaining: 0, reset: 1, used: 0 });
    expect(zero.admit("core", 5_000)).toEqual({ go: false, reason: "unusable", limit: 0 });
    const halved = new RateBudget({ share: 0.5, skewMs: 1000 });
    halved.observe("core", { limit: 1, remaining: 1, reset: 1, used: 0 });
    expect(halved.admit("core", 5_000)).toEqual({ go: false, reason: "unusable", limit: 1 });
    const whole = new RateBudget({ share: 1, skewMs: 1000 });
    whole.observe("core", { limit: 1, remaining: 1, reset: 1, used: 0 });
    expect(whole.admit("core", 5_000)).toEqual({ go: true });
  });
});
