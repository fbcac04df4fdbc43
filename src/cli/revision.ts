import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { formatConfigError } from "../config/index.js";
import type { DesiredState } from "../config/model.js";
import { LIMITS } from "../config/limits.js";
import { thousands } from "../core/thousands.js";
import { loadDesiredState } from "../engine/desired.js";
import { CliError, type CliIO } from "./io.js";

/**
 * The configuration as it was at a revision of the git repository that holds it (`plan
 * --changed-from REF`): each file read with `git show REF:./FILE` from its own directory, a
 * directory's *.yaml / *.yml files listed with `git ls-tree REF:./`. A file or directory missing at
 * the revision contributes nothing, so a configuration that did not exist there is all new.
 */

class GitFailed extends Error {}

/** Runs git in `dir` and returns its output; a failure is a GitFailed with git's first line. */
function git(dir: string, args: readonly string[]): Buffer {
  try {
    // Output over the loader's size limit is refused by the buffer limit, before it is all held.
    return execFileSync("git", ["-C", dir, ...args], {
      maxBuffer: LIMITS.maxBytes + 1,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const failed = error as NodeJS.ErrnoException & { stderr?: Buffer };
    if (failed.code === "ENOENT") throw new GitFailed("git is not installed (or not on PATH)");
    if (failed.code === "ENOBUFS") {
      throw new GitFailed(
        `the file is larger than the ${LIMITS.maxBytes / (1024 * 1024)} MiB limit`,
      );
    }
    const said = failed.stderr?.toString("utf8").trim().split("\n")[0];
    throw new GitFailed(said || failed.message.split("\n")[0]);
  }
}

/** Whether `ref` names a commit of the repository at `dir`. */
export function hasRevision(dir: string, ref: string): boolean {
  try {
    git(dir, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
    return true;
  } catch (error) {
    if (error instanceof GitFailed) return false;
    throw error;
  }
}

/**
 * The directory of the (first) configuration: where a CI step asks git about revisions (a change
 * request's base, the commit before a push).
 */
export function configDirectory(config: readonly string[], cwd: string): string {
  const first = resolve(cwd, config[0] ?? ".");
  return existsSync(first) && statSync(first).isDirectory() ? first : dirname(first);
}

/** The object at `REF:./name` seen from `dir`: its type, or undefined when it is not there. */
function objectType(dir: string, ref: string, name: string): string | undefined {
  try {
    return git(dir, ["cat-file", "-t", `${ref}:./${name}`])
      .toString("utf8")
      .trim();
  } catch (error) {
    if (error instanceof GitFailed) return undefined;
    throw error;
  }
}

interface FileAtRevision {
  /** What errors name: `REF:path` as the path was given. */
  display: string;
  content: Buffer;
}

/** The files a `-c` path stands for at the revision, in the order the loader would read them. */
function filesAt(ref: string, given: string, cwd: string): FileAtRevision[] {
  const absolute = resolve(cwd, given);
  const isDirectory = existsSync(absolute) && statSync(absolute).isDirectory();
  const dir = isDirectory ? absolute : dirname(absolute);
  // Fails with git's own words when the configuration is not in a git repository.
  git(dir, ["rev-parse", "--show-toplevel"]);
  if (!hasRevision(dir, ref)) {
    throw new GitFailed(`${ref} is not a commit of the git repository at ${dir} (fetch it first)`);
  }
  const name = isDirectory ? "" : basename(absolute);
  const type = objectType(dir, ref, name);
  if (type === "blob") {
    return [{ display: `${ref}:${given}`, content: git(dir, ["show", `${ref}:./${name}`]) }];
  }
  if (type !== "tree") return [];
  const names = git(dir, ["ls-tree", "--full-tree", "--name-only", `${ref}:./${name}`])
    .toString("utf8")
    .split("\n")
    .filter((entry) => /\.ya?ml$/i.test(entry))
    .sort();
  const prefix = name === "" ? "" : `${name}/`;
  return names
    .filter((entry) => objectType(dir, ref, `${prefix}${entry}`) === "blob")
    .map((entry) => ({
      display: `${ref}:${given.replace(/\/+$/, "")}/${entry}`,
      content: git(dir, ["show", `${ref}:./${prefix}${entry}`]),
    }));
}

/**
 * Loads the configuration files `paths` as they were at `ref`; undefined when none of them existed
 * there. Errors of that configuration are printed like any configuration's, naming `REF:file`.
 */
export function loadStateAt(
  command: string,
  ref: string,
  paths: readonly string[],
  io: CliIO,
): DesiredState | undefined {
  let files: FileAtRevision[];
  try {
    files = paths.flatMap((path) => filesAt(ref, path, io.cwd));
  } catch (error) {
    if (error instanceof GitFailed) {
      throw new CliError(`${command}: --changed-from ${ref}: ${error.message}`);
    }
    throw error;
  }
  if (files.length === 0) return undefined;
  const contents = new Map(files.map((file) => [resolve(io.cwd, file.display), file.content]));
  const result = loadDesiredState(
    files.map((file) => file.display),
    {
      cwd: io.cwd,
      env: io.env,
      readFile: (path) => {
        const content = contents.get(path);
        if (content === undefined) throw new Error(`${path} was not read from git`);
        return content;
      },
    },
  );
  if (result.ok) return result.state;
  for (const error of result.errors) io.stderr.write(`${formatConfigError(error)}\n`);
  const count = result.problems;
  throw new CliError(
    `${command}: the configuration at ${ref} has ${thousands(count)} error${count === 1 ? "" : "s"}; ` +
      "plan without --changed-from to see the whole plan",
  );
}
