import * as z from "zod";
import { projectPath } from "../gitlab-paths.js";
import { projectListing } from "../graphql-read.js";
import type { ProjectLabels } from "./settings.js";

/**
 * A project's labels over GitLab's GraphQL API, as a PARTIAL answer (../graphql-read.ts):
 * `labels(includeAncestorGroups: true)` (doc/api/graphql/reference/_index.md at 0016ea05,
 * "Project.labels", "Label") stands for `GET /projects/:id/labels`, whose default includes the
 * groups' labels above the project (./plan.ts). Each label's title, colour and description are
 * REST's; whose it is, REST's `is_project_label`, is the model its global id names
 * (`gid://gitlab/ProjectLabel/<id>` or `gid://gitlab/GroupLabel/<id>`, the two forms GitLab
 * answers, as the Terraform GitLab provider documents for label ids); any other id leaves the
 * listing to REST. GitLab's `Label` has no `priority` (a project's, `label_priorities`), which an
 * edit must not touch: the answer stands for REST's only while nothing changes, and a project
 * whose labels change has them planned again from REST's listing.
 *
 * Read so only when the value is additive and writes no priority: an authoritative listing deletes
 * what it lacks, so it is read where GitLab documents it whole (REST), and a priority written is
 * compared with the one held. A node with an error or a page that cannot be read leaves the
 * listing to REST.
 */

const node = z.looseObject({
  id: z.string().regex(/^gid:\/\/gitlab\/(ProjectLabel|GroupLabel)\/\d+$/),
  title: z.string().min(1),
  color: z.string(),
  description: z.string().nullable(),
});

/** Whether a value's labels can be compared with GraphQL's answer. */
function comparable(value: ProjectLabels): boolean {
  if (value.mode === "authoritative") return false;
  return Object.values(value.items ?? {}).every(
    (item) => item === null || item.priority === undefined,
  );
}

export const labelGraphql = projectListing<z.infer<typeof node>, ProjectLabels>({
  connection: "labels(includeAncestorGroups: true)",
  nodes: "id title color description",
  node,
  path: (repo) => `${projectPath(repo)}/labels`,
  listed: (nodes) =>
    nodes.map((label) => {
      const [, model, id] = /^gid:\/\/gitlab\/(\w+)\/(\d+)$/.exec(label.id)!;
      return {
        id: Number(id),
        name: label.title,
        color: label.color,
        description: label.description,
        // Not shown by GraphQL: the plan that keeps this answer compares no priority.
        priority: null,
        is_project_label: model === "ProjectLabel",
      };
    }),
  reads: comparable,
  partial: true,
});
