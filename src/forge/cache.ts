import { createHash, randomBytes, scryptSync } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Redactor } from "../core/redact.js";

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
 *
 * A body can hold a sensitive value (a hook URL with a token interpolated into it). The redactor
 * seals it: the file names the variable and holds a digest of the value instead of the value, and
 * the value is put back on read only when the current one has the same digest. Otherwise the entry
 * is a miss — restoring another value would answer a changed resource from a stale body behind a 304.
 */
export class DirectoryCache implements ConditionalCache {
  readonly dir: string;
  readonly #redactor: Redactor;
  readonly #digests = new Map<string, string>();
  #salt: Buffer | undefined;

  constructor(dir: string, redactor: Redactor = new Redactor()) {
    this.dir = dir;
    this.#redactor = redactor;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  get(key: string): CacheEntry | undefined {
    let parsed: unknown;
    try {
      const text = this.#redactor.unseal(readFileSync(this.#file(key), "utf8"), this.#digest);
      if (text === undefined) return undefined;
      parsed = JSON.parse(text);
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
    const text = this.#redactor.seal(JSON.stringify(entry), this.#digest);
    // Text that cannot be sealed is not kept: the next run reads that resource in full.
    if (text === undefined) return;
    const file = this.#file(key);
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      writeFileSync(temporary, text, { mode: 0o600 });
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

  /**
   * What stands for a value in a sealed file: scrypt with the directory's own random salt, slow on
   * purpose so the digest of a short value cannot be reversed by trying candidates. Worked out once
   * per value and run.
   */
  readonly #digest = (text: string): string => {
    let digest = this.#digests.get(text);
    if (digest === undefined) {
      digest = scryptSync(text, this.#saltOf(), 16, { N: 2 ** 14, r: 8, p: 1 }).toString("hex");
      this.#digests.set(text, digest);
    }
    return digest;
  };

  #saltOf(): Buffer {
    if (this.#salt !== undefined) return this.#salt;
    const file = join(this.dir, "salt");
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      // Written whole under another name, then linked into place: a concurrent run either made
      // the salt first (and both use that one) or sees the complete file.
      writeFileSync(temporary, randomBytes(16).toString("hex"), { mode: 0o600 });
      linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      rmSync(temporary, { force: true });
    }
    this.#salt = Buffer.from(readFileSync(file, "utf8"), "hex");
    return this.#salt;
  }
}
