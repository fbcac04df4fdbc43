import { DOCS, type Reply } from "../http.js";
import type { GithubWorld } from "./records.js";

/**
 * A request to a renamed repository's old name is redirected to the repository by id, as GitHub does
 * since 2015: "you'll be able to make an API request using the repository's old location and receive
 * either a 301 or 307 HTTP redirect, depending on the type of request being made" ("Preview
 * repository redirects", developer.github.com/changes/2015-04-17-preview-repository-redirects) — 301
 * for GET and HEAD, 307 for the other methods, so a client repeats a write with its method and body.
 * The body is GitHub's: `{"message": "Moved Permanently", "url": ".../repositories/{id}", …}`
 * (quoted in stackoverflow.com/questions/28863131). `/repositories/{id}/…` is served as the path by
 * names it stands for (id-paths.ts).
 */
export function renamedRedirect(
  method: string,
  url: URL,
  segments: readonly string[],
  world: GithubWorld,
  base: string,
): Reply | undefined {
  const [head, owner, name, ...rest] = segments;
  if (head !== "repos" || owner === undefined || name === undefined) return undefined;
  const repo = world.renamedFrom(owner, name);
  if (repo === undefined) return undefined;
  const path = ["", "repositories", String(repo.id), ...rest.map(encodeURIComponent)].join("/");
  const location = `${base}${path}${url.search}`;
  const permanent = method === "GET";
  return {
    status: permanent ? 301 : 307,
    body: {
      message: permanent ? "Moved Permanently" : "Temporary Redirect",
      url: location,
      documentation_url: DOCS,
    },
    headers: { Location: location },
  };
}
