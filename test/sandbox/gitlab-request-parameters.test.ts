import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type RecordedRequest } from "../../src/sandbox/index.js";
import { gitlabRoutes } from "../../src/sandbox/gitlab/index.js";
import {
  describedOperations,
  gitlabRequestViolations,
  operationParameters,
} from "../../src/sandbox/gitlab/request-parameters.js";
import { repoRoot } from "../helpers/cli.js";
import { recordedViolations } from "../helpers/sandbox.js";
import { call, sandbox } from "./helpers.js";

const data = JSON.parse(
  readFileSync(join(repoRoot, "src/sandbox/gitlab/request-parameters.json"), "utf8"),
) as {
  sources: { openapi: { commit: string; path: string }; docs: { pages: Record<string, string> } };
};

/** Routes the sandbox serves for GitLab without a REST operation of /api/v4, and why. */
const UNDESCRIBED: Record<string, string> = {
  // The OpenAPI description has it (API::Users is in the documented block), but its entry was not
  // read when the data was extracted; it declares no parameter the sandbox would check.
  "GET /api/v4/user": "not extracted",
  // GitLab's GraphQL API, beside /api/v4: not in the REST description; its queries are checked
  // against the vendored GraphQL schema instead (src/sandbox/gitlab/graphql/schema.ts).
  "POST /api/graphql": "GraphQL",
};

