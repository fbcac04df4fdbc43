import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";

/**
 * GitHub Actions' workflow commands and environment files, written the way the runner parses them
 * (https://docs.github.com/actions/reference/workflow-commands-for-github-actions).
 */

/** A command's message: the runner decodes %25, %0D and %0A. */
export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A command's property value additionally escapes the separators `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

export function command(
  name: string,
  properties: Record<string, string | number | undefined>,
  message: string,
): string {
  const props = Object.entries(properties)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(",");
  return `::${name}${props === "" ? "" : ` ${props}`}::${escapeData(message)}\n`;
}

/**
 * One `::add-mask::` per line: the runner masks line by line, so a multi-line secret needs each.
 * Each line is escaped as a command's message, as actions/toolkit's `setSecret` sends it
 * (`issueCommand('add-mask', {}, secret)`, packages/core/src/core.ts): the runner decodes %25, %0D
 * and %0A in every command's data (actions/runner ActionCommand.cs, `UnescapeData`), so a secret
 * holding `%25` sent as it is would be masked as the shorter value it decodes to, and then shown.
 */
export function maskCommands(secret: string): string {
  return secret
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "")
    .map((line) => `::add-mask::${escapeData(line)}\n`)
    .join("");
}

export interface Annotation {
  level: "error" | "warning" | "notice";
  message: string;
  title?: string;
  file?: string;
  line?: number;
  col?: number;
}

export function annotation(note: Annotation): string {
  return command(
    note.level,
    { file: note.file, line: note.line, col: note.col, title: note.title },
    note.message,
  );
}

/**
 * GitHub keeps this many annotations of each level a step and drops the rest unseen ("GitHub
 * Actions are limited to 10 warning annotations and 10 error annotations per step", checks/create
 * in GitHub's OpenAPI description).
 */
export const ANNOTATIONS_PER_LEVEL = 10;

/**
 * The annotations to write, at most the limit of each level: a level with more keeps its first
 * ones and ends with one that says how many more there are and `where` they are. Those it leaves
 * out are returned too, for the caller to write where it says.
 */
export function withinAnnotationLimit(
  notes: readonly Annotation[],
  where: string,
): { shown: Annotation[]; left: Annotation[] } {
  const shown: Annotation[] = [];
  const left: Annotation[] = [];
  for (const level of ["error", "warning", "notice"] as const) {
    const ofLevel = notes.filter((note) => note.level === level);
    if (ofLevel.length <= ANNOTATIONS_PER_LEVEL) continue;
    left.push(...ofLevel.slice(ANNOTATIONS_PER_LEVEL - 1));
  }
  for (const note of notes) if (!left.includes(note)) shown.push(note);
  for (const level of ["error", "warning", "notice"] as const) {
    const count = left.filter((note) => note.level === level).length;
    if (count > 0) {
      const title = left.find((note) => note.level === level)?.title;
      shown.push({
        level,
        ...(title !== undefined ? { title } : {}),
        message: `${count} more ${level === "notice" ? "notices" : `${level}s`}: ${where}`,
      });
    }
  }
  return { shown, left };
}

/**
 * Wraps text that is not ours (the plan quotes names from the config and the service) so that no line
 * of it can be taken for a workflow command; returns the opening and closing lines.
 */
export function stopCommands(): { open: string; close: string } {
  const token = randomBytes(16).toString("hex");
  return { open: `::stop-commands::${token}\n`, close: `::${token}::\n` };
}

/** `name<<DELIMITER` blocks in $GITHUB_OUTPUT: safe for any value, newlines included. */
export function outputBlock(name: string, value: string): string {
  let delimiter: string;
  do delimiter = `ghadelimiter_${randomBytes(12).toString("hex")}`;
  while (value.includes(delimiter));
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

export function appendTo(path: string, text: string): void {
  appendFileSync(path, text, "utf8");
}
