import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/cli.js";
import { configFile } from "../helpers/sandbox.js";
import { answer, hostile, json } from "./server.js";

/**
 * GitLab's `GET /groups/:id/epics` lists the epics of every subgroup as well unless
 * `include_descendant_groups=false` (gitlab-ee!4182 "Include epics from subgroups"). Group 1 (acme)
 * here has epic &1; its subgroup (id 9, acme/sub) has an epic whose iid, 7, counts in the subgroup
 * only.
 */
function gitlabWithSubgroup() {
  const own = [{ id: 11, iid: 1, group_id: 1, title: "Own" }];
  const sub = [{ id: 97, iid: 7, group_id: 9, title: "In the subgroup" }];
  return hostile((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://gitlab.invalid");
    const descendants = url.searchParams.get("include_descendant_groups") !== "false";
    if (["/api/v4/groups/1/epics", "/api/v4/groups/acme/epics"].includes(url.pathname)) {
      return answer(res, 200, json, descendants ? [...own, ...sub] : own);
    }
    if (url.pathname === "/api/v4/groups/acme%2Fsub/epics") return answer(res, 200, json, sub);
    // What an export reads of each group besides its epics: the group and its lists (members,
    // badges, variables, labels, webhooks), here all empty.
    const group = {
      "1": { id: 1, full_path: "acme" },
      acme: { id: 1, full_path: "acme" },
      "acme%2Fsub": { id: 9, full_path: "acme/sub" },
    };
    const at = /^\/api\/v4\/groups\/(1|acme|acme%2Fsub)(\/.*)?$/.exec(url.pathname);
    if (at !== null && at[2] === undefined)
      return answer(res, 200, json, { ...group[at[1] as "1"], shared_with_groups: [] });
    const lists = ["/members", "/members/all", "/badges", "/variables", "/labels", "/hooks"];
    if (at !== null && lists.includes(at[2]!)) return answer(res, 200, json, []);
    if (url.pathname === "/api/v4/groups/1/descendant_groups") {
      return answer(res, 200, json, [{ id: 9, full_path: "acme/sub" }]);
    }
    if (url.pathname === "/api/v4/groups/1/projects") return answer(res, 200, json, []);
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

  it("lists each group's own epics in export's comments, the subgroup's on its own line", async () => {
    const gitlab = await gitlabWithSubgroup();
    const exported = await runInProcess(["export", "--group", "1", "--sandbox-url", gitlab.url]);
    expect(exported.stdout.split("\n").filter((line) => line.includes("not exported"))).toEqual([]);
    expect(exported.stderr).toBe("");
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain(
      '# group acme epics (name links between them under groups[].epic_links_absent): &1 "Own"\n',
    );
    expect(exported.stdout).toContain(
      '# group acme/sub epics (name links between them under groups[].epic_links_absent): &7 "In the subgroup"\n',
    );
  });
});
