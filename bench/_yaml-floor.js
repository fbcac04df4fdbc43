// The floor under `forgeplan validate` on a file (bench/validate-speed.js): a fresh Node process
// that starts, reads the file and has the YAML library parse and compose it exactly as the loader
// does (src/config/source.ts: Parser with a line counter, then Composer, with an empty
// process.env), and nothing else. Not a scenario (bench/run.js skips files starting with `_`).
// `node bench/_yaml-floor.js FILE` prints the number of documents and the process's CPU seconds
// (user + system, start-up included).
import { readFileSync } from "node:fs";
import process from "node:process";
import console from "node:console";
import { Composer, LineCounter, Parser } from "yaml";
import { withoutEnvironment } from "../dist/config/source.js";

const text = readFileSync(process.argv[2], "utf8");
const documents = withoutEnvironment(() => {
  const lines = new LineCounter();
  const tokens = [...new Parser(lines.addNewLine).parse(text)];
  return [
    ...new Composer({ prettyErrors: false, uniqueKeys: false, version: "1.2" }).compose(tokens),
  ];
});
const used = process.cpuUsage();
console.log(
  JSON.stringify({ documents: documents.length, cpu_s: (used.user + used.system) / 1e6 }),
);
