/* global console, fetch */
// The interim demo: start the sandbox in-process with the demo world, make a few real requests, and
// print them as a short tour. Run after a build (`npm run demo` builds first).
import { startSandbox } from "../dist/sandbox/index.js";

const sandbox = await startSandbox();
const headers = { Authorization: "Bearer sandbox-admin", Accept: "application/json" };

async function show(title, path, summarize) {
  const response = await fetch(`${sandbox.url}${path}`, { headers });
  const body = await response.json();
  console.log(`\n## ${title}`);
  console.log(`GET ${path} → ${response.status}`);
  console.log(
    `   rate limit: ${response.headers.get("x-ratelimit-remaining")} of ` +
      `${response.headers.get("x-ratelimit-limit")} left`,
  );
  for (const line of summarize(body)) console.log(`   ${line}`);
}

console.log(`forgeplan sandbox (demo world) on ${sandbox.url}`);

await show(
  "Branch protection of acme/api main",
  "/repos/acme/api/branches/main/protection",
  (p) => [
    `required status checks: ${p.required_status_checks.contexts.join(", ")} (strict: ${p.required_status_checks.strict})`,
    `required approving reviews: ${p.required_pull_request_reviews.required_approving_review_count}, ` +
      `dismiss stale reviews: ${p.required_pull_request_reviews.dismiss_stale_reviews}`,
    `enforce admins: ${p.enforce_admins.enabled}, push restrictions: ${p.restrictions ? "yes" : "none"}`,
  ],
);

await show("Webhooks of acme/api", "/repos/acme/api/hooks", (hooks) =>
  hooks.map(
    (hook) =>
      `#${hook.id} ${hook.url} on [${hook.events.join(", ")}]` +
      `${hook.config.secret ? ` secret ${hook.config.secret}` : ""}`,
  ),
);

await show("Rate limit (costs nothing)", "/rate_limit", (overview) => [
  `core: ${overview.resources.core.remaining}/${overview.resources.core.limit}, ` +
    `search: ${overview.resources.search.remaining}/${overview.resources.search.limit}`,
]);

const stats = sandbox.stats();
console.log(`\n${stats.requests_total} requests served; the sandbox stops now.`);
await sandbox.stop();
