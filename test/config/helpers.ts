import { formatConfigError } from "../../src/config/index.js";
import { loadDesiredState } from "../../src/engine/desired.js";

/** Strips the common indentation of a template literal so YAML fixtures can be written inline. */
export function yaml(strings: TemplateStringsArray, ...values: unknown[]): string {
  const text = strings.reduce(
    (out, part, index) => out + part + (index < values.length ? String(values[index]) : ""),
    "",
  );
  const lines = text
    .replace(/^\n/, "")
    .replace(/\n[ \t]*$/, "\n")
    .split("\n");
  const indent = Math.min(
    ...lines.filter((line) => line.trim() !== "").map((line) => /^ */.exec(line)![0].length),
  );
  return lines.map((line) => line.slice(indent)).join("\n");
}

export type Files = Record<string, string | Uint8Array>;

/** Loads in-memory files (named like a.yaml) through the real loader. */
export function loadFiles(
  files: Files,
  env: Record<string, string> = {},
  paths = Object.keys(files),
) {
  return loadDesiredState(paths, {
    cwd: "/nonexistent-forgeplan-test",
    env,
    readFile: (path) => {
      const name = path.replace("/nonexistent-forgeplan-test/", "");
      const content = files[name];
      if (content === undefined) throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
      return content;
    },
  });
}

/** The formatted error lines of a load that must fail. */
export function errorLines(files: Files, env: Record<string, string> = {}): string[] {
  const result = loadFiles(files, env);
  if (result.ok) throw new Error("expected the load to fail, but it succeeded");
  return result.errors.map(formatConfigError);
}

/** The state of a load that must succeed. */
export function stateOf(files: Files, env: Record<string, string> = {}) {
  const result = loadFiles(files, env);
  if (!result.ok)
    throw new Error(`expected a valid load:\n${result.errors.map(formatConfigError).join("\n")}`);
  return result.state;
}
