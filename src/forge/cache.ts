import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What a conditional GET needs to be answered from a 304: the validator, the body and its Link. */
export interface CacheEntry {
  etag: string;
  body: unknown;
  /** The page's Link header, so pagination still finds the next page when a page answers 304. */
  link?: string;
}

/**
 * Stores bodies by request identity (method, URL and a hash of the token — never the token).
 * Keys are opaque hex strings.
 */
export interface ConditionalCache {
  get(key: string): CacheEntry | undefined;
  set(key: string, entry: CacheEntry): void;
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The cache key of a request; `tokenIdentity` is the SHA-256 of the token (or "anonymous"). */
export function cacheKey(method: string, url: string, tokenIdentity: string): string {
  return sha256(JSON.stringify([method, url, tokenIdentity]));
}

/** Lives as long as the process: repeated reads within one run. */
export class MemoryCache implements ConditionalCache {
  readonly #entries = new Map<string, CacheEntry>();

  get(key: string): CacheEntry | undefined {
    return this.#entries.get(key);
  }

  set(key: string, entry: CacheEntry): void {
    this.#entries.set(key, entry);
  }
}

/**
 * One JSON file per key under `dir`, kept between runs (`forgeplan drift --cache DIR`). Files are
 * written to a temporary name and renamed, so a crashed or concurrent run never leaves a torn entry;
 * an unreadable entry is a miss. Bodies may describe private repositories, so files are owner-only.
 */
export class DirectoryCache implements ConditionalCache {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  get(key: string): CacheEntry | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.#file(key), "utf8"));
    } catch {
      return undefined;
    }
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const entry = parsed as Partial<CacheEntry>;
    if (typeof entry.etag !== "string" || !("body" in entry)) return undefined;
    return {
      etag: entry.etag,
      body: entry.body,
      ...(typeof entry.link === "string" ? { link: entry.link } : {}),
    };
  }

  set(key: string, entry: CacheEntry): void {
    const file = this.#file(key);
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      writeFileSync(temporary, JSON.stringify(entry), { mode: 0o600 });
      renameSync(temporary, file);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }

  #file(key: string): string {
    // Keys are already hashes; hashing again keeps file names safe for any key a caller chooses.
    return join(this.dir, `${sha256(key)}.json`);
  }
}
