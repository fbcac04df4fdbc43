import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/cli.js";
import { configFile } from "../helpers/sandbox.js";
import { answer, hostile, json } from "./server.js";

/**
 * GitLab's `GET /groups/:id/epics` lists the epics of every subgroup as well unless
 * `include_descendant_groups=false` (gitlab-ee!4182 "Include epics from subgroups"). Group 1 here has
 * epic &1; its subgroup (id 9) has an epic whose iid, 7, counts in the subgroup only.
 */
function gitlabWithSubgroup() {
  return hostile((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://gitlab.invalid");
    if (url.pathname === "/api/v4/groups/1/epics") {
      const own = [{ id: 11, iid: 1, group_id: 1, title: "Own" }];
      const sub = [{ id: 97, iid: 7, group_id: 9, title: "In the subgroup" }];
      const descendants = url.searchParams.get("include_descendant_groups") !== "false";
      return answer(res, 200, json, descendants ? [...own, ...sub] : own);
    }
    if (url.pathname === "/api/v4/groups/1/epics/1/related_epics")
      return answer(res, 200, json, []);
    answer(res, 404, json, { message: "404 Not found" });
  });
}

describe("a group's epics without its subgroups' (link_id clean-ups, export)", () => {
  it("reads the related epics of the group's own epics only", async () => {
    const gitlab = await gitlabWithSubgroup();
    const config = configFile(`version: 1
targets:
  gitlab: { type: planning }
groups:
  - group: 1
    epic_links_absent: [{ link_id: 12 }]
`);
    const planned = await runInProcess(["plan", "-c", config, "--sandbox-url", gitlab.url]);
    expect(planned.code).toBe(0);
    expect(gitlab.seen.map((request) => request.url.split("?")[0])).toEqual([
      "/api/v4/groups/1/epics",
      "/api/v4/groups/1/epics/1/related_epics",
    ]);
  });

  it("lists only the group's own epics in export's comment", async () => {
    const gitlab = await gitlabWithSubgroup();
    const exported = await runInProcess(["export", "--group", "1", "--sandbox-url", gitlab.url]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('epic_links_absent): &1 "Own"\n');
    expect(exported.stdout).not.toContain("&7");
  });
});
