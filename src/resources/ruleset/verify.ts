import type { DiffEntry, PlannedRequest } from "../../core/plan.js";
import { diffValues } from "../diff.js";
import { type CoverageExpectation, uncovered } from "./classic.js";
import { normalizeRuleset, RULESET_SHAPE, shown } from "./canonical.js";

const noNamer = () => undefined;

/**
 * A ruleset write is compared with the ruleset the service answered (ids, not names); the GET of a
 * branch's rules with what the change expects of it.
 */
export function verifyWritten(request: PlannedRequest, response: unknown): DiffEntry[] {
  if (request.method === "GET") {
    const expected = request.expect as CoverageExpectation;
    if (!Array.isArray(response)) {
      return [
        {
          path: `rules of branch ${expected.branch}`,
          before: "a list of rules",
          after: "something else",
        },
      ];
    }
    return uncovered(response as Array<{ type?: unknown }>, expected.rules).map((gap) => ({
      ...gap,
      path: `rules of branch ${expected.branch}: ${gap.path}`,
    }));
  }
  const sent = normalizeRuleset(request.body, true);
  const answered = normalizeRuleset(response, true);
  if (sent.kind !== "ok" || answered.kind !== "ok") {
    return [{ path: "(response)", before: RULESET_SHAPE.name, after: "something else" }];
  }
  const diff = diffValues(shown(sent.ruleset, noNamer), shown(answered.ruleset, noNamer));
  if (sent.ruleset.name !== answered.ruleset.name) {
    diff.push({ path: "name", before: sent.ruleset.name, after: answered.ruleset.name });
  }
  return diff;
}
