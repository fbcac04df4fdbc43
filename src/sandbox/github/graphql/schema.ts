import { readFileSync } from "node:fs";
import { buildASTSchema, type GraphQLSchema, parse } from "graphql";

/**
 * GitHub's published GraphQL schema (`@octokit/graphql-schema`, pinned in package.json), built once
 * per process on the first GraphQL request: parsing its 1.2 MB of SDL takes most of a second, which
 * a sandbox that is never asked a GraphQL query should not pay.
 *
 * The SDL does not pass graphql-js's own SDL checks (it defines some fields twice, e.g.
 * `EnterpriseOwnerInfo.repositoryDeployKeySetting`), so it is built with `assumeValidSDL`, as the
 * package's README says of graphql 16. Queries are still validated against it in full.
 */
let built: GraphQLSchema | undefined;

export function githubSchema(): GraphQLSchema {
  if (built === undefined) {
    // The package exports only its index, which parses the 5 MB introspection JSON on import;
    // the SDL sits beside it.
    const sdl = new URL("schema.graphql", import.meta.resolve("@octokit/graphql-schema"));
    const document = parse(readFileSync(sdl, "utf8"), { noLocation: true });
    built = buildASTSchema(document, { assumeValidSDL: true });
  }
  return built;
}
