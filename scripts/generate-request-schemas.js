// Writes src/sandbox/github/request-schemas.json: the request-body schemas GitHub publishes (in
// @octokit/openapi, a devDependency) for the write operations the sandbox serves on GitHub's paths, so the shipped sandbox checks bodies as GitHub does without loading the whole description.
// `$ref`s are inlined and only the keywords the checker reads are kept. test/sandbox/request-schemas
// .test.ts fails when the committed file differs from what this prints: after an update of
// @octokit/openapi, or a new operation below, run `node scripts/generate-request-schemas.js`.
// Usage: node scripts/generate-request-schemas.js [--stdout]
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";

/** `METHOD /path`, as the sandbox's routes name them (`Route.operation`). */
export const OPERATIONS = [
  "PUT /repos/{owner}/{repo}/branches/{branch}/protection",
  "POST /repos/{owner}/{repo}/hooks",
  "PATCH /repos/{owner}/{repo}/hooks/{hook_id}",
  "PATCH /repos/{owner}/{repo}/hooks/{hook_id}/config",
  "POST /repos/{owner}/{repo}/pulls",
  "PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge",
  "POST /repos/{owner}/{repo}/issues",
  "PATCH /repos/{owner}/{repo}/issues/{issue_number}",
  "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
  "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}",
  "POST /repos/{owner}/{repo}/rulesets",
  "PUT /repos/{owner}/{repo}/rulesets/{ruleset_id}",
  "POST /orgs/{org}/rulesets",
  "PUT /orgs/{org}/rulesets/{ruleset_id}",
  "PUT /orgs/{org}/properties/schema/{custom_property_name}",
  "PATCH /orgs/{org}/properties/values",
  "PATCH /repos/{owner}/{repo}/properties/values",
  "POST /repos/{owner}/{repo}/keys",
  "POST /repos/{owner}/{repo}/pages",
  "PUT /repos/{owner}/{repo}/pages",
  "POST /app/installations/{installation_id}/access_tokens",
  "PATCH /repos/{owner}/{repo}",
  "PUT /repos/{owner}/{repo}/topics",
  "POST /repos/{owner}/{repo}/branches/{branch}/rename",
  "POST /orgs/{org}/repos",
  "POST /user/repos",
  "PUT /repos/{owner}/{repo}/collaborators/{username}",
  "PATCH /repos/{owner}/{repo}/invitations/{invitation_id}",
  "PUT /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}",
  "POST /orgs/{org}/teams",
  "PATCH /orgs/{org}/teams/{team_slug}",
  "PUT /orgs/{org}/teams/{team_slug}/memberships/{username}",
  "POST /repos/{owner}/{repo}/labels",
  "PATCH /repos/{owner}/{repo}/labels/{name}",
  "PUT /repos/{owner}/{repo}/environments/{environment_name}",
  "POST /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies",
  "PUT /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies/{branch_policy_id}",
  "POST /repos/{owner}/{repo}/autolinks",
  "POST /orgs/{org}/hooks",
  "PATCH /orgs/{org}/hooks/{hook_id}",
  "PATCH /orgs/{org}/hooks/{hook_id}/config",
  "PATCH /orgs/{org}",
  "PUT /repos/{owner}/{repo}/actions/permissions",
  "PUT /repos/{owner}/{repo}/actions/permissions/selected-actions",
  "PUT /repos/{owner}/{repo}/actions/permissions/workflow",
  "PUT /repos/{owner}/{repo}/actions/permissions/access",
  "PUT /orgs/{org}/actions/permissions",
  "PUT /orgs/{org}/actions/permissions/repositories",
  "PUT /orgs/{org}/actions/permissions/selected-actions",
  "PUT /orgs/{org}/actions/permissions/workflow",
  "POST /repos/{owner}/{repo}/actions/variables",
  "PATCH /repos/{owner}/{repo}/actions/variables/{name}",
  "POST /repos/{owner}/{repo}/environments/{environment_name}/variables",
  "PATCH /repos/{owner}/{repo}/environments/{environment_name}/variables/{name}",
  "POST /orgs/{org}/actions/variables",
  "PATCH /orgs/{org}/actions/variables/{name}",
  "PUT /orgs/{org}/actions/variables/{name}/repositories",
  "PUT /repos/{owner}/{repo}/actions/secrets/{secret_name}",
  "PUT /repos/{owner}/{repo}/dependabot/secrets/{secret_name}",
  "PUT /repos/{owner}/{repo}/environments/{environment_name}/secrets/{secret_name}",
  "PUT /orgs/{org}/actions/secrets/{secret_name}",
  "PUT /orgs/{org}/actions/secrets/{secret_name}/repositories",
  "PUT /orgs/{org}/dependabot/secrets/{secret_name}",
  "PUT /orgs/{org}/dependabot/secrets/{secret_name}/repositories",
];

const KEPT = new Set([
  "type",
  "nullable",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "allOf",
  "anyOf",
  "oneOf",
  "format",
]);

function prune(schema, components) {
  if (typeof schema.$ref === "string") {
    return prune(components[schema.$ref.replace("#/components/schemas/", "")], components);
  }
  const kept = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (!KEPT.has(keyword)) continue;
    if (keyword === "properties") {
      kept.properties = Object.fromEntries(
        Object.entries(value).map(([name, member]) => [name, prune(member, components)]),
      );
    } else if (keyword === "items" || (keyword === "additionalProperties" && value !== false)) {
      kept[keyword] = typeof value === "object" ? prune(value, components) : value;
    } else if (keyword === "allOf" || keyword === "anyOf" || keyword === "oneOf") {
      kept[keyword] = value.map((part) => prune(part, components));
    } else kept[keyword] = value;
  }
  return kept;
}

/** The file's text, formatted as the repository formats JSON. */
export async function generate(openapi) {
  const operations = {};
  for (const key of OPERATIONS) {
    const [method, path] = key.split(" ");
    const operation = openapi.paths[path]?.[method.toLowerCase()];
    const schema = operation?.requestBody?.content?.["application/json"]?.schema;
    if (!schema) throw new Error(`@octokit/openapi has no request body schema for ${key}`);
    operations[key] = {
      documentation_url: operation.externalDocs.url,
      schema: prune(schema, openapi.components.schemas),
    };
  }
  const comment =
    "Generated by scripts/generate-request-schemas.js from @octokit/openapi: do not edit.";
  const target = fileURLToPath(
    new URL("../src/sandbox/github/request-schemas.json", import.meta.url),
  );
  const options = (await resolveConfig(target)) ?? {};
  return format(JSON.stringify({ $comment: comment, operations }), {
    ...options,
    filepath: target,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const require = createRequire(import.meta.url);
  const file = require.resolve("@octokit/openapi/generated/api.github.com.json");
  const text = await generate(JSON.parse(readFileSync(file, "utf8")));
  if (process.argv.includes("--stdout")) process.stdout.write(text);
  else writeFileSync(new URL("../src/sandbox/github/request-schemas.json", import.meta.url), text);
}
