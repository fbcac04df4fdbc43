import { runAction } from "./run.js";
import { annotation } from "./workflow-commands.js";

// The bundled entry of the GitHub Action (action/dist/index.js): the runner's environment in, the
// step's exit code out. Everything else lives in run.ts so tests drive it in-process.
const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());

try {
  process.exitCode = await runAction({
    env: process.env,
    cwd: process.cwd(),
    write: (text) => process.stdout.write(text),
    signal: stop.signal,
  });
} catch (error) {
  // One annotation, never a stack trace (which could quote a request).
  const message = error instanceof Error ? error.message : String(error);
  process.stdout.write(
    annotation({
      level: "error",
      title: "forgeplan",
      message: `internal error: ${message.split("\n")[0]}`,
    }),
  );
  process.exitCode = 1;
}
