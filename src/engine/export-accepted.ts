import { stringify } from "yaml";
import { type ConfigError, formatConfigError, parsePath } from "../config/index.js";
import { isPlainObject } from "../core/plain.js";
import { loadDesiredState } from "./desired.js";

/**
 * An export must load as it is written: a combination the service answers but the loader refuses
 * (GitHub can answer `members_can_create_repositories: true` with every kind of repository false,
 * which no configuration may ask for) is left out of what is written — a value not written is left
 * as it is, so the export still plans as no change — and a comment says what and why.
 */

export interface Accepted {
  document: Record<string, unknown>;
  comments: Array<{ text: string; owner?: string }>;
  /** A problem leaving a value out cannot mend (not a value of a kind): the export is wrong. */
  refused?: string;
}

/** Each pass leaves out what the loader refused; a rule that needs another value may ask again. */
const PASSES = 8;
/** The keys of an entry that say which entry it is, never a value to leave out. */
const IDENTITY = new Set(["name", "target", "where", "project", "group"]);

export function loaderAccepted(document: Record<string, unknown>): Accepted {
  const comments: Accepted["comments"] = [];
  for (let pass = 0; pass < PASSES; pass++) {
    const text = stringify(withoutTargets(document), { lineWidth: 0 });
    const loaded = loadDesiredState(["(export)"], {
      cwd: "/",
      env: {},
      // The placeholders of write-only values are not set here; they are the user's to fill.
      allowUnset: true,
      readFile: () => text,
    });
    if (loaded.ok) return { document, comments };
    // Past the errors listed, the last one counts the rest: the next pass sees them.
    const listed =
      loaded.errors.length < loaded.problems ? loaded.errors.slice(0, -1) : loaded.errors;
    for (const error of listed) {
      const left = leaveOut(document, parsePath(error.path));
      if (left === undefined) return { document, comments, refused: formatConfigError(error) };
      comments.push(commentOn(document, left, error));
    }
  }
  return { document, comments, refused: "the export still does not load after leaving out" };
}

interface LeftOut {
  path: Array<string | number>;
  value: unknown;
}

/** Takes the value at a kind's path of an entry out of the document; undefined when it is not one. */
function leaveOut(
  document: Record<string, unknown>,
  path: Array<string | number>,
): LeftOut | undefined {
  if (path.length < 3 || typeof path[1] !== "number" || IDENTITY.has(String(path[2]))) {
    return undefined;
  }
  let node: unknown = document;
  for (const segment of path.slice(0, -1)) {
    if (!isPlainObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  const last = path.at(-1)!;
  if (!isPlainObject(node) || !(String(last) in node)) return undefined;
  const value = node[String(last)];
  delete node[String(last)];
  return { path, value };
}

function commentOn(
  document: Record<string, unknown>,
  left: LeftOut,
  error: ConfigError,
): { text: string; owner?: string } {
  const [section, index, ...within] = left.path;
  const entry = (document[String(section)] as Array<Record<string, unknown>>)[index as number];
  const name = String(entry?.name ?? entry?.project ?? entry?.group ?? `${section}[${index}]`);
  const owner =
    section === "organizations"
      ? name
      : section === "repositories"
        ? name.split("/")[0]
        : undefined;
  const key = within.map((segment) => (typeof segment === "number" ? `[${segment}]` : segment));
  return {
    text: `${name}: ${key.join(".").replaceAll(".[", "[")} is live ${JSON.stringify(left.value)}, which the configuration cannot hold: ${error.message}; left out, so it stays as it is`,
    ...(owner !== undefined && { owner }),
  };
}

/**
 * The document as a file of its own: without `target`, every entry takes the one default target of
 * its kind, so a target the user's configuration names is no error here (the paths are unchanged).
 */
function withoutTargets(document: Record<string, unknown>): Record<string, unknown> {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      return node.map((item) => {
        if (!isPlainObject(item)) return item;
        const { target: _target, ...rest } = item;
        return rest;
      });
    }
    if (isPlainObject(node)) {
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, strip(value)]));
    }
    return node;
  };
  return Object.fromEntries(
    Object.entries(document).map(([key, value]) => [key, key === "version" ? value : strip(value)]),
  );
}
