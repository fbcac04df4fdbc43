import type { KeyObject } from "node:crypto";
import { Secret } from "../core/secret.js";
import type { AppAnswer, AppRequest } from "./app-request.js";
import { signAppJwt } from "./app-jwt.js";
import type { AuthProvider } from "./auth.js";
import type { Clock } from "./clock.js";
import { ForgeError, serviceMessage } from "./errors.js";

export interface AppAuthOptions {
  appId: number;
  privateKey: KeyObject;
  /** The installation to act as; without it, the one on `owner` is looked up. */
  installationId?: number;
  /** The account (organization or user) whose installation to use when no id is given. */
  owner?: string;
  request: AppRequest;
  clock: Clock;
  /** Told each time a new installation token is in use (not the token: its expiry). */
  onToken?: (expiresAt: number) => void;
  /**
   * Told every secret value the provider makes — each JWT and installation token — before it is
   * sent, so the run's redactor can keep it out of any output (a service may echo a request).
   */
  onSecret?: (value: string, source: string) => void;
}

interface InstallationToken {
  header: Secret;
  expiresAt: number;
  /** When requests stop using it and wait for the next one. */
  refreshAt: number;
}

/** The longest a token is used before its expiry comes close: GitHub's live an hour. */
const MAX_REFRESH_MARGIN_MS = 5 * 60_000;
/** Attempts of a token exchange that failed on the way (a 5xx, a broken connection). */
const EXCHANGE_ATTEMPTS = 3;

/**
 * Acts as one installation of a GitHub App: signs the App's JWT, exchanges it for an installation
 * token (`POST /app/installations/{id}/access_tokens`) and refreshes that token before it expires,
 * so a run longer than a token's life never sends an expired one. One refresh is in flight at a
 * time and every request that needs the new token waits for it; a 401 to a token refreshes once
 * (however many requests saw it) and the client repeats the request.
 *
 * A token is replaced when a quarter of its life, at most five minutes, is left: GitHub's hour-long
 * tokens at 55 minutes, short-lived test tokens early enough that requests in flight still finish.
 */
export class AppInstallationAuth implements AuthProvider {
  readonly #options: AppAuthOptions;
  #installationId: number | undefined;
  #login: Promise<string> | undefined;
  #token: InstallationToken | undefined;
  #refreshing: Promise<InstallationToken> | undefined;

  constructor(options: AppAuthOptions) {
    if (options.installationId === undefined && options.owner === undefined) {
      throw new Error(
        "an App installation needs an installation id or the owner it is installed on",
      );
    }
    this.#options = options;
    this.#installationId = options.installationId;
  }

  get description(): string {
    const { appId, owner } = this.#options;
    const installation =
      this.#installationId !== undefined ? `installation ${this.#installationId}` : "installation";
    return `${installation} of App ${appId}${owner !== undefined ? ` on ${owner}` : ""}`;
  }

  /** The installation as configured: its id, or the account it is installed on. */
  get writer(): string {
    const { appId, installationId, owner } = this.#options;
    return `app:${appId}/${installationId !== undefined ? `installation:${installationId}` : `owner:${owner?.toLowerCase()}`}`;
  }

