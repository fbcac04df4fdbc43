/**
 * The slug GitHub makes of a team's name: lower case, each run of characters other than letters and
 * digits one hyphen, none at either end ("Justice League" → "justice-league", the example of GitHub's
 * Team schema in @octokit/openapi).
 */
export function slugOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
