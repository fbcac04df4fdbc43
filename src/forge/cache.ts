import { createHash, randomBytes, scryptSync } from "node:crypto";
import {
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { Redactor } from "../core/redact.js";

/**
 * What a conditional GET needs: the raw body as the service sent it, the validator it came with,
 * and how to make a validator for the next request, which may carry another token.
 */
export interface CacheEntry {
  /** The ETag as the service sent it. */
  etag: string;
  /**
   * "github" when `etag` was checked, as the answer was stored, to be GitHub's hash of the request's
   * headers and the body (validator.ts), so the next request sends the one computed for its own
   * headers; "opaque" when not, and the stored ETag is sent as it is.
   */
  scheme: "github" | "opaque";
  /** The answer's `Vary` header names, lower-cased, when it had one. */
  vary?: string[];
  /** The body bytes exactly as received (after decompression): what the validator is computed over. */
  body: Buffer;
  /** The page's Link header, so pagination still finds the next page when a page answers 304. */
  link?: string;
  /** The answer's Last-Modified, sent back as If-Modified-Since. */
  lastModified?: string;
}

/**
 * Stores answers by request identity: method, URL and who the credential acts as (an App
 * installation, a user's login, or for a credential the service will not name the URL alone),
 * never the token itself, so entries outlive token rotation and a new token adds no entries. Keys
 * are opaque hex strings.
 */
export interface ConditionalCache {
  get(key: string): CacheEntry | undefined;
  set(key: string, entry: CacheEntry): void;
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The cache key of a request; `identity` names who the credential acts as, never the token. */
export function cacheKey(method: string, url: string, identity: string): string {
  return sha256(JSON.stringify([method, url, identity]));
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

/** Entries nobody has used for this long are dropped when a cache directory is opened. */
export const UNUSED_ENTRY_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
const FORMAT = 2;

/**
 * One JSON file per key under `dir`, kept between runs (`forgeplan drift --cache DIR`). Files are
 * written to a temporary name and renamed, so a crashed or concurrent run never leaves a torn entry;
 * an unreadable entry is a miss. Bodies may describe private repositories, so files are owner-only.
 *
 * Bounded: a file's modification time is the last time its entry was used (each hit touches it),
 * and opening the directory drops entries unused for `maxUnusedDays` (and temporary files a
 * crashed run left), so the directory holds what recent runs read and no more. The body is kept as
 * its UTF-8 text, the bytes it came as; an answer whose bytes are not UTF-8 is not kept.
 *
 * A body can hold a sensitive value (a hook URL with a token interpolated into it). The redactor
 * seals it: the file names the variable and holds a digest of the value instead of the value, and
 * the value is put back on read only when the current one has the same digest. Otherwise the entry
 * is a miss — restoring another value would answer a changed resource from a stale body behind a
 * 304, and restored bytes that differ from what the service sent would not match its validator.
 */
export class DirectoryCache implements ConditionalCache {
  readonly dir: string;
  readonly #redactor: Redactor;
  readonly #digests = new Map<string, string>();
  #salt: Buffer | undefined;

  constructor(
    dir: string,
    options: { maxUnusedDays?: number; now?: () => number; redactor?: Redactor } = {},
  ) {
    this.dir = dir;
    this.#redactor = options.redactor ?? new Redactor();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const now = (options.now ?? Date.now)();
    this.#prune(now - (options.maxUnusedDays ?? UNUSED_ENTRY_DAYS) * DAY_MS, now - DAY_MS);
  }

  get(key: string): CacheEntry | undefined {
    const file = this.#file(key);
    let parsed: unknown;
    try {
      const text = this.#redactor.unseal(readFileSync(file, "utf8"), this.#digest);
      if (text === undefined) return undefined;
      parsed = JSON.parse(text);
    } catch {
      return undefined;
    }
    const entry = decode(parsed);
    if (entry === undefined) return undefined;
    const now = new Date();
    try {
      utimesSync(file, now, now);
    } catch {
      // Another run dropped it meanwhile: the entry in hand is still good for this request.
    }
    return entry;
  }

  set(key: string, entry: CacheEntry): void {
    const text = entry.body.toString("utf8");
    if (!Buffer.from(text, "utf8").equals(entry.body)) return;
    const file = this.#file(key);
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    const stored = {
      format: FORMAT,
      etag: entry.etag,
      scheme: entry.scheme,
      ...(entry.vary !== undefined ? { vary: entry.vary } : {}),
      ...(entry.link !== undefined ? { link: entry.link } : {}),
      ...(entry.lastModified !== undefined ? { lastModified: entry.lastModified } : {}),
      body: text,
    };
    const sealed = this.#redactor.seal(JSON.stringify(stored), this.#digest);
    // Text that cannot be sealed is not kept: the next run reads that resource in full.
    if (sealed === undefined) return;
    try {
      writeFileSync(temporary, sealed, { mode: 0o600 });
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
  /** Drops entries last used before `entriesBefore` and temporary files older than `temporaryBefore`. */
  #prune(entriesBefore: number, temporaryBefore: number): void {
    for (const name of readdirSync(this.dir)) {
      const before = name.endsWith(".tmp")
        ? temporaryBefore
        : name.endsWith(".json")
          ? entriesBefore
          : undefined;
      if (before === undefined) continue;
      const file = join(this.dir, name);
      try {
        if (statSync(file).mtimeMs < before) rmSync(file, { force: true });
      } catch {
        // Gone already: another run pruned it.
      }
    }
  }
}

/** A stored entry of the current format, or undefined (a miss) for anything else. */
function decode(parsed: unknown): CacheEntry | undefined {
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const stored = parsed as Record<string, unknown>;
  if (stored.format !== FORMAT || typeof stored.etag !== "string") return undefined;
  if (typeof stored.body !== "string") return undefined;
  if (stored.scheme !== "github" && stored.scheme !== "opaque") return undefined;
  const vary = Array.isArray(stored.vary)
    ? stored.vary.filter((name): name is string => typeof name === "string")
    : undefined;
  return {
    etag: stored.etag,
    scheme: stored.scheme,
    body: Buffer.from(stored.body, "utf8"),
    ...(vary !== undefined ? { vary } : {}),
    ...(typeof stored.link === "string" ? { link: stored.link } : {}),
    ...(typeof stored.lastModified === "string" ? { lastModified: stored.lastModified } : {}),
  };
}
