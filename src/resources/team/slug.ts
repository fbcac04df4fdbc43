/**
 * The slug GitHub gives a team of this name: lower case, each run of characters other than letters
 * and digits one hyphen, none at either end ("Justice League" is `justice-league` in the examples of
 * GitHub's Team schema, @octokit/openapi). Renaming a team changes its slug with it.
 */
export function slugOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
