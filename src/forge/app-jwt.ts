import { createPrivateKey, type KeyObject, sign } from "node:crypto";
import { Secret } from "../core/secret.js";

/**
 * The App's JSON Web Token, as GitHub's "Generating a JSON Web Token (JWT) for a GitHub App" asks:
 * RS256, `iss` the App's id, `iat` 60 seconds in the past against clock drift, and `exp` no more
 * than 10 minutes into the future. `exp` is 9 minutes ahead, so a local clock up to a minute fast
 * is still inside GitHub's 10 minutes; `exp - iat` is the full 10. Signed with node's crypto.
 */
export const JWT_BACKDATE_S = 60;
export const JWT_LIFETIME_S = 540;

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString("base64url");
}

/** The JWT for `appId` at `nowMs`, wrapped so it prints as "(sensitive)". */
export function signAppJwt(appId: number, key: KeyObject, nowMs: number): Secret {
  const now = Math.floor(nowMs / 1000);
  const header = base64url(JSON.stringify({ alg: "RS256", typ: "JWT" }));
  const payload = base64url(
    JSON.stringify({ iat: now - JWT_BACKDATE_S, exp: now + JWT_LIFETIME_S, iss: appId }),
  );
  const signature = sign("sha256", Buffer.from(`${header}.${payload}`), key);
  return new Secret(`${header}.${payload}.${base64url(signature)}`, `JWT of App ${appId}`);
}

/**
 * The App's private key from its PEM text (PKCS#1 "BEGIN RSA PRIVATE KEY", as GitHub downloads it,
 * or PKCS#8). Throws an Error whose message says what is wrong without quoting the text.
 */
export function appPrivateKey(pem: Secret): KeyObject {
  let key: KeyObject;
  try {
    // A key pasted into a one-line variable often has its line breaks written as "\n".
    key = createPrivateKey(pem.reveal().replace(/\\n/g, "\n"));
  } catch {
    throw new Error(`${pem.source} does not hold a PEM private key`);
  }
  if (key.asymmetricKeyType !== "rsa") {
    throw new Error(
      `${pem.source} holds a ${key.asymmetricKeyType} key; GitHub Apps sign with RSA`,
    );
  }
  return key;
}
