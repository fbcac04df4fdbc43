import * as z from "zod";
import { check, type SeedPath } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import type { Group, Project } from "../world/records.js";
import { storedColor, validColor } from "./colors.js";
import { type Label, labelIds, labelsOf, prioritiesOf } from "./records.js";
import { gitlabLabelRoutes } from "./routes.js";

/**
 * Labels of projects and groups (the `gitlab_label` kind). The issues and merge requests that
 * carry them are the issues and merge-requests areas' (which name them in a seed and hold the
 * records, so a rename keeps them); this area counts them and takes a deleted label off them. A
 * colour is stored as GitLab stores what a create sends (`red` as `#FF0000`).
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

const labels = z.array(labelSeed).default([]);

export const gitlabLabels = gitlabArea({
  name: "labels",
  seed: {
    projects: { labels },
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
      check(project !== undefined || entry.labels.length === 0, ["projects", index], "no project");
      if (project !== undefined) add({ project }, entry.labels, ["projects", index, "labels"]);
    });
  },
  /** The `full` profile: two labels of the project's own, beside those it inherits from acme. */
  generateProjects:
    (_seed, { profile }) =>
    (entry) => {
      if (profile !== "full") return;
      entry.labels = [
        { name: "flaky-test", color: "#d9534f", description: "Fails now and then" },
        { name: "enhancement", color: "#5cb85c", description: null },
      ];
    },
  routes: gitlabLabelRoutes,
});
