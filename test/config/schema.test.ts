import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { schemaText } from "../../src/engine/desired.js";
import { repoRoot, runInProcess } from "../helpers/cli.js";

const committed = readFileSync(`${repoRoot}schema/forgeplan.schema.json`, "utf8");

describe("the JSON Schema", () => {
  it("is committed as generated from the zod schema", () => {
    // Regenerate with: npm run build && node dist/bin/forgeplan.js schema > schema/forgeplan.schema.json
    expect(committed, "schema/forgeplan.schema.json is stale").toBe(schemaText());
  });

  it("is what `forgeplan schema` prints, byte for byte", async () => {
    const result = await runInProcess(["schema"]);
    expect(result).toEqual({ code: 0, stdout: committed, stderr: "" });
  });

  it("refuses contexts and checks together, as validate does", () => {
    const found: unknown[] = [];
    const walk = (node: unknown): void => {
      if (node === null || typeof node !== "object") return;
      const schema = node as Record<string, unknown>;
      const properties = schema.properties as Record<string, unknown> | undefined;
      if (properties?.contexts !== undefined && properties.checks !== undefined) {
        found.push(schema.not);
      }
      Object.values(schema).forEach(walk);
    };
    walk(JSON.parse(committed));
    // Wherever branch protection can be written: defaults, profiles and entries.
    expect(found).toHaveLength(3);
    for (const not of found) expect(not).toEqual({ required: ["contexts", "checks"] });
  });

  it("describes every field, for editors' hover help", () => {
    const undescribed: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (node === null || typeof node !== "object") return;
      const schema = node as Record<string, unknown>;
      for (const [key, child] of Object.entries(
        (schema.properties ?? {}) as Record<string, Record<string, unknown>>,
      )) {
        if (typeof child.description !== "string" || child.description === "")
          undescribed.push(`${path}.${key}`);
        walk(child, `${path}.${key}`);
      }
      for (const key of ["items", "additionalProperties"]) walk(schema[key], `${path}[${key}]`);
      for (const key of ["anyOf", "oneOf", "allOf"]) {
        (schema[key] as unknown[] | undefined)?.forEach((option, index) =>
          walk(option, `${path}{${key}${index}}`),
        );
      }
    };
    const schema = JSON.parse(committed) as Record<string, unknown>;
    walk(schema, "");
    expect(undescribed).toEqual([]);
    expect(Object.keys(schema.properties as object)).toEqual([
      "version",
      "targets",
      "defaults",
      "profiles",
      "repositories",
      "project_defaults",
      "project_profiles",
      "projects",
      "removal_limit",
      "organizations",
      "groups",
      "instance",
      "audits",
    ]);
  });
});
