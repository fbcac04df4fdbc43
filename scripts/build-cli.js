// Bundles the command (src/cli/main.ts) and what it imports into dist/bin/: forgeplan.js (the
// dispatcher), the commands (src/cli/commands.ts), the sandbox, libsodium, and the chunks they
// share. Node spends about 1 ms resolving and loading each ES module; `plan` imports some 450 of
// them from dist/cli/, so through the bundle a plan's first request left after ~0.48 s instead of
// ~0.72 s (2026-11-29, a server noting when a request arrives). Every module imported on its own
// (import()) is a split point that adds chunks, so there are few: with each command and each kind's
// export.ts imported on its own, a plan loaded 70 files and its first request left 60-70 ms later
// than with the 7 it loads now (20 alternated plans of 50 repositories, medians). The library
// (dist/index.js) stays as tsc builds it. The chunks sit two folders below the package, where
// tsc's modules sit, because the client and the CLI read the package's version from
// "../../package.json".
// Usage: node scripts/build-cli.js [OUTDIR]
import { rmSync } from "node:fs";
import { bundle } from "./bundle.js";

const outdir = process.argv[2] ?? "dist/bin";
// Chunks are named by their content's hash: the last build's would otherwise stay beside these.
rmSync(outdir, { recursive: true, force: true });
await bundle({
  entryPoints: { forgeplan: "src/cli/main.ts" },
  outdir,
  splitting: true,
  chunkNames: "[name]-[hash]",
  // Every chunk pure ASCII: V8 keeps a source with one non-ASCII character (an em dash in a
  // comment) as two bytes a character, which it reads slower. Non-ASCII in strings becomes \u
  // escapes, and the comments go with the whitespace; names stay, for stack traces. `validate` of
  // a 4-line file started 5% sooner (farm-bench, median of 30 paired runs, 2026-11-29).
  charset: "ascii",
  minifyWhitespace: true,
});
