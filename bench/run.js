// `npm run bench [-- --quick]`: runs every benchmark in bench/ as its own process (so each one's
// peak RSS is its own) and passes its JSON lines through. `--quick` asks each for a small version.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const quick = process.argv.includes("--quick");
const scenarios = readdirSync(here)
  .filter((name) => name.endsWith(".js") && name !== "run.js" && !name.startsWith("_"))
  .sort();
let failed = 0;
for (const name of scenarios) {
  const result = spawnSync(process.execPath, [`${here}${name}`, ...(quick ? ["--quick"] : [])], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (result.status !== 0) {
    failed += 1;
    console.error(`bench: ${name} exited with ${result.status}`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
