import * as z from "zod";
import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import {
  desiredSecurity,
  fullRepository,
  liveSecurity,
  liveVisibility,
  noneIfEmpty,
  PATCH_FIELDS,
  topicSet,
} from "./canonical.js";
import type { SecurityAndAnalysis } from "./settings.js";

const topicsAnswer = z.looseObject({ names: z.array(z.string()) });
const branchAnswer = z.looseObject({ name: z.string() });

/** What a repository's answer (to its PATCH or its creation) shows of what the request sent. */
function repositoryKept(body: Record<string, unknown>, response: unknown): DiffEntry[] {
  const parsed = fullRepository.schema.safeParse(response);
  if (!parsed.success)
    return [{ path: "(response)", before: "a repository", after: "something else" }];
  const answer = parsed.data;
  const sent: Record<string, unknown> = {};
  const kept: Record<string, unknown> = {};
  const compare = (key: string, expected: unknown, actual: unknown) => {
    sent[key] = expected;
    kept[key] = actual;
  };
  for (const field of [...PATCH_FIELDS, "default_branch", "archived", "name"] as const) {
    if (body[field] === undefined) continue;
    const canonical = (value: unknown) =>
      field === "description" || field === "homepage" ? noneIfEmpty(value) : value;
    compare(field, canonical(body[field]), canonical(answer[field]));
  }
  if (body.visibility !== undefined) compare("visibility", body.visibility, liveVisibility(answer));
  if (body.private !== undefined) compare("private", body.private, answer.private);
  const security = body.security_and_analysis as SecurityAndAnalysis | undefined;
  if (security !== undefined) {
    const wanted = desiredSecurity(security);
    const live = liveSecurity(answer);
    compare(
      "security_and_analysis",
      wanted,
      Object.fromEntries(Object.keys(wanted).map((key) => [key, live[key as keyof typeof live]])),
    );
  }
  return diffValues(sent, kept);
}

/**
 * What the service did not keep of a settings write: the repository's answer to a PATCH or a
 * creation, the topics' answer to their PUT, the branch's answer to its rename. The toggles answer
 * 204 without a body: the plan that verifies the apply reads them again.
 */
export function verifySettings(request: PlannedRequest, response: unknown): DiffEntry[] {
  const body = (request.body ?? {}) as Record<string, unknown>;
  if (request.path.endsWith("/topics")) {
    const parsed = topicsAnswer.safeParse(response);
    if (!parsed.success)
      return [{ path: "(response)", before: "a Topic", after: "something else" }];
    return diffValues(
      { topics: topicSet(body.names as string[]) },
      { topics: topicSet(parsed.data.names) },
    );
  }
  if (request.path.endsWith("/rename")) {
    const parsed = branchAnswer.safeParse(response);
    if (!parsed.success)
      return [{ path: "(response)", before: "a branch", after: "something else" }];
    return diffValues({ name: body.new_name }, { name: parsed.data.name });
  }
  if (
    request.method === "PATCH" ||
    (request.method === "POST" && request.path.endsWith("/repos"))
  ) {
    return repositoryKept(body, response);
  }
  return [];
}
