import { z } from "zod";
import { check, type SeedPath } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import type { Group, Project } from "../world/records.js";
import { storedColor, validColor } from "./colors.js";
import {
  issuesOf,
  type Label,
  labelIds,
  labelsOf,
  type Labelled,
  mergeRequestsOf,
  prioritiesOf,
} from "./records.js";
import { gitlabLabelRoutes } from "./routes.js";

/**
 * Labels of projects and groups (the `gitlab_label` kind), and the issues and merge requests of
 * projects that carry them by name (a project's own labels or its groups'), so a rename can be
 * seen to keep them. A colour is stored as GitLab stores what a create sends (`red` as `#FF0000`).
 */

const labelSeed = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(255)
    .refine((name) => name.trim() === name && !name.includes(","), "not a label name GitLab keeps"),
  color: z.string().refine((color) => validColor(storedColor(color)), "must be a valid color code"),
  description: z.string().nullable().default(null),
  /** A project's label: its priority there. */
  priority: z.number().int().min(0).nullable().default(null),
});

const labelledSeed = z.strictObject({
  title: z.string().min(1),
  state: z.enum(["opened", "closed"]).default("opened"),
  /** Names of labels the project sees (its own, or a group's above it). */
  labels: z.array(z.string()).default([]),
});

const labels = z.array(labelSeed).default([]);
const labelled = z.array(labelledSeed).default([]);

function groupsFrom(group: Group | null): Group[] {
  const found: Group[] = [];
  for (let at = group; at !== null; at = at.parent) found.push(at);
  return found;
}

export const gitlabLabels = gitlabArea({
  name: "labels",
  seed: {
    projects: { labels, issues: labelled, merge_requests: labelled },
    groups: { labels },
  },
  demo: {
    groups: [
      {
        path: "acme",
        labels: [
          { name: "bug", color: "#d9534f", description: "Something is broken" },
          { name: "documentation", color: "#f0ad4e", description: null },
        ],
      },
      { path: "platform", labels: [{ name: "infra", color: "teal", description: null }] },
    ],
    projects: [
      {
        id: 1,
        labels: [
          {
            name: "enhancement",
            color: "#5CB85C",
            description: "Enhancement proposal",
            priority: 1,
          },
          { name: "needs-triage", color: "orange", description: null },
          { name: "legacy", color: "#F00", description: "Kept for old issues" },
        ],
        issues: [
          { title: "Login fails on Safari", labels: ["bug", "needs-triage"] },
          { title: "Paginate the orders listing", labels: ["enhancement"] },
          { title: "Crash on start", state: "closed", labels: ["bug", "legacy"] },
        ],
        merge_requests: [{ title: "Paginate the orders listing", labels: ["enhancement"] }],
      },
      {
        id: 3,
        issues: [{ title: "Rotate the runners' certificates", labels: ["infra", "bug"] }],
      },
    ],
  },
  build(world, seed) {
    const ids = labelIds(world);
    const add = (
      owner: { project: Project } | { group: Group },
      entries: z.output<typeof labels>,
      at: SeedPath,
    ) => {
      const record = "project" in owner ? owner.project : owner.group;
      entries.forEach((entry, index) => {
        check(
          !labelsOf(record).some((other) => other.title === entry.name),
          [...at, index, "name"],
          `label '${entry.name}' is there twice`,
        );
        const label: Label = {
          id: ids.label++,
          title: entry.name,
          color: storedColor(entry.color),
          description: entry.description,
          owner,
        };
        labelsOf(record).push(label);
        if ("project" in owner && entry.priority !== null) {
          prioritiesOf(owner.project).set(label.id, entry.priority);
        }
      });
    };
    seed.groups.forEach((entry, index) => {
      const group = world.seeded.groups[index];
      if (group !== undefined) add({ group }, entry.labels, ["groups", index, "labels"]);
    });
    seed.projects.forEach((entry, index) => {
      const project = world.seeded.projects[index];
      const empty = entry.labels.length + entry.issues.length + entry.merge_requests.length === 0;
      check(project !== undefined || empty, ["projects", index], "no project");
      if (project === undefined) return;
      add({ project }, entry.labels, ["projects", index, "labels"]);
      const visible = [project.group, ...groupsFrom(project.group.parent)].flatMap((group) =>
        labelsOf(group),
      );
      const carried = (names: string[], at: SeedPath): Label[] =>
        names.map((name, position) => {
          const label =
            labelsOf(project).find((own) => own.title === name) ??
            visible.find((inherited) => inherited.title === name);
          check(label !== undefined, [...at, position], `no label '${name}' in this project`);
          return label;
        });
      const items = (list: Labelled[], entries: z.output<typeof labelled>, key: string) => {
        entries.forEach((item, position) => {
          const next = key === "issues" ? ids.issue++ : ids.mergeRequest++;
          list.push({
            id: next,
            iid: list.length + 1,
            title: item.title,
            state: item.state,
            labels: carried(item.labels, ["projects", index, key, position, "labels"]),
          });
        });
      };
      items(issuesOf(project), entry.issues, "issues");
      items(mergeRequestsOf(project), entry.merge_requests, "merge_requests");
    });
  },
  routes: gitlabLabelRoutes,
});
