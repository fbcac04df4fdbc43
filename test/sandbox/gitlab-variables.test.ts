import { describe, expect, it } from "vitest";
import { call, DEV, sandbox } from "./helpers.js";

/** The sandbox's CI/CD variables, as GitLab answers them (src/sandbox/gitlab/variables/). */

const PROJECT = "/api/v4/projects/acme%2Fapi/variables";
const GROUP = "/api/v4/groups/partners/variables";

describe("GitLab CI/CD variables in the sandbox", () => {
  it("keeps one key per scope, and finds one of several only by its scope", async () => {
    const sb = await sandbox();
    for (const environment_scope of ["*", "production"]) {
      const created = await call(sb, "POST", PROJECT, {
        body: { key: "TOKEN", value: `value-${environment_scope}`, environment_scope },
      });
      expect(created.status).toBe(201);
    }
    const again = await call(sb, "POST", PROJECT, { body: { key: "TOKEN", value: "x" } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: { key: ["(TOKEN) has already been taken"] } });
    const conflict = {
      message:
        "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'",
    };
    for (const method of ["GET", "PUT", "DELETE"]) {
      const answer = await call(
        sb,
        method,
        `${PROJECT}/TOKEN`,
        method === "PUT" ? { body: { value: "y" } } : {},
      );
      expect([method, answer.status, answer.body]).toEqual([method, 409, conflict]);
    }
    const edited = await call(sb, "PUT", `${PROJECT}/TOKEN?filter[environment_scope]=production`, {
      body: { value: "changed" },
    });
    expect(edited.body).toMatchObject({ environment_scope: "production", value: "changed" });
    const other = await call(sb, "GET", `${PROJECT}/TOKEN?filter[environment_scope]=*`);
    expect(other.body).toMatchObject({ environment_scope: "*", value: "value-*" });
    const missing = await call(sb, "GET", `${PROJECT}/NONE`);
    expect([missing.status, missing.body]).toEqual([404, { message: "404 Variable Not Found" }]);
  });

  it("hides a value set masked_and_hidden at create, and keeps it masked", async () => {
    const sb = await sandbox();
    const created = await call(sb, "POST", PROJECT, {
      body: { key: "HIDDEN", value: "hidden_value_01", masked_and_hidden: true },
    });
    expect(created.body).toMatchObject({ value: null, hidden: true, masked: true });
    const unmasked = await call(sb, "PUT", `${PROJECT}/HIDDEN`, { body: { masked: false } });
    expect([unmasked.status, unmasked.body]).toEqual([
      400,
      {
        message: {
          base: ["The visibility setting cannot be changed for masked and hidden variables."],
        },
      },
    ]);
    const described = await call(sb, "PUT", `${PROJECT}/HIDDEN`, { body: { description: "kept" } });
    expect(described.body).toMatchObject({ value: null, description: "kept", hidden: true });
    // An update never makes a variable hidden: the parameter is the create's only.
    await call(sb, "POST", PROJECT, { body: { key: "SHOWN", value: "shown_value_01" } });
    const hide = await call(sb, "PUT", `${PROJECT}/SHOWN`, { body: { masked_and_hidden: true } });
    expect(hide.body).toMatchObject({ hidden: false, value: "shown_value_01" });
  });

  it("masks only values GitLab can mask, raw ones by their own rule", async () => {
    const sb = await sandbox();
    const refuse = async (body: Record<string, unknown>) => {
      const answer = await call(sb, "POST", PROJECT, { body: { key: "M", ...body } });
      return [answer.status, answer.body];
    };
    const invalid = [400, { message: { value: ["is invalid"] } }];
    expect(await refuse({ value: "short", masked: true })).toEqual(invalid);
    expect(await refuse({ value: "has a space", masked: true })).toEqual(invalid);
    expect(await refuse({ value: "with$dollar!", masked: true })).toEqual(invalid);
    expect(await refuse({ value: "has a space", masked: true, raw: true })).toEqual(invalid);
    expect((await refuse({ value: "with$dollar!", masked: true, raw: true }))[0]).toBe(201);
  });

  it("takes a project's Maintainer and a group's Owner; a Free group keeps the scope *", async () => {
    const sb = await sandbox({ gitlabTier: "free" });
    const forbidden = await call(sb, "GET", PROJECT, { token: DEV });
    expect([forbidden.status, forbidden.body]).toEqual([403, { message: "403 Forbidden" }]);
    const scoped = await call(sb, "POST", GROUP, {
      body: { key: "FREE", value: "v", environment_scope: "production" },
    });
    expect(scoped.body).toMatchObject({ key: "FREE", environment_scope: "*" });
    const project = await call(sb, "POST", PROJECT, {
      body: { key: "FREE", value: "v", environment_scope: "production" },
    });
    expect(project.body).toMatchObject({ environment_scope: "production" });
  });
});
