import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/cli.js";
import { recordedSandbox } from "../helpers/recorded-sandbox.js";
import { call, configFile, recordedViolations } from "../helpers/sandbox.js";

/** GitHub Pages of the demo world: acme/web is built from main, /docs; acme/api has no site. */

const live = recordedSandbox();

const config = (repo: string, pages: string) =>
  configFile(`version: 1\nrepositories:\n  - name: ${repo}\n    pages: ${pages}\n`);

describe("GitHub Pages", () => {
  it("export plans as no change", async () => {
    const exported = await runInProcess([
      "export",
      "--repo",
      "acme/web",
      "--sandbox-url",
      live.world.url,
    ]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain("pages:");
    expect((await live.planOf(configFile(exported.stdout))).code).toBe(0);
  });

  it("changes one field with one PUT valid against GitHub's request schema", async () => {
    const path = config(
      "acme/web",
      "{ source: { branch: main, path: /docs }, cname: docs.acme.example }",
    );
    const { plan } = await live.planOf(path);
    expect(plan.changes).toMatchObject([
      {
        address: "github/acme/web/pages/site",
        action: "update",
        diff: [{ path: "cname", before: null, after: "docs.acme.example" }],
        requests: [
          { method: "PUT", path: "/repos/acme/web/pages", body: { cname: "docs.acme.example" } },
        ],
      },
    ]);
    await live.applied(path);
    expect(live.sent()).toEqual(["PUT /repos/acme/web/pages"]);
    expect(live.writes.flatMap(recordedViolations)).toEqual([]);
    const site = await call(live.world, "GET", "/repos/acme/web/pages");
    expect(site.body).toMatchObject({
      cname: "docs.acme.example",
      source: { branch: "main", path: "/docs" },
    });
  });

  it("creates a workflow-built site, and a custom domain with a PUT after the POST", async () => {
    const path = config("acme/api", "{ build_type: workflow, cname: api.acme.example }");
    await live.applied(path);
    expect(live.sent()).toEqual(["POST /repos/acme/api/pages", "PUT /repos/acme/api/pages"]);
    expect(live.writes.map((write) => write.body)).toEqual([
      { build_type: "workflow" },
      { cname: "api.acme.example" },
    ]);
    expect(live.writes.flatMap(recordedViolations)).toEqual([]);
  });

  it("deletes a site written as null only with --allow-delete", async () => {
    const path = config("acme/web", "null");
    const skipped = await runInProcess([
      "apply",
      "-c",
      path,
      "--sandbox-url",
      live.world.url,
      "--auto-approve",
    ]);
    expect(skipped.stdout).toContain("deletes need --allow-delete");
    expect(live.writes).toEqual([]);
    await live.applied(path);
    expect(live.sent()).toEqual(["DELETE /repos/acme/web/pages"]);
    expect((await call(live.world, "GET", "/repos/acme/web/pages")).status).toBe(404);
  });

  it("refuses at load time a legacy build without a source", async () => {
    const path = config("acme/api", "{ cname: x.acme.example }");
    const validated = await runInProcess(["validate", "-c", path]);
    expect(validated.code).toBe(1);
    expect(validated.stderr).toContain("a legacy Pages build needs a source");
  });
});
