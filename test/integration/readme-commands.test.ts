import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { builtCli, repoRoot } from "../helpers/cli.js";

const run = promisify(execFile);
const readme = readFileSync(join(repoRoot, "README.md"), "utf8");

/** The `sh` blocks of a README section (from its heading to the next heading of its level). */
function shellLines(heading?: string): string[] {
  let text = readme;
  if (heading !== undefined) {
    const start = readme.indexOf(`\n${heading}\n`);
    const level = heading.split(" ")[0];
    const end = readme.indexOf(`\n${level} `, start + heading.length + 2);
    text = readme.slice(start, end === -1 ? undefined : end);
  }
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((match) => (match[1] ?? "").split("\n"))
    .filter((line) => line.trim() !== "");
}

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\-_ ]/gu, "")
    .replaceAll(" ", "-");
}

function anchors(text: string): Set<string> {
  const outside = text.replace(/```[\s\S]*?```/g, "");
  return new Set([...outside.matchAll(/^#+ (.*)$/gm)].map((match) => anchor(match[1] ?? "")));
}

const documents = [
  "README.md",
  ...readdirSync(join(repoRoot, "docs")).map((name) => `docs/${name}`),
];

describe("the README", () => {
  it("fits in a head: at most 400 lines, the rest in docs/", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(400);
  });

  it("runs forgeplan as npx forgeplan, which npm ci provides, never a bare forgeplan", () => {
    const bare = shellLines().filter((line) => /(^|[;&|]\s*)forgeplan\s/.test(line.trim()));
    expect(bare).toEqual([]);
  });

  it("has a short tour that works as shown, with the exit codes it states", async () => {
    const lines = shellLines("## A short tour");
    expect(lines.length).toBeGreaterThan(2);
    const cwd = mkdtempSync(join(tmpdir(), "forgeplan-readme-"));
    cpSync(join(repoRoot, "examples"), join(cwd, "examples"), { recursive: true });
    mkdirSync(join(cwd, "schema"));
    for (const line of lines) {
      const [command = "", comment = ""] = line.split(/\s+#\s/);
      const expected = Number(/exit (\d)/.exec(comment)?.[1] ?? 0);
      const script = command.replaceAll("npx forgeplan", `"${process.execPath}" "${builtCli}"`);
      const code = await run("sh", ["-c", script], { cwd, env: { PATH: process.env.PATH } }).then(
        () => 0,
        (error: { code?: number }) => error.code ?? -1,
      );
      expect(`${code} ${command}`).toBe(`${expected} ${command}`);
    }
  }, 120_000);

  it("shows a configuration that validates", async () => {
    const [yaml] = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
    const file = join(mkdtempSync(join(tmpdir(), "forgeplan-readme-")), "forgeplan.yaml");
    writeFileSync(file, yaml ?? "");
    const { stdout } = await run(process.execPath, [builtCli, "validate", "-c", file], {
      env: { PATH: process.env.PATH },
      encoding: "utf8",
    });
    expect(stdout).toContain("valid:");
  });
});

describe("the README and docs/", () => {
  it.each(documents)("%s links only to files and headings that exist", (document) => {
    const text = readFileSync(join(repoRoot, document), "utf8").replace(/```[\s\S]*?```/g, "");
    const broken: string[] = [];
    for (const [, target = ""] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path = "", fragment] = target.split("#");
      const file = path === "" ? document : normalize(join(dirname(document), path));
      if (!existsSync(join(repoRoot, file))) {
        broken.push(target);
      } else if (fragment !== undefined && file.endsWith(".md")) {
        if (!anchors(readFileSync(join(repoRoot, file), "utf8")).has(fragment)) broken.push(target);
      }
    }
    expect(broken).toEqual([]);
  });
});
