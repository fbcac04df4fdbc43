import { writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { startGeneratedWorld, planConfig, CLI } from "./_lib.js";
const sandbox = await startGeneratedWorld({ repositories: 1000, latencyMs: 20 });
writeFileSync("/tmp/prof/f.yaml", planConfig());
const t = Date.now();
const r = spawnSync(process.execPath, ["--cpu-prof", "--cpu-prof-dir=/tmp/prof/out", CLI, "plan", "-c", "/tmp/prof/f.yaml", "--sandbox-url", sandbox.url, "--format", "json", "--reads", "rest", ...sandbox.clientFlags], { stdio: ["ignore", "ignore", "inherit"] });
console.log("wall", (Date.now() - t) / 1000, r.status);
await sandbox.stop();
