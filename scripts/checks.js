// `npm test`'s static checks — the type check, lint and the format check — run side by side: each is
// one process on one core, and run one after another they left the second core idle for minutes.
// Each tool's output is printed whole when it ends, under its name; the exit code is 1 when any
// check failed. The type check keeps its incremental state in node_modules/.cache (tsc's own
// bookkeeping: a changed file is checked again with everything that depends on it), and so does
// prettier (by each file's content); eslint keeps none, since its type-aware rules read other files.
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";

const CACHE = "node_modules/.cache/forgeplan";
const CHECKS = [
  [
    "tsc",
    [
      "node_modules/typescript/bin/tsc",
      "--noEmit",
      "--incremental",
      "--tsBuildInfoFile",
      `${CACHE}/typecheck.tsbuildinfo`,
    ],
  ],
  ["eslint", ["node_modules/eslint/bin/eslint.js", "."]],
  [
    "prettier",
    [
      "node_modules/prettier/bin/prettier.cjs",
      "--check",
      ".",
      "--cache",
      "--cache-location",
      `${CACHE}/prettier`,
    ],
  ],
];

function run([name, args]) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("error", (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on("close", (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const text = Buffer.concat(output).toString();
      process.stdout.write(`${name}: ${code === 0 ? "ok" : "failed"} (${seconds} s)\n${text}`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(CHECKS.map(run));
process.exitCode = results.every(Boolean) ? 0 : 1;