describe("GitLab's request parameters, from its published description", () => {
  it("describes every GitLab route the sandbox serves, each with its source", () => {
    for (const route of gitlabRoutes) {
      const key = `${route.method} ${route.pattern}`;
      if (UNDESCRIBED[key] !== undefined) {
        expect(route.operation, key).toBeUndefined();
        continue;
      }
      expect(route.operation, `${key} names no operation`).toBeDefined();
      const operation = route.operation ?? "";
      expect(operation.startsWith(`${route.method} /api/v4/`), operation).toBe(true);
      // The operation's path is the route's, with GitLab's parameter names.
      expect(operation.replace(/\{[^}]+\}/g, ":"), operation).toBe(
        `${route.method} ${route.pattern.replace(/:[^/]+/g, ":")}`,
      );
      const described = operationParameters(operation);
      expect(described, `${operation} has no parameter data`).toBeDefined();
      if (described === undefined) continue;
      if (described.source === "openapi") expect(described.operationId).toMatch(/^[a-z]+ApiV4/);
      else {
        expect(Object.keys(data.sources.docs.pages)).toContain(described.page);
        expect(described.section).toBeTruthy();
      }
      for (const name of operation.match(/\{[^}]+\}/g) ?? []) {
        const parameter = described.parameters.find((item) => `{${item.name}}` === name);
        expect(parameter, `${operation}: ${name}`).toMatchObject({ in: "path", required: true });
      }
    }
    const named = new Set(gitlabRoutes.map((route) => route.operation));
    expect(describedOperations().filter((operation) => !named.has(operation))).toEqual([]);
    expect(data.sources.openapi).toMatchObject({
      path: "doc/api/openapi/openapi_v2.yaml",
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
  });

  it("lets a valid request through, and ignores parameters GitLab does not declare", async () => {
    const sb = await sandbox();
    const seen: RecordedRequest[] = [];
    const recorded = await sandbox({ onRequest: (request) => seen.push(request) });
    for (const target of [sb, recorded]) {
      const list = await call(
        target,
        "GET",
        "/api/v4/groups/acme/projects?per_page=5&page=1&include_subgroups=true&order_by=id&sort=asc&min_access_level=30&frobnicate=x",
      );
      expect(list.status).toBe(200);
      const created = await call(target, "POST", "/api/v4/projects/1/boards", {
        body: { name: "Planning", colour: "blue" },
      });
      expect(created.status).toBe(201);
      const members = await call(
        target,
        "GET",
        "/api/v4/projects/acme%2Fapi/members/all?user_ids[]=1&user_ids[]=2&state=active",
      );
      expect(members.status).toBe(200);
    }
    expect(sb.stats().invalid_request_bodies).toBe(0);
    expect(seen.flatMap(recordedViolations)).toEqual([]);
  });

  it("answers a missing required parameter 400 `<name> is missing`", async () => {
    const sb = await sandbox();
    const { status, body } = await call(sb, "POST", "/api/v4/projects/1/boards", { body: {} });
    expect(status).toBe(400);
    expect(body).toEqual({ error: "name is missing" });
    const link = await call(sb, "POST", "/api/v4/groups/acme/epics/1/related_epics", {
      body: { link_type: "blocks" },
    });
    expect(link.status).toBe(400);
    expect(link.body).toEqual({ error: "target_group_id is missing, target_epic_iid is missing" });
    expect(sb.stats().invalid_request_bodies).toBe(2);
  });

  it("answers a value of the wrong type 400 `<name> is invalid`, in the query, the body or the path", async () => {
    const sb = await sandbox();
    for (const [method, path, body, error] of [
      ["GET", "/api/v4/projects?per_page=ten", undefined, "per_page is invalid"],
      [
        "GET",
        "/api/v4/groups/acme/subgroups?all_available=maybe",
        undefined,
        "all_available is invalid",
      ],
      ["GET", "/api/v4/projects?updated_after=yesterday", undefined, "updated_after is invalid"],
      ["GET", "/api/v4/groups/acme/members?user_ids[]=one", undefined, "user_ids is invalid"],
      ["POST", "/api/v4/projects/1/boards", { name: ["a", "b"] }, "name is invalid"],
      ["DELETE", "/api/v4/projects/1/boards/first", undefined, "board_id is invalid"],
      ["GET", "/api/v4/projects?page=x&simple=2", undefined, "page is invalid, simple is invalid"],
    ] as const) {
      const answer = await call(sb, method, path, body === undefined ? {} : { body });
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toEqual({ error });
    }
    expect(sb.stats().invalid_request_bodies).toBe(7);
    // Nothing was written.
    expect((await call(sb, "GET", "/api/v4/projects/1/boards")).body).toHaveLength(2);
  });

  it("answers a value outside the declared values 400 `<name> does not have a valid value`", async () => {
    const sb = await sandbox();
    const listed = await call(sb, "GET", "/api/v4/groups?order_by=created_at&visibility=secret");
    expect(listed.status).toBe(400);
    expect(listed.body).toEqual({
      error: "visibility does not have a valid value, order_by does not have a valid value",
    });
    const level = await call(sb, "GET", "/api/v4/projects?min_access_level=35");
    expect(level.body).toEqual({ error: "min_access_level does not have a valid value" });
    const link = await call(sb, "POST", "/api/v4/groups/acme/epics/1/related_epics", {
      body: { target_group_id: "acme", target_epic_iid: 3, link_type: "duplicates" },
    });
    expect(link.status).toBe(400);
    expect(link.body).toEqual({ error: "link_type does not have a valid value" });
  });

  it("checks parameters after GitLab.com's limits and before the route looks anything up", async () => {
    const sb = await sandbox();
    // No such project: Grape refuses the parameter before the endpoint finds nothing.
    const answer = await call(sb, "GET", "/api/v4/projects/9999/boards?per_page=x");
    expect(answer.status).toBe(400);
    expect((await call(sb, "GET", "/api/v4/projects/9999/boards")).status).toBe(404);
  });

  it("finds what GitLab refuses in a recorded request, as the tests' helper reports it", () => {
    expect(
      gitlabRequestViolations(
        "DELETE /api/v4/groups/{id}/epics/{epic_iid}/related_epics/{related_epic_link_id}",
        "/api/v4/groups/acme/epics/one/related_epics/2",
        undefined,
      ),
    ).toEqual(["epic_iid is invalid"]);
    expect(
      recordedViolations({
        method: "GET",
        path: "/api/v4/groups/acme%2Fplatform/descendant_groups?skip_groups=1,2&sort=up",
        operation: "GET /api/v4/groups/{id}/descendant_groups",
        body: undefined,
      }),
    ).toEqual(["sort does not have a valid value"]);
    expect(
      gitlabRequestViolations("GET /api/v4/no/such/operation", "/api/v4/no/such/operation", {}),
    ).toEqual([]);
  });
});
