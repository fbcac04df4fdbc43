import type { Schema } from "../../src/sandbox/core/openapi-check.js";
import {
  check,
  enterprise,
  enterpriseSchemas,
  github,
  type OpenApi,
  responseSchema,
  specSchemas,
} from "../sandbox/openapi-check.js";

/**
 * GitHub's operations by the concrete paths a client sends, so every answer the sandbox gives a kind
 * can be checked against the response schema GitHub publishes for it.
 */

interface Template {
  path: string;
  pattern: RegExp;
  /** Literal segments: among templates that match, the most literal wins (`/hooks/{id}/config`). */
  literals: number;
}

/** api.github.com's operations, then those only GitHub Enterprise Cloud describes (custom roles). */
const PATHS = [
  ...Object.keys(github.paths),
  ...Object.keys(enterprise.paths).filter((path) => github.paths[path] === undefined),
];

function describing(path: string): { description: OpenApi; schemas: Record<string, Schema> } {
  return github.paths[path] !== undefined
    ? { description: github, schemas: specSchemas }
    : { description: enterprise, schemas: enterpriseSchemas };
}

const TEMPLATES: Template[] = PATHS.map((path) => {
  const segments = path.split("/");
  const source = segments
    .map((segment) =>
      /^\{.+\}$/.test(segment) ? "[^/]+" : segment.replace(/[.*+?^$()|[\]\\]/g, "\\$&"),
    )
    .join("/");
  return {
    path,
    pattern: new RegExp(`^${source}$`),
    literals: segments.filter((segment) => !segment.startsWith("{")).length,
  };
});

/** GitHub's path template for a concrete path (without its query), or undefined. */
export function templateOf(path: string): string | undefined {
  const bare = path.split("?")[0]!;
  let best: Template | undefined;
  for (const template of TEMPLATES) {
    if (!template.pattern.test(bare)) continue;
    if (best === undefined || template.literals > best.literals) best = template;
  }
  return best?.path;
}

/**
 * Where the sandbox answers differently from GitHub's published response schema on purpose: by
 * operation, the problems allowed. docs/sandbox.md ("Where the sandbox follows the spec rather than GitHub") lists
 * the same, with why.
 */
const HOOK_SHAPE = [
  "missing required 'name'",
  "missing required 'ping_url'",
  "missing required 'test_url'",
  "missing required 'last_response'",
];

export const RESPONSE_DEVIATIONS: Readonly<Record<string, readonly string[]>> = {
  // The spec's Hook: `url` is the delivery URL, with `content_type`, `branch_filter`,
  // `authorization_header` and `metadata`, and none of GitHub's name, ping_url, test_url and
  // last_response (docs/sandbox.md, "Where the sandbox follows the spec rather than GitHub").
  "GET /repos/{owner}/{repo}/hooks": HOOK_SHAPE,
  "POST /repos/{owner}/{repo}/hooks": HOOK_SHAPE,
  "GET /repos/{owner}/{repo}/hooks/{hook_id}": HOOK_SHAPE,
  "PATCH /repos/{owner}/{repo}/hooks/{hook_id}": HOOK_SHAPE,
  // A private repository has no private vulnerability reporting: GitHub answers 404 there
  // (observed: veryfront/veryfront-code#2708), an answer its description does not publish.
  "GET /repos/{owner}/{repo}/private-vulnerability-reporting": [
    "GitHub publishes no 404 answer for it",
  ],
};

/**
 * Operations the spec does not define, whose users are GitHub's (`gravatar_id`, not the spec's
 * `avatar_ref_id`): checked against GitHub's schemas as published.
 */
const GITHUB_SHAPED = new Set(["GET /user", "GET /users/{username}"]);

/** The problems of one answer against GitHub's published schema, or a reason it has none to check. */
export function responseProblems(
  method: string,
  path: string,
  status: number,
  body: unknown,
): { operation: string; problems: string[] } {
  const template = templateOf(path);
  const operation = `${method} ${template ?? path.split("?")[0]}`;
  if (template === undefined) return { operation, problems: ["not an operation GitHub publishes"] };
  if (status === 204 || status === 304 || body === undefined) return { operation, problems: [] };
  const allowed = RESPONSE_DEVIATIONS[operation] ?? [];
  const { description, schemas } = describing(template);
  const published = description.paths[template]?.[method.toLowerCase()]?.responses[String(status)];
  // A status GitHub publishes without a body schema ("if user has no team membership") has
  // nothing to check the body against.
  if (published !== undefined && published.$ref === undefined && !("content" in published)) {
    return { operation, problems: [] };
  }
  let schema: Schema;
  try {
    schema = responseSchema(template, method.toLowerCase(), String(status), description);
  } catch {
    const problem = `GitHub publishes no ${status} answer for it`;
    return { operation, problems: allowed.includes(problem) ? [] : [problem] };
  }
  // GitHub's own shape where the spec defines none of the operation's (docs/sandbox.md).
  const against = GITHUB_SHAPED.has(operation) ? github.components.schemas : schemas;
  // A deviation is of the answer itself, or of each item of a list: `$: …` or `$[3]: …`.
  const deviates = (problem: string) => allowed.includes(problem.replace(/^\$(\[\d+\])?: /, ""));
  return {
    operation,
    problems: check(schema, body, against).filter((problem) => !deviates(problem)),
  };
}
