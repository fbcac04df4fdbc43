// Builds dist/ (tsc, then the command's bundle) unless it is newer than everything it is built
// from. `npm ci` builds once (the `prepare` script); `npx forgeplan` runs `prepare` again for this
// checkout, and `npm run demo` and `npm run bench` need the build too: none of them should compile
// for a minute when nothing changed. A build that is needed says so on stderr first, since it
// takes a while.
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
// The command's bundle (scripts/build-cli.js), which esbuild rewrites whole on every build.
const output = join(root, "dist", "bin", "forgeplan.js");
// When the last build ran: its build info (tsconfig.build.json's tsBuildInfoFile), which every
// build rewrites. An incremental build leaves an output whose text did not change untouched, so
// dist/cli/main.js may be older than a source the build did compile. dist/ is current only when
// both the build info and the bundle are newer than every source.
const buildInfo = join(root, "dist", ".tsbuildinfo");

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function builtAt() {
  try {
    return Math.min(statSync(output).mtimeMs, statSync(buildInfo).mtimeMs);
  } catch {
    return undefined;
  }
}

const sources = ["src", "tsconfig.json", "tsconfig.build.json", "package.json"];
const built = builtAt();
const changed = Math.max(...sources.map((path) => newest(join(root, path))));
if (built === undefined || changed > built) {
  process.stderr.write(
    `forgeplan: building dist/ with tsc (${built === undefined ? "no build yet" : "sources changed since the last build"}); this takes a minute\n`,
  );
  execFileSync(
    process.execPath,
    [join(root, "node_modules/typescript/bin/tsc"), "-b", "tsconfig.build.json"],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
  execFileSync(process.execPath, [join(root, "scripts/build-cli.js")], {
    cwd: root,
    stdio: "inherit",
  });
}
