import * as z from "zod";
import { check, login, type SeedPath, timestamp } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import { addEpicLink, type Epic, epicsOf, linksOf, storedLink } from "./records.js";
import { epicLinkRoutes } from "./routes.js";

/** Groups' epics and the related-epic links between them (the `epic_link` kind). */

const epic = z.strictObject({
  iid: z.number().int().positive(),
  title: z.string().min(1),
  description: z.string().default(""),
  state: z.enum(["opened", "closed"]).default("opened"),
  author: login.optional(),
  created_at: timestamp.default("2026-01-02T09:00:00Z"),
});

/** An epic reference in GitLab's cross-group syntax: `GROUP_FULL_PATH&IID`. */
const epicRef = z.string().regex(/^[A-Za-z0-9_./-]+&\d+$/, "expected GROUP&IID, e.g. acme&1");

function epicKey(ref: string): [string, number] {
  const [groupPath = "", iid = "0"] = ref.split("&");
  return [groupPath.toLowerCase(), Number(iid)];
}

export const epicLinks = gitlabArea({
  name: "epic-links",
  seed: {
    groups: { epics: z.array(epic).default([]) },
    epic_links: {
      id: z.number().int().positive(),
      source: epicRef,
      target: epicRef,
      link_type: z.enum(["relates_to", "blocks", "is_blocked_by"]).default("relates_to"),
      created_at: timestamp.default("2026-01-02T09:00:00Z"),
    },
  },
  demo: {
    groups: [
      {
        path: "acme",
        epics: [
          { iid: 1, title: "Platform v2", author: "octo-admin" },
          { iid: 2, title: "Auth revamp", author: "octo-admin" },
          { iid: 3, title: "Observability", author: "octo-dev" },
        ],
      },
      { path: "partners", epics: [{ iid: 1, title: "Partner API", author: "octo-admin" }] },
    ],
    epic_links: [
      { id: 1, source: "acme&1", target: "acme&2", link_type: "relates_to" },
      { id: 2, source: "acme&3", target: "partners&1", link_type: "relates_to" },
    ],
  },
  build(world, seed) {
    let epicId = 1;
    seed.groups.forEach((groupSeed, index) => {
      const group = world.seeded.groups[index];
      if (group === undefined) return;
      const epics = epicsOf(group);
      groupSeed.epics.forEach((epicSeed, epicIndex) => {
        const at = ["groups", index, "epics", epicIndex];
        check(!epics.has(epicSeed.iid), [...at, "iid"], `epic iid ${epicSeed.iid} is used twice`);
        const author = epicSeed.author === undefined ? null : world.user(epicSeed.author);
        check(author !== undefined, [...at, "author"], `unknown user '${epicSeed.author}'`);
        const built: Epic = {
          id: epicId++,
          iid: epicSeed.iid,
          group,
          title: epicSeed.title,
          description: epicSeed.description,
          state: epicSeed.state,
          author,
          created_at: epicSeed.created_at,
          updated_at: epicSeed.created_at,
        };
        epics.set(built.iid, built);
      });
    });
    const links = linksOf(world);
    seed.epic_links.forEach((linkSeed, index) => {
      const path: SeedPath = ["epic_links", index];
      const find = (ref: string, key: string): Epic => {
        const [groupPath, iid] = epicKey(ref);
        const group = world.groupsByPath.get(groupPath);
        const found = group === undefined ? undefined : epicsOf(group).get(iid);
        check(found !== undefined, [...path, key], `unknown epic '${ref}'`);
        return found;
      };
      check(
        !links.byId.has(linkSeed.id),
        [...path, "id"],
        `epic link id ${linkSeed.id} is used twice`,
      );
      addEpicLink(world, {
        id: linkSeed.id,
        ...storedLink(
          find(linkSeed.source, "source"),
          find(linkSeed.target, "target"),
          linkSeed.link_type,
        ),
        created_at: linkSeed.created_at,
        updated_at: linkSeed.created_at,
      });
    });
    for (const id of links.byId.keys()) links.nextId = Math.max(links.nextId, id + 1);
  },
  routes: epicLinkRoutes,
});