  async authorization(): Promise<Secret> {
    const token = this.#token;
    if (token !== undefined && this.#options.clock.now() < token.refreshAt) return token.header;
    return (await this.#refresh()).header;
  }

  async renew(sent: Secret | undefined): Promise<boolean> {
    if (sent === undefined) return false;
    // Another request saw the same 401 first and its refresh is done or under way.
    if (this.#token !== undefined && this.#token.header !== sent) return true;
    if (this.#refreshing === undefined) this.#token = undefined;
    return (await this.#refresh()).header !== sent;
  }

  async identity(): Promise<string> {
    return `app:${this.#options.appId}/installation:${await this.#installation()}`;
  }

  /** The App's bot, "slug[bot]": what its installation tokens write as (`GET /app`, once). */
  login(): Promise<string> {
    this.#login ??= this.#send("GET", "/app", false).then(({ status, data }) => {
      const slug = (data as { slug?: unknown } | undefined)?.slug;
      if (typeof slug !== "string" || slug === "") {
        throw new ForgeError({
          method: "GET",
          path: "/app",
          status,
          detail: "a body without the App's slug",
          unusableAnswer: true,
        });
      }
      return `${slug}[bot]`;
    });
    return this.#login;
  }

  #refresh(): Promise<InstallationToken> {
    this.#refreshing ??= this.#mint().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #mint(): Promise<InstallationToken> {
    const installation = await this.#installation();
    const path = `/app/installations/${installation}/access_tokens`;
    const answer = await this.#send("POST", path, false);
    const received = this.#options.clock.now();
    const data = answer.data as { token?: unknown; expires_at?: unknown } | undefined;
    const expiresAt = typeof data?.expires_at === "string" ? Date.parse(data.expires_at) : NaN;
    if (typeof data?.token !== "string" || data.token === "" || !(expiresAt > received)) {
      throw new ForgeError({
        method: "POST",
        path,
        status: answer.status,
        detail: "a body without a token and a future expires_at",
        unusableAnswer: true,
      });
    }
    const margin = Math.min(MAX_REFRESH_MARGIN_MS, (expiresAt - received) / 4);
    this.#options.onSecret?.(data.token, this.description);
    const token: InstallationToken = {
      header: new Secret(`Bearer ${data.token}`, this.description),
      expiresAt,
      refreshAt: expiresAt - margin,
    };
    this.#token = token;
    this.#options.onToken?.(expiresAt);
    return token;
  }

  /** The installation id: given, or found on the owner (organization first, then user). */
  async #installation(): Promise<number> {
    if (this.#installationId !== undefined) return this.#installationId;
    const owner = encodeURIComponent(this.#options.owner ?? "");
    for (const path of [`/orgs/${owner}/installation`, `/users/${owner}/installation`]) {
      const answer = await this.#send("GET", path, true);
      if (answer.status === 404) continue;
      const id = (answer.data as { id?: unknown } | undefined)?.id;
      if (!(typeof id === "number" && Number.isInteger(id) && id > 0)) {
        throw new ForgeError({
          method: "GET",
          path,
          status: answer.status,
          detail: "a body without an installation id",
          unusableAnswer: true,
        });
      }
      this.#installationId = id;
      return id;
    }
    throw new ForgeError({
      method: "GET",
      path: `/users/${owner}/installation`,
      status: 404,
      detail: `App ${this.#options.appId} is not installed on ${this.#options.owner}`,
    });
  }

  /**
   * One App request, signed with a fresh JWT, repeated while it fails on the way (creating a
   * token twice is harmless: the first is never used). For a look-up (`lookUp`), a 404 is an
   * answer, so the next place can be tried; every other failure throws.
   */
  async #send(
    method: "GET" | "POST",
    path: string,
    lookUp: boolean,
  ): Promise<{ status: number; data: unknown }> {
    const { appId, privateKey, request, clock } = this.#options;
    const once = () => {
      const jwt = signAppJwt(appId, privateKey, clock.now());
      this.#options.onSecret?.(jwt.reveal(), `the JWT of App ${appId}`);
      return request(method, path, jwt);
    };
    let answer = await once();
    for (let attempt = 1; attempt < EXCHANGE_ATTEMPTS && isTransient(answer); attempt++) {
      await clock.sleep(500 * attempt);
      answer = await once();
    }
    const fail = (status: number, detail: string) =>
      new ForgeError({ method, path, status, detail, note: `signed as App ${appId}` });
    if ("failure" in answer) throw fail(0, answer.failure);
    if (answer.status >= 200 && answer.status < 300) return answer;
    if (answer.status === 404 && lookUp) return answer;
    throw fail(answer.status, serviceMessage(answer.status, answer.data));
  }
}

function isTransient(answer: AppAnswer): boolean {
  return "failure" in answer ? answer.transient : answer.status >= 500;
}
