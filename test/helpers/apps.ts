import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { stringify } from "yaml";
import { signAppJwt } from "../../src/forge/app-jwt.js";
import { demoWorld, type RunningSandbox } from "../../src/sandbox/index.js";
import { call } from "./sandbox.js";

/** An RSA key pair as GitHub hands an App's key out (PKCS#1 PEM), made fresh for the test run. */
export interface AppKeys {
  publicKey: string;
  privateKey: string;
}

let cached: AppKeys | undefined;

/** One key pair per test file: generating RSA keys takes a while, and any key will do. */
export function appKeys(): AppKeys {
  cached ??= generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
  });
  return cached;
}

export const APP_ID = 4242;
export const INSTALLATION_ID = 77;

/**
 * A seed file: the demo world with App 4242 (`slug`, default "settings-bot") installed on `acme` as installation
 * 77, with `permissions` (default: administration, webhooks and issues write) on the repositories
 * `selected` (default: all of acme's).
 */
export function appSeedFile(
  publicKey: string,
  options: {
    selected?: string[];
    permissions?: Record<string, string>;
    slug?: string;
    /** Organizations added to the demo world's. */
    organizations?: unknown[];
  } = {},
): string {
  const seed = {
    ...demoWorld,
    organizations: [...(demoWorld.organizations ?? []), ...(options.organizations ?? [])],
    apps: [
      ...(demoWorld.apps ?? []),
      {
        id: APP_ID,
        slug: options.slug ?? "settings-bot",
        name: "Settings Bot",
        owner: "acme",
        public_key: publicKey,
        installations: [
          {
            id: INSTALLATION_ID,
            account: "acme",
            ...(options.selected !== undefined
              ? { repository_selection: "selected", repositories: options.selected }
              : {}),
            permissions: options.permissions ?? {
              administration: "write",
              repository_hooks: "write",
              issues: "write",
            },
          },
        ],
      },
    ],
  };
  const dir = mkdtempSync(join(tmpdir(), "forgeplan-app-"));
  const file = join(dir, "world.yaml");
  writeFileSync(file, stringify(seed));
  return file;
}

/**
 * A config directory: `forgeplan.yaml` with the `github` repository target (its further keys in
 * `target`, lines indented by four spaces) and the repository entries given, and the App's private
 * key beside it as `app.pem`.
 */
export function appKeyWorkspace(target: string, repositories: string): string {
  const dir = mkdtempSync(join(tmpdir(), "forgeplan-appcfg-"));
  copyFileSync(keyFile(appKeys().privateKey), join(dir, "app.pem"));
  writeFileSync(
    join(dir, "forgeplan.yaml"),
    `version: 1
targets:
  github:
    type: repository
${target}repositories:
${repositories}`,
  );
  return dir;
}

/** A private key written to a file of its own, as a user keeps the one GitHub hands out. */
export function keyFile(privateKey: string): string {
  const dir = mkdtempSync(join(tmpdir(), "forgeplan-key-"));
  const file = join(dir, "app.pem");
  writeFileSync(file, privateKey, { mode: 0o600 });
  return file;
}

/** An installation token of App 4242's installation 77, minted as a workflow's token is. */
export async function installationToken(running: RunningSandbox): Promise<string> {
  const jwt = signAppJwt(APP_ID, createPrivateKey(appKeys().privateKey), Date.now());
  const answer = await call(
    running,
    "POST",
    `/app/installations/${INSTALLATION_ID}/access_tokens`,
    { token: jwt.reveal() },
  );
  expect(answer.status).toBe(201);
  return answer.body.token as string;
}
