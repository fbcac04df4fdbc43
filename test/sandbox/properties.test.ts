import { describe, expect, it } from "vitest";
import { call, DEV, READER, sandbox } from "./helpers.js";
import { check, responseSchema } from "./openapi-check.js";

const VALUES = "/orgs/acme/properties/values";

describe("custom properties", () => {
  it("lists the definitions and every repository's values in the spec's shapes", async () => {
    const sb = await sandbox();
    const schema = await call(sb, "GET", "/orgs/acme/properties/schema");
    expect(schema.status).toBe(200);
    expect(check(responseSchema("/orgs/{org}/properties/schema", "get"), schema.body)).toEqual([]);
    expect(schema.body.map((item: { property_name: string }) => item.property_name)).toEqual([
      "team",
      "tier",
    ]);
    const values = await call(sb, "GET", VALUES);
    expect(values.status).toBe(200);
    expect(check(responseSchema("/orgs/{org}/properties/values", "get"), values.body)).toEqual([]);
    // acme/web has no tier of its own: the required property's default is its value.
    expect(values.body).toEqual([
      {
        repository_id: 1001,
        repository_name: "api",
        repository_full_name: "acme/api",
        properties: [
          { property_name: "team", value: "platform" },
          { property_name: "tier", value: "critical" },
        ],
      },
      {
        repository_id: 1002,
        repository_name: "web",
        repository_full_name: "acme/web",
        properties: [
          { property_name: "team", value: "web" },
          { property_name: "tier", value: "standard" },
        ],
      },
      {
        repository_id: 1004,
        repository_name: "legacy",
        repository_full_name: "acme/legacy",
        properties: [
          { property_name: "team", value: "platform" },
          { property_name: "tier", value: "standard" },
        ],
      },
    ]);
    const one = await call(sb, "GET", "/repos/acme/web/properties/values");
    expect(
      check(responseSchema("/repos/{owner}/{repo}/properties/values", "get"), one.body),
    ).toEqual([]);
    expect(one.body).toEqual(values.body[1].properties);
  });

  it("pages the values 100 at a time and gives generated repositories a team", async () => {
    const sb = await sandbox({ generate: 150 });
    const first = await call(sb, "GET", `${VALUES}?per_page=100`);
    expect(first.body).toHaveLength(100);
    expect(first.headers.get("link")).toContain('rel="next"');
    const second = await call(sb, "GET", `${VALUES}?per_page=100&page=2`);
    expect(second.body).toHaveLength(53);
    const generated = second.body.find(
      (item: { repository_name: string }) => item.repository_name === "repo-0101",
    );
    expect(generated.properties).toEqual([
      { property_name: "team", value: "team-01" },
      { property_name: "tier", value: "standard" },
    ]);
  });

  it("sets and unsets values organization-wide, checking every value before any is set", async () => {
    const sb = await sandbox();
    const refused = await call(sb, "PATCH", VALUES, {
      body: {
        repository_names: ["api", "web"],
        properties: [
          { property_name: "team", value: "payments" },
          { property_name: "tier", value: "gold" },
        ],
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        resource: "CustomProperty",
        code: "custom",
        message: "'gold' is not an allowed value of tier",
      },
    ]);
    expect((await call(sb, "GET", "/repos/acme/api/properties/values")).body[0].value).toBe(
      "platform",
    );
    const set = await call(sb, "PATCH", VALUES, {
      body: {
        repository_names: ["api", "web"],
        properties: [
          { property_name: "Team", value: "payments" },
          { property_name: "tier", value: null },
        ],
      },
    });
    expect(set.status).toBe(204);
    expect((await call(sb, "GET", "/repos/acme/api/properties/values")).body).toEqual([
      { property_name: "team", value: "payments" },
      { property_name: "tier", value: "standard" },
    ]);
  });

  it("lets owners define properties and keeps repository admins to the ones they may set", async () => {
    const sb = await sandbox();
    const put = await call(sb, "PUT", "/orgs/acme/properties/schema/regions", {
      body: { value_type: "multi_select", allowed_values: ["eu", "us"] },
    });
    expect(put.status).toBe(200);
    expect(
      check(
        responseSchema("/orgs/{org}/properties/schema/{custom_property_name}", "put"),
        put.body,
      ),
    ).toEqual([]);
    expect(put.body.values_editable_by).toBe("org_actors");
    expect(
      (
        await call(sb, "PUT", "/orgs/acme/properties/schema/owner", {
          body: { value_type: "string", required: true },
        })
      ).body.errors,
    ).toEqual([
      {
        resource: "CustomProperty",
        code: "custom",
        message: "a required property needs a default_value",
      },
    ]);
    expect(
      (
        await call(sb, "PUT", "/orgs/acme/properties/schema/regions", {
          token: DEV,
          body: { value_type: "string" },
        })
      ).status,
    ).toBe(403);
    const patch = (body: unknown) =>
      call(sb, "PATCH", "/repos/acme/api/properties/values", { body });
    expect((await patch({ properties: [{ property_name: "regions", value: "eu" }] })).status).toBe(
      422,
    );
    expect(
      (await patch({ properties: [{ property_name: "regions", value: ["eu"] }] })).status,
    ).toBe(204);
    expect((await call(sb, "DELETE", "/orgs/acme/properties/schema/regions")).status).toBe(204);
    expect((await call(sb, "GET", "/repos/acme/api/properties/values")).body).toHaveLength(2);
  });

  it("hides the properties of an organization from non-members and of user accounts", async () => {
    const sb = await sandbox();
    expect((await call(sb, "GET", VALUES, { token: READER })).status).toBe(200);
    expect((await call(sb, "GET", VALUES, { token: null })).status).toBe(401);
    expect((await call(sb, "GET", "/orgs/octo-admin/properties/values")).status).toBe(404);
    expect((await call(sb, "GET", "/repos/octo-admin/dotfiles/properties/values")).body).toEqual(
      [],
    );
    expect((await call(sb, "GET", `${VALUES}?repository_query=props.team:web`)).status).toBe(422);
  });
});
