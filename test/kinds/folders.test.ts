import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KINDS, type KindModule } from "../../src/resources/index.js";
import { repoRoot } from "../helpers/cli.js";

/** Every kind's folder has the one shape docs/adding-a-kind.md shows. */

const RESOURCES = join(repoRoot, "src", "resources");

/** A kind's folder: its name with hyphens (`branch_protection` is in `branch-protection/`). */
function folderOf(kind: KindModule): string {
  return kind.name.replaceAll("_", "-");
}

/** The files a kind's folder holds, by what the kind has. */
function expectedFiles(kind: KindModule): Record<string, boolean> {
  // What export writes: values, or the comments a clean-up writes in their place.
  const parts = [kind.repository, kind.organization, kind.project, kind.group, kind.instance];
  const exports =
    parts.some((part) => part?.export !== undefined || part?.comments !== undefined) ||
    kind.section?.export !== undefined;
  return {
    "index.ts": true,
    "settings.ts": true,
    "canonical.ts": true,
    "plan.ts": true,
    "export.ts": exports,
    "graphql.ts": kind.repository?.graphql !== undefined || kind.project?.graphql !== undefined,
    "organization-side.ts": kind.repository?.organizationSide !== undefined,
  };
}

describe("the folder of every kind", () => {
  it.each(KINDS.map((kind) => [kind.name, kind] as const))("%s has the kinds' shape", (_, kind) => {
    const folder = join(RESOURCES, folderOf(kind));
    const present = Object.fromEntries(
      Object.keys(expectedFiles(kind)).map((file) => [file, existsSync(join(folder, file))]),
    );
    expect(present).toEqual(expectedFiles(kind));
  });

  it("is the folder of a registered kind, every folder of src/resources/", () => {
    const folders = readdirSync(RESOURCES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual(KINDS.map(folderOf).sort());
  });
});
