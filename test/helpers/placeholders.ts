/**
 * Every `${NAME}` placeholder an export wrote (a write-only value it cannot read: a GitLab hook's
 * token, a header's value), set as a user sets them before planning the file.
 */
export function placeholdersOf(text: string): Record<string, string> {
  return Object.fromEntries(
    [...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((match) => [match[1]!, "filled in"]),
  );
}
