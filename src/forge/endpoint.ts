/** Leading segments that name an account or a repository, and the placeholders that replace them. */
const SCOPES: ReadonlyArray<{ prefix: readonly string[]; names: readonly string[] }> = [
  { prefix: ["repos"], names: ["{owner}", "{repo}"] },
  { prefix: ["orgs"], names: ["{org}"] },
  { prefix: ["users"], names: ["{user}"] },
  { prefix: ["api", "v4", "projects"], names: ["{id}"] },
  { prefix: ["api", "v4", "groups"], names: ["{id}"] },
];

/**
 * The endpoint a request path belongs to, as a route template — the unit GitHub's secondary limit
 * counts points in. Derived from the literal path (relative to the base URL, query ignored):
 *
 * - `/repos/{owner}/{repo}/…`, `/orgs/{org}/…`, `/users/{user}/…`, `/api/v4/projects/{id}/…` and
 *   `/api/v4/groups/{id}/…`: the owner, repository, organization, user, project and group segments
 *   (names, numeric ids or encoded `group%2Fproject` paths) become placeholders;
 * - in a repository, what follows `branches/` up to a `protection` segment, or to the end, is
 *   `{branch}` — a branch name may hold slashes, encoded or not;
 * - every other all-digit segment is `{n}` (hook, issue, comment, epic, board, migration ids).
 *
 * The method is left out, so reads and writes of one path share a budget. Named segments the rule
 * does not know stay literal; no path the planner sends has one.
 */
export function endpointKey(path: string): string {
  const segments = (path.split("?")[0] ?? "").split("/").filter((s) => s !== "");
  const out: string[] = [];
  let rest = segments;
  const scope = SCOPES.find(
    (s) => segments.length > s.prefix.length && s.prefix.every((part, i) => segments[i] === part),
  );
  if (scope !== undefined) {
    const named = segments.slice(scope.prefix.length, scope.prefix.length + scope.names.length);
    out.push(...scope.prefix, ...scope.names.slice(0, named.length));
    rest = segments.slice(scope.prefix.length + named.length);
    if (scope.prefix[0] === "repos" && rest[0] === "branches" && rest.length > 1) {
      const end = rest.indexOf("protection", 1);
      out.push("branches", "{branch}");
      rest = end === -1 ? [] : rest.slice(end);
    }
  }
  for (const segment of rest) out.push(/^\d+$/.test(segment) ? "{n}" : segment);
  return `/${out.join("/")}`;
}
