import { describe, expect, it } from "vitest";
import { annotation, maskCommands } from "../../src/action/workflow-commands.js";

/**
 * How the runner reads one line of a step's log as a workflow command: actions/runner's
 * ActionCommand.TryParseV2 (src/Runner.Common/ActionCommand.cs) — the line left-trimmed, `::`, the
 * name up to a space, properties split on `,` then on the first `=`, each property value and the
 * data unescaped with that file's mappings, in its order.
 */
function runnerParse(line: string): {
  name: string;
  properties: Record<string, string>;
  data: string;
} {
  const message = line.trimStart();
  expect(message.startsWith("::")).toBe(true);
  const end = message.indexOf("::", 2);
  expect(end).toBeGreaterThan(0);
  const info = message.slice(2, end);
  const space = info.indexOf(" ");
  const name = space < 0 ? info : info.slice(0, space);
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const pair of info
      .slice(space + 1)
      .trim()
      .split(",")
      .filter((part) => part !== "")) {
      const at = pair.indexOf("=");
      if (at > 0 && at < pair.length - 1)
        properties[pair.slice(0, at)] = unescapeProperty(pair.slice(at + 1));
    }
  }
  return { name, properties, data: unescapeData(message.slice(end + 2)) };
}

const unescape = (mappings: [string, string][]) => (text: string) =>
  mappings.reduce((value, [token, replacement]) => value.split(replacement).join(token), text);
const unescapeData = unescape([
  ["\r", "%0D"],
  ["\n", "%0A"],
  ["%", "%25"],
]);
const unescapeProperty = unescape([
  ["\r", "%0D"],
  ["\n", "%0A"],
  [":", "%3A"],
  [",", "%2C"],
  ["%", "%25"],
]);

/** The commands of a chunk of log: one a line. */
function commands(log: string) {
  expect(log.endsWith("\n")).toBe(true);
  return log.slice(0, -1).split("\n").map(runnerParse);
}

describe("workflow commands as the runner reads them back", () => {
  it("gives back an annotation's file, title and message exactly, whatever they hold", () => {
    const file = "configs/100%25,a:b\r\nc.yaml";
    const title = "forgeplan: 5%0A,done";
    const message = "50%25 of it\nnext %0D line:, here\r";
    const [parsed, ...rest] = commands(
      annotation({ level: "error", file, line: 3, col: 7, title, message }),
    );
    expect(rest).toEqual([]);
    expect(parsed).toEqual({
      name: "error",
      properties: { file, line: "3", col: "7", title },
      data: message,
    });
  });

  it("registers each line of a secret as the runner will search for it, percent signs included", () => {
    const secret = "p%25ss%0Aword\r\nsecond%line:,x\nthird";
    const parsed = commands(maskCommands(secret));
    expect(parsed.map((command) => command.name)).toEqual(["add-mask", "add-mask", "add-mask"]);
    expect(parsed.map((command) => command.data)).toEqual([
      "p%25ss%0Aword",
      "second%line:,x",
      "third",
    ]);
  });
});
