import { runAction } from "./run.js";

// The bundled entry of the GitHub Action (action/dist/index.js): the runner's environment in, the
// step's exit code out. Everything else lives in run.ts so tests drive it in-process; it reports its
// own failures as one redacted annotation, so nothing here can print a stack trace.
const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());

process.exitCode = await runAction({
  env: process.env,
  cwd: process.cwd(),
  write: (text) => process.stdout.write(text),
  signal: stop.signal,
});
