// The YAML parse under forgeplan's config loader, alone, for the benchmarks' floors
// (bench/_yaml-floor.js, bench/load-hostile.js). The loader (src/config/source.ts) reads a file
// from js-yaml's event stream, and only where that declines (src/config/yaml-events.ts says when)
// with the YAML library's Parser and Composer, without `process.env` (which yaml 2 reads once per
// token). This parses with js-yaml and, where js-yaml refuses the file, with the YAML library as
// the loader does; the loader's own part (its tree, the values) is not counted. Not a scenario
// (bench/run.js skips files starting with `_`).
import { parseEvents } from "js-yaml";
import { Composer, LineCounter, Parser } from "yaml";
import { withoutEnvironment } from "../dist/config/source.js";

/** Parses `text` as the loader's parser would; returns which parser that was. */
export function parseLikeTheLoader(text) {
  try {
    parseEvents(text, { maxDepth: 64 });
    return "js-yaml";
  } catch {
    withoutEnvironment(() => {
      const lines = new LineCounter();
      const tokens = [...new Parser(lines.addNewLine).parse(text)];
      return [
        ...new Composer({ prettyErrors: false, uniqueKeys: false, version: "1.2" }).compose(tokens),
      ];
    });
    return "yaml";
  }
}
