// The floor under `forgeplan validate` on a file (bench/validate-speed.js): a fresh Node process
// that starts, reads the file and has the loader's YAML parser read it (bench/_loader-parse.js),
// and nothing else. Not a scenario (bench/run.js skips files starting with `_`).
// `node bench/_yaml-floor.js FILE` prints the parser it used and the process's CPU seconds (user +
// system, start-up included).
import { readFileSync } from "node:fs";
import process from "node:process";
import console from "node:console";
import { parseLikeTheLoader } from "./_loader-parse.js";

const parser = parseLikeTheLoader(readFileSync(process.argv[2], "utf8"));
const used = process.cpuUsage();
console.log(JSON.stringify({ parser, cpu_s: (used.user + used.system) / 1e6 }));
