import { githubError, type RequestContext } from "../http.js";

/**
 * GitHub's rules for the names of secrets and variables ("Naming your secrets", "Naming conventions
 * for configuration variables", GitHub's docs): letters, digits and underscores, not starting with a
 * digit or `GITHUB_`, compared case-insensitively (GitHub keeps them upper-cased).
 */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function nameProblem(name: string): string | undefined {
  if (!NAME.test(name)) {
    return `${name} may only contain alphanumeric characters ([a-z], [A-Z], [0-9]) or underscores (_), and may not start with a number`;
  }
  if (name.toUpperCase().startsWith("GITHUB_")) return `${name} must not start with GITHUB_`;
  return undefined;
}

/** The name in a path, as GitHub keeps it; 404 for one that cannot be a name (nothing has it). */
export function pathName(ctx: RequestContext, param: string): string {
  const name = ctx.params[param] ?? "";
  if (nameProblem(name) !== undefined) throw githubError(404, "Not Found");
  return name.toUpperCase();
}
