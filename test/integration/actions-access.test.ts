import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../src/sandbox/index.js";
import { runInProcess } from "../helpers/cli.js";
import { call, sandbox } from "../sandbox/helpers.js";

/**
 * `…/actions/permissions/access` is read and written only where GitHub documents it applies: "This
 * endpoint only applies to private repositories" (@octokit/openapi, api.github.com; internal ones
 * too on GitHub Enterprise Cloud). acme/web is made public here; acme/api stays private.
 */

const ACCESS = "/actions/permissions/access";

async function world() {
  const seen: RecordedRequest[] = [];
  const sb = await sandbox({ onRequest: (request) => seen.push(request) });
  const made = await call(sb, "PATCH", "/repos/acme/web", { body: { visibility: "public" } });
  expect(made.status).toBe(200);
  seen.length = 0;
  return { sb, seen };
}

function workspace(config: string): string {
  const cwd = mkdtempSync(join(tmpdir(), "forgeplan-actions-access-"));
  writeFileSync(join(cwd, "forgeplan.yaml"), config);
  return cwd;
}

const CONFIG = `version: 1
repositories:
  - name: acme/*
    actions: { access_level: organization }
`;

describe("workflow access to a repository's actions", () => {
  it("is planned for a private repository and left alone, with a note, for a public one", async () => {
    const { sb, seen } = await world();
    const cwd = workspace(CONFIG);
    const planned = await runInProcess(["plan", "--sandbox-url", sb.url], { cwd });
    expect(planned.stdout).toContain("~ github/acme/api/actions/access will be updated");
    expect(planned.stdout).toContain("  github/acme/web/actions/access is unchanged");
    expect(planned.stdout).toContain(
      'note: access_level applies to private and internal repositories only (GitHub: "This endpoint only applies to private repositories"); this one is public, so it is neither read nor written',
    );
    expect(seen.filter((request) => request.path.endsWith(ACCESS)).map((r) => r.path)).toEqual([
      `/repos/acme/api${ACCESS}`,
    ]);
    expect(planned.code).toBe(2);

    const applied = await runInProcess(["apply", "--sandbox-url", sb.url, "--auto-approve"], {
      cwd,
    });
    expect(applied.code).toBe(0);
    const writes = seen.filter((request) => request.method === "PUT");
    expect(writes.map((request) => request.path)).toEqual([`/repos/acme/api${ACCESS}`]);
  });

  it("is exported for a private repository only", async () => {
    const { sb, seen } = await world();
    const cwd = workspace("version: 1\n");
    const exported = await runInProcess(
      ["export", "--repo", "acme/api", "--repo", "acme/web", "--sandbox-url", sb.url],
      { cwd },
    );
    expect(exported.code).toBe(0);
    const [api = "", web = ""] = exported.stdout.split("  - name: acme/web\n");
    expect(api).toContain("access_level: none");
    expect(web).not.toContain("access_level");
    expect(seen.some((request) => request.path === `/repos/acme/web${ACCESS}`)).toBe(false);
  });
});
