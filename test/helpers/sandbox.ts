import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningSandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";

/** Starts a sandbox for one test; the caller stops it. */
export function sandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, ...options });
}

/** A request to the sandbox as the demo world's admin, returning the parsed JSON body. */
export async function api(
  running: RunningSandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${running.url}${path}`, {
    method,
    headers: {
      Authorization: "Bearer sandbox-admin",
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Writes a config file into a fresh temporary directory and returns its path. */
export function configFile(yaml: string, name = "forgeplan.yaml"): string {
  const dir = mkdtempSync(join(tmpdir(), "forgeplan-"));
  const path = join(dir, name);
  writeFileSync(path, yaml);
  return path;
}

/** A glob config protecting `main` of every generated repository: one change per repository. */
export function generatedProtectionsConfig(): string {
  return configFile(`version: 1
repositories:
  - name: acme/repo-*
    owner_type: organization
    branch_protection:
      main:
        enforce_admins: true
        required_pull_request_reviews:
          required_approving_review_count: 1
`);
}
