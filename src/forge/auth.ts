import { createHash } from "node:crypto";
import { Secret } from "../core/secret.js";

/**
 * Where the client gets the Authorization header of each attempt. A target has one: a static
 * token, or a GitHub App installation whose tokens are minted and refreshed while the run goes on.
 */
export interface AuthProvider {
  /**
   * The Authorization header value for the next attempt ("Bearer …"), or undefined to send none.
   * Waits for a refresh in flight; throws ForgeError when no credential can be had. A header at
   * hand is returned as it is, not in a promise, so the attempt is sent in the same turn as its
   * slot frees (./slots.ts).
   */
  authorization(): Secret | undefined | Promise<Secret | undefined>;
  /**
   * The service answered 401 to an attempt sent with `sent`. Resolves true when another credential
   * is now to be had (a fresh installation token), so the request is worth one more attempt.
   */
  renew(sent: Secret | undefined): Promise<boolean>;
  /**
   * Who the credential acts as, if the provider knows it without asking the service: what cached
   * answers are keyed by, so they outlive the token ("app:1/installation:42").
   */
  identity(): Promise<string | undefined>;
  /**
   * The login what the credential writes (comments, issues) is shown as, if the provider can say
   * without `GET /user`: an App installation writes as its App's bot, "slug[bot]".
   */
  login(): Promise<string | undefined>;
  /** How errors name the credential when the service hides something from it, e.g. "installation 42 of App 1". */
  readonly description: string | undefined;
  /**
   * Whom the service counts this credential's writes against, as far as the provider knows without
   * asking it: clients with one writer on one service write one at a time (write-lane.ts).
   */
  readonly writer: string;
}

/** A token that lives as long as the run: from an environment variable, or none at all. */
export class StaticTokenAuth implements AuthProvider {
  readonly #header: Secret | undefined;
  readonly description = undefined;
  readonly writer: string;

  constructor(token: Secret | undefined) {
    this.#header =
      token === undefined ? undefined : new Secret(`Bearer ${token.reveal()}`, token.source);
    // The token itself, by a digest: a key that is never the secret. Two tokens of one account
    // look like two writers, as only the service knows whose a token is.
    this.writer =
      token === undefined
        ? "anonymous"
        : `token:${createHash("sha256").update(token.reveal()).digest("hex")}`;
  }

  authorization(): Secret | undefined {
    return this.#header;
  }

  /** A static token that was refused will be refused again. */
  async renew(): Promise<boolean> {
    return false;
  }

  /** Only the service knows whose token it is (the client asks it once, when a cache needs it). */
  async identity(): Promise<string | undefined> {
    return this.#header === undefined ? "anonymous" : undefined;
  }

  /** Only the service knows whose token it is. */
  async login(): Promise<string | undefined> {
    return undefined;
  }
}
