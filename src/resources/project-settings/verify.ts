import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import { agrees, liveValue, projectAnswer } from "./canonical.js";

/**
 * What GitLab did not keep of a write to a project, each as its answer shows it:
 *
 * - `PUT /projects/:id` and the create (`POST /projects`): each field sent; a field a lower tier
 *   drops (`allow_pipeline_trigger_approve_deployment` below Premium) is missing from the answer and
 *   is reported as not kept, as GitLab answered. The create's `namespace_id` is the answer's
 *   `namespace.id`, and `name` is not compared (GitLab may keep it as given or derive it);
 * - `PUT …/transfer`: the answer's namespace is the one named;
 * - `POST …/archive` and `…/unarchive`: the answer's `archived`.
 */
export function verifyProjectSettings(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method !== "PUT" && request.method !== "POST") return [];
  const parsed = projectAnswer.schema.safeParse(response);
  if (!parsed.success)
    return [{ path: "(response)", before: "a project", after: "something else" }];
  const answer = parsed.data as Record<string, unknown> & typeof parsed.data;
  const archiving = /\/(archive|unarchive)$/.exec(request.path);
  if (archiving !== null) {
    const wanted = archiving[1] === "archive";
    return diffValues({ archived: wanted }, { archived: answer.archived ?? null });
  }
  const body = (request.body ?? {}) as Record<string, unknown>;
  if (request.path.endsWith("/transfer")) {
    const namespace = answer.path_with_namespace.slice(
      0,
      answer.path_with_namespace.lastIndexOf("/"),
    );
    const sent = String(body.namespace);
    return diffValues(
      { namespace: sent },
      { namespace: namespace.toLowerCase() === sent.toLowerCase() ? sent : namespace },
    );
  }
  const sent: Record<string, unknown> = {};
  const kept: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) {
    if (field === "name") continue;
    const shown =
      field === "namespace_id"
        ? (answer.namespace as { id?: unknown } | undefined)?.id
        : liveValue(answer, field);
    sent[field] = value;
    kept[field] = agrees(field, value, shown) ? value : (shown ?? null);
  }
  return diffValues(sent, kept);
}
