/** Case-insensitive shell-style globs (`*`, `?`) over names such as logins and repository names. */
export function globToRegExp(pattern: string): RegExp {
  const source = pattern
    .split("")
    .map((char) => (char === "*" ? ".*" : char === "?" ? "." : char.replace(/[\\^$.|+()[\]{}]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}$`, "i");
}

export function matchesAny(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => globToRegExp(pattern).test(name));
}
