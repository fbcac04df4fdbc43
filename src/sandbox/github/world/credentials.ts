import { randomBytes, verify } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Account, App, GithubWorld, Installation } from "./records.js";

/**
 * Who a request comes from: a user's token, an App installation's token (acting as the App's bot
 * account), the App itself (its JWT), nobody, or a credential the service refuses — with GitHub's
 * 401 message.
 */
export type GithubPrincipal =
  | { kind: "anonymous"; caller: null }
  | { kind: "user"; caller: Account; rateKey: string }
  | { kind: "installation"; installation: Installation; caller: Account; rateKey: string }
  | { kind: "app"; app: App; caller: null; rateKey: string }
  | { kind: "refused"; caller: null; refused: string };

const refusal = (message: string): GithubPrincipal => ({
  kind: "refused",
  caller: null,
  refused: message,
});

/** GitHub's longest JWT: `exp` at most 10 minutes into the future ("Generating a JWT for a GitHub App"). */
const MAX_JWT_AHEAD_S = 600;

const UNDECODABLE = "A JSON web token could not be decoded";
const EXP_TOO_FAR = "'Expiration time' claim ('exp') is too far in the future";
const EXPIRED =
  "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires";
const IAT_INVALID =
  "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued";

/** The token of an `Authorization` header (`token …`, `Bearer …`, or the bare value). */
export function headerToken(header: string): string | undefined {
  const match = /^(?:bearer|token)\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : header;
}

export function authenticate(
  req: IncomingMessage,
  world: GithubWorld,
  now: number,
): GithubPrincipal {
  const header = req.headers.authorization;
  if (header === undefined) return { kind: "anonymous", caller: null };
  const token = headerToken(header);
  if (token === undefined) return { kind: "anonymous", caller: null };
  const user = world.tokens.get(token);
  if (user !== undefined) return { kind: "user", caller: user, rateKey: `token:${token}` };
  const issued = world.installationTokens.get(token);
  if (issued !== undefined) {
    if (issued.expiresAt <= now) return refusal("Bad credentials");
    const { installation } = issued;
    return {
      kind: "installation",
      installation,
      caller: installation.bot,
      // GitHub's budget of an installation is the installation's, whichever of its tokens is used.
      rateKey: `installation:${installation.id}`,
    };
  }
  if (token.split(".").length === 3) return appFromJwt(token, world, now);
  return refusal("Bad credentials");
}

/**
 * The App a JWT is signed by, checked as GitHub documents it: RS256, `iss` the App's id, signed
 * with the App's key, `iat` not in the future and `exp` in the future but at most 10 minutes
 * ahead. The messages are GitHub's 401 messages for each rule.
 */
function appFromJwt(token: string, world: GithubWorld, now: number): GithubPrincipal {
  const refused = refusal;
  const [encodedHeader = "", encodedPayload = "", signature = ""] = token.split(".");
  const header = decodeJson(encodedHeader);
  const payload = decodeJson(encodedPayload);
  if (header?.alg !== "RS256" || payload === undefined) return refused(UNDECODABLE);
  const app = world.appsById.get(Number(payload.iss));
  if (app?.publicKey === undefined) return refused(UNDECODABLE);
  const signed = verify(
    "sha256",
    Buffer.from(`${encodedHeader}.${encodedPayload}`),
    app.publicKey,
    Buffer.from(signature, "base64url"),
  );
  if (!signed) return refused(UNDECODABLE);
  const seconds = Math.floor(now / 1000);
  const { iat, exp } = payload;
  if (!Number.isInteger(iat) || (iat as number) > seconds) return refused(IAT_INVALID);
  if (typeof exp !== "number" || exp <= seconds) return refused(EXPIRED);
  if (exp > seconds + MAX_JWT_AHEAD_S) return refused(EXP_TOO_FAR);
  return { kind: "app", app, caller: null, rateKey: `app:${app.id}` };
}

function decodeJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Issues a token for an installation, valid `ttlSeconds`; tokens that have expired are forgotten
 * as new ones are issued, so a long run does not grow the map.
 */
export function issueInstallationToken(
  world: GithubWorld,
  installation: Installation,
  now: number,
  ttlSeconds: number,
): { token: string; expiresAt: number } {
  for (const [token, issued] of world.installationTokens) {
    if (issued.expiresAt <= now) world.installationTokens.delete(token);
  }
  // GitHub's installation tokens start with ghs_ ("About authentication to GitHub": token prefixes).
  const token = `ghs_${randomBytes(18).toString("hex")}`;
  // Whole seconds, as expires_at is written with second precision.
  const expiresAt = (Math.floor(now / 1000) + ttlSeconds) * 1000;
  world.installationTokens.set(token, { installation, expiresAt });
  return { token, expiresAt };
}
