import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { DesiredState, TargetConfig } from "../config/model.js";
import type { Redactor } from "../core/redact.js";
import { Secret } from "../core/secret.js";
import { AppInstallationAuth } from "../forge/app-auth.js";
import { appPrivateKey } from "../forge/app-jwt.js";
import { createAppRequest } from "../forge/app-request.js";
import type { AuthProvider } from "../forge/auth.js";
import { systemClock } from "../forge/client.js";

/** The demo world's admin token: the sandbox is a local emulator, so this is not a secret. */
export const SANDBOX_ADMIN_TOKEN = "sandbox-admin";

/** A target that cannot be used: no token in its variable, no App key, or the service refused it. */
export class ConnectionError extends Error {
  override name = "ConnectionError";
  /** The target has no token (a sandbox needs none). */
  readonly missingToken: boolean;
  /** No sandbox answers at the URL given (`--sandbox-url`, the library's `sandboxUrl`). */
  readonly sandbox: boolean;

  constructor(
    message: string,
    { missingToken = false, sandbox = false }: { missingToken?: boolean; sandbox?: boolean } = {},
  ) {
    super(message);
    this.missingToken = missingToken;
    this.sandbox = sandbox;
  }
}

export type Credentials = { auth: AuthProvider } | { token: Secret };

export interface CredentialsOptions {
  /** The base URL the client will use (the sandbox's when running against one). */
  baseUrl: string;
  againstSandbox: boolean;
  signal: AbortSignal | undefined;
  /** Where a `private_key_file` is relative to. */
  cwd: string;
  /** Learns every line of an App's private key and the installation tokens it gets. */
  redactor?: Redactor;
}

/**
 * How a target's client authenticates: as the GitHub App installation it names (against a sandbox
 * too, whose seed then declares the App), else with its token — the demo world's admin token
 * against a sandbox.
 */
export function credentialsFor(
  target: TargetConfig,
  state: DesiredState,
  options: CredentialsOptions,
): Credentials {
  if (target.app !== undefined) return { auth: appAuthOf(target, target.app, state, options) };
  if (options.againstSandbox) return { token: new Secret(SANDBOX_ADMIN_TOKEN, "sandbox") };
  if (target.token) return { token: target.token };
  throw new ConnectionError(
    `target '${target.name}' needs a token in the environment variable ${target.tokenEnv}`,
    { missingToken: true },
  );
}

function appAuthOf(
  target: TargetConfig,
  app: NonNullable<TargetConfig["app"]>,
  state: DesiredState,
  { baseUrl, signal, cwd, redactor }: CredentialsOptions,
): AuthProvider {
  const fail = (why: string) => new ConnectionError(`target '${target.name}': ${why}`);
  let pem: Secret;
  if ("file" in app.privateKey) {
    const file = resolve(cwd, app.privateKey.file);
    try {
      pem = new Secret(readFileSync(file, "utf8"), `the key file ${app.privateKey.file}`);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw fail(
        `cannot read the App's private key ${app.privateKey.file}: ${code === "ENOENT" ? "no such file" : (code ?? "unreadable")}`,
      );
    }
  } else if (app.privateKey.value !== undefined) {
    pem = app.privateKey.value;
  } else {
    throw fail(
      `App ${app.appId} needs its private key in the environment variable ${app.privateKey.env}`,
    );
  }
  // No line of the key reaches any output (a line is what a PEM's text is cut at, and masked by).
  for (const line of pem.reveal().split(/\\n|\n/)) {
    if (line.trim() !== "" && !line.startsWith("-----")) redactor?.add(line.trim(), pem.source);
  }
  let privateKey;
  try {
    privateKey = appPrivateKey(pem);
  } catch (error) {
    throw fail((error as Error).message);
  }
  // An installation is on one account: without its id, it is the one on the owner of the target's repositories.
  const owners = new Set(
    state.repositories
      .filter((entry) => entry.target === target.name)
      .map((entry) => entry.selector.owner.toLowerCase()),
  );
  if (app.installationId === undefined && owners.size !== 1) {
    throw fail(
      owners.size === 0
        ? `App ${app.appId} acts as one installation: set installation_id (no repository entry names the owner it is installed on)`
        : `App ${app.appId} acts as one installation, on one account, but the target's repositories belong to ${[...owners].sort().join(", ")}: define one target per owner, or set installation_id`,
    );
  }
  return new AppInstallationAuth({
    appId: app.appId,
    privateKey,
    ...(app.installationId !== undefined
      ? { installationId: app.installationId }
      : { owner: [...owners][0]! }),
    request: createAppRequest({ baseUrl, userAgent: "forgeplan", ...(signal ? { signal } : {}) }),
    clock: systemClock,
    ...(redactor ? { onSecret: redactor.add.bind(redactor) } : {}),
  });
}
