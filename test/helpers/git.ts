import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A git repository in a fresh temporary directory, for configurations compared with a revision. */
export interface GitRepository {
  dir: string;
  /** Writes files (paths relative to the repository; null deletes one). */
  write(files: Record<string, string | null>): void;
  /** Commits everything and returns the commit's id. */
  commit(message: string): string;
}

export function gitRepository(): GitRepository {
  const dir = mkdtempSync(join(tmpdir(), "forgeplan-git-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", dir, ...args], { stdio: ["ignore", "pipe", "ignore"] })
      .toString("utf8")
      .trim();
  git("init", "--quiet");
  return {
    dir,
    write(files) {
      for (const [path, content] of Object.entries(files)) {
        const full = join(dir, path);
        if (content === null) rmSync(full);
        else {
          mkdirSync(dirname(full), { recursive: true });
          writeFileSync(full, content);
        }
      }
    },
    commit(message) {
      git("add", "--all");
      git(
        "-c",
        "user.name=test",
        "-c",
        "user.email=test@forgeplan.invalid",
        "commit",
        "-qm",
        message,
      );
      return git("rev-parse", "HEAD");
    },
  };
}
