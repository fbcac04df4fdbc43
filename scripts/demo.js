// `npm run demo`: the main job on the embedded sandbox, as a tour. It starts the sandbox (the demo
// world), then runs plan → apply → plan over examples/forgeplan.yaml, exactly as a user would type them.
import { runCli } from "../dist/cli/run.js";
import { startSandbox } from "../dist/sandbox/index.js";

const config = "examples/forgeplan.yaml";
const out = (text) => process.stdout.write(text);
const io = (controller) => ({
  stdout: { write: out, isTTY: process.stdout.isTTY === true },
  stderr: { write: (text) => process.stderr.write(text), isTTY: process.stderr.isTTY === true },
  stdinIsTTY: false,
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
});

const sandbox = await startSandbox({ port: 0 });
const controller = new AbortController();
const steps = [
  ["plan", "-c", config, "--sandbox-url", sandbox.url],
  ["apply", "-c", config, "--sandbox-url", sandbox.url, "--auto-approve", "--allow-delete"],
  ["plan", "-c", config, "--sandbox-url", sandbox.url],
];
const expected = [2, 0, 0];
let failed = false;
try {
  out(`The sandbox is serving the demo world at ${sandbox.url}\n`);
  for (const [index, argv] of steps.entries()) {
    out(`\n━━ ${index + 1}/3  forgeplan ${argv.join(" ")}\n\n`);
    const code = await runCli(argv, io(controller));
    out(`\n(exit code ${code})\n`);
    if (code !== expected[index]) failed = true;
  }
} finally {
  await sandbox.stop();
}
if (failed) {
  process.stderr.write(
    "demo: an exit code was not what the tour expects (plan 2, apply 0, plan 0)\n",
  );
  process.exitCode = 1;
} else {
  out("\nThe second plan shows no changes: live state now matches examples/forgeplan.yaml.\n");
}
