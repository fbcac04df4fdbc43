// The floor under `forgeplan validate` on a file (bench/validate-speed.js): a fresh Node process
// that starts, reads the file and has the YAML parser the loader uses read it, and nothing else.
// The loader (src/config/source.ts) reads a file from js-yaml's event stream, and only where that
// declines (src/config/yaml-events.ts says when) with the YAML library's Parser and Composer; this
// parses with js-yaml and, where js-yaml refuses the file, with the YAML library as the loader
// does, with an empty process.env. Not a scenario (bench/run.js skips files starting with `_`).
// `node bench/_yaml-floor.js FILE` prints the parser it used and the process's CPU seconds (user +
// system, start-up included).
import { readFileSync } from "node:fs";
import process from "node:process";
import console from "node:console";
import { parseEvents } from "js-yaml";
import { Composer, LineCounter, Parser } from "yaml";
import { withoutEnvironment } from "../dist/config/source.js";

const text = readFileSync(process.argv[2], "utf8");
let parser = "js-yaml";
try {
  parseEvents(text, { maxDepth: 64 });
} catch {
  parser = "yaml";
  withoutEnvironment(() => {
    const lines = new LineCounter();
    const tokens = [...new Parser(lines.addNewLine).parse(text)];
    return [
      ...new Composer({ prettyErrors: false, uniqueKeys: false, version: "1.2" }).compose(tokens),
    ];
  });
}
const used = process.cpuUsage();
console.log(JSON.stringify({ parser, cpu_s: (used.user + used.system) / 1e6 }));
