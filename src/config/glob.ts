import type { RepositorySelector } from "./model.js";

const cache = new Map<string, RegExp>();

/**
 * A glob as forgeplan uses it for repository names and logins: `*` any run of characters, `?` one
 * character, `[abc]` / `[!abc]` a class; matched case-insensitively, as the service treats these names.
 */
export function globToRegExp(glob: string): RegExp {
  const known = cache.get(glob);
  if (known !== undefined) return known;
  let source = "";
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!;
    if (char === "*") source += ".*";
    else if (char === "?") source += ".";
    else if (char === "[") {
      const end = glob.indexOf("]", index + 2);
      if (end < 0) {
        source += "\\[";
        continue;
      }
      let body = glob.slice(index + 1, end);
      const negated = body.startsWith("!");
      if (negated) body = body.slice(1);
      source += `[${negated ? "^" : ""}${body.replace(/[\\\]^]/g, "\\$&")}]`;
      index = end;
    } else source += char.replace(/[.+^${}()|\\/-]/g, "\\$&");
  }
  const pattern = new RegExp(`^${source}$`, "i");
  cache.set(glob, pattern);
  return pattern;
}

export function matchesGlob(glob: string, text: string): boolean {
  return globToRegExp(glob).test(text);
}

/** Whether a repository ("owner/repo") is selected by an entry's selector, exclusions included. */
export function selectsRepository(selector: RepositorySelector, fullName: string): boolean {
  const slash = fullName.indexOf("/");
  const owner = fullName.slice(0, slash);
  const repo = fullName.slice(slash + 1);
  if (slash < 0 || owner.toLowerCase() !== selector.owner.toLowerCase()) return false;
  if (selector.kind === "name") return repo.toLowerCase() === selector.repo.toLowerCase();
  return (
    matchesGlob(selector.pattern, repo) && !selector.exclude.some((glob) => matchesGlob(glob, repo))
  );
}

/**
 * An entry's selection as the user reads it: `acme/api`, `acme/svc-*` or `acme/* where team=payments`
 * (any of several values joined with `|`); exclusions are not part of it.
 */
export function describeSelector(selector: RepositorySelector): string {
  if (selector.kind === "name") return `${selector.owner}/${selector.repo}`;
  const where = Object.entries(selector.properties ?? {})
    .map(([name, values]) => `${name}=${values.join("|")}`)
    .join(", ");
  return `${selector.owner}/${selector.pattern}${where === "" ? "" : ` where ${where}`}`;
}
