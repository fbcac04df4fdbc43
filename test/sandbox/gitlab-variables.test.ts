import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { demoWorld } from "../../src/sandbox/index.js";
import { call, DEV, sandbox } from "./helpers.js";

/** The sandbox's CI/CD variables, as GitLab answers them (src/sandbox/gitlab/variables/). */

const PROJECT = "/api/v4/projects/acme%2Fapi/variables";
const GROUP = "/api/v4/groups/partners/variables";
const INSTANCE = "/api/v4/admin/ci/variables";

/** The demo world with octo-admin (the helpers' default token) an administrator. */
function adminSeed(instance_variables: unknown[]): string {
  const seed = structuredClone(demoWorld) as unknown as { users: Array<Record<string, unknown>> };
  for (const user of seed.users) if (user.login === "octo-admin") user.site_admin = true;
  const file = join(mkdtempSync(join(tmpdir(), "forgeplan-sandbox-variables-")), "world.yaml");
  writeFileSync(file, stringify({ ...seed, instance_variables }));
  return file;
}

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

  it("serves the instance's variables to an administrator only, by key, without scope or hiding", async () => {
    const sb = await sandbox({ seed: adminSeed([{ key: "SEEDED", value: "seeded_value_01" }]) });
    const unauthenticated = await call(sb, "GET", INSTANCE, { token: null });
    expect(unauthenticated.status).toBe(401);
    const forbidden = await call(sb, "GET", INSTANCE, { token: DEV });
    expect([forbidden.status, forbidden.body]).toEqual([403, { message: "403 Forbidden" }]);
    const created = await call(sb, "POST", INSTANCE, {
      body: {
        key: "TOKEN",
        value: "token_value_01",
        masked: true,
        environment_scope: "production",
        masked_and_hidden: true,
      },
    });
    // No scope and no hiding at the instance: GitLab's API declares neither parameter.
    expect([created.status, created.body]).toEqual([
      201,
      {
        variable_type: "env_var",
        key: "TOKEN",
        value: "token_value_01",
        protected: false,
        masked: true,
        raw: false,
        description: null,
      },
    ]);
    const edited = await call(sb, "PUT", `${INSTANCE}/TOKEN`, { body: { protected: true } });
    expect(edited.body).toMatchObject({ value: "token_value_01", protected: true });
    const listed = await call(sb, "GET", INSTANCE);
    expect(listed.body.map((variable: { key: string }) => variable.key)).toEqual([
      "SEEDED",
      "TOKEN",
    ]);
    const taken = await call(sb, "POST", INSTANCE, { body: { key: "TOKEN", value: "x" } });
    expect(taken.body).toEqual({ message: { key: ["(TOKEN) has already been taken"] } });
    const long = await call(sb, "POST", INSTANCE, {
      body: { key: "LONG", value: "x".repeat(10_001) },
    });
    expect([long.status, long.body]).toEqual([
      400,
      {
        message: {
          value: ["The value of the provided variable exceeds the 10000 character limit"],
        },
      },
    ]);
    expect((await call(sb, "DELETE", `${INSTANCE}/TOKEN`)).status).toBe(204);
    const missing = await call(sb, "GET", `${INSTANCE}/TOKEN`);
    expect([missing.status, missing.body]).toEqual([
      404,
      { message: "404 InstanceVariable Not Found" },
    ]);
  });

  it("holds at most 25 instance variables, refusing the 26th create as GitLab does", async () => {
    const seeded = Array.from({ length: 25 }, (_, index) => ({ key: `V${index}`, value: "v" }));
    const sb = await sandbox({ seed: adminSeed(seeded) });
    const over = await call(sb, "POST", INSTANCE, { body: { key: "V25", value: "v" } });
    expect([over.status, over.body]).toEqual([
      400,
      { message: { base: ["Maximum number of ci instance level variables (25) exceeded"] } },
    ]);
    const edited = await call(sb, "PUT", `${INSTANCE}/V0`, { body: { value: "w" } });
    expect(edited.status).toBe(200);
  });
});
