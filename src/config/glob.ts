import type { Selector } from "./model.js";

const caches = { flat: new Map<string, RegExp>(), levels: new Map<string, RegExp>() };

/**
 * A glob as forgeplan uses it for repository names and logins: `*` any run of characters, `?` one
 * character, `[abc]` / `[!abc]` a class; matched case-insensitively, as the service treats these names.
 * Over paths of several levels (a project's path below a group, `levels`), `*`, `?` and classes stay
 * within one level and `**` crosses levels; `**` then a slash also matches no level at all.
 */
export function globToRegExp(glob: string, levels = false): RegExp {
  const cache = caches[levels ? "levels" : "flat"];
  const known = cache.get(glob);
  if (known !== undefined) return known;
  const one = levels ? "[^/]" : ".";
  let source = "";
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!;
    if (levels && char === "*" && glob[index + 1] === "*") {
      const anyLevels = glob[index + 2] === "/";
      source += anyLevels ? "(?:.*/)?" : ".*";
      index += anyLevels ? 2 : 1;
    } else if (char === "*") source += `${one}*`;
    else if (char === "?") source += one;
    else if (char === "[") {
      const end = glob.indexOf("]", index + 2);
      if (end < 0) {
        source += "\\[";
        continue;
      }
      let body = glob.slice(index + 1, end);
      const negated = body.startsWith("!");
      if (negated) body = body.slice(1);
      const within = levels ? "(?!/)" : "";
      source += `${within}[${negated ? "^" : ""}${body.replace(/[\\\]^]/g, "\\$&")}]`;
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

/** The name an entry's selector gives what it selects: `owner/name`, or a project's id alone. */
export function selectedName(owner: string, name: string): string {
  return owner === "" ? name : `${owner}/${name}`;
}

/**
 * Whether a project (its full path) is selected by an entry's selector, exclusions included: a glob
 * selects the projects below its group whose path there matches.
 */
export function selectsProject(selector: Selector, fullPath: string): boolean {
  if (selector.kind === "name") {
    return selectedName(selector.owner, selector.repo).toLowerCase() === fullPath.toLowerCase();
  }
  const root = `${selector.owner.toLowerCase()}/`;
  if (!fullPath.toLowerCase().startsWith(root)) return false;
  const below = fullPath.slice(root.length);
  return (
    globToRegExp(selector.pattern, true).test(below) &&
    !selector.exclude.some((glob) => globToRegExp(glob, true).test(below))
  );
}

/** Whether a repository ("owner/repo") is selected by an entry's selector, exclusions included. */
export function selectsRepository(selector: Selector, fullName: string): boolean {
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
export function describeSelector(selector: Selector): string {
  if (selector.kind === "name") return selectedName(selector.owner, selector.repo);
  const where = Object.entries(selector.properties ?? {})
    .map(([name, values]) => `${name}=${values.join("|")}`)
    .join(", ");
  return `${selector.owner}/${selector.pattern}${where === "" ? "" : ` where ${where}`}`;
}
