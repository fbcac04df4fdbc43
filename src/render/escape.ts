import { printable } from "./wording.js";

/**
 * Escaping for strings forgeplan does not control (names, values, messages) in the two markdown
 * contexts the renderer writes. Control characters become visible escapes first, so no string can end
 * a line, a table row or a block.
 */

/** Markdown inline text, table cells included: backslash escapes, which CommonMark allows for any ASCII punctuation. */
export function escapeInline(text: string): string {
  return printable(text)
    .replace(/[\\`*_[\]<>&|~#!$^]/g, (char) => `\\${char}`)
    .replace(/^[-+ ]/, (char) => (char === " " ? "&#32;" : `\\${char}`))
    .replace(/^(\d+)([.)])/, "$1\\$2");
}

/** Inline code that cannot be closed early and does not ping anyone named in it (GitHub skips mentions in code). */
export function code(text: string): string {
  return `<code>${escapeInline(text)}</code>`;
}

/** Text inside raw HTML blocks such as `<summary>`, where markdown is not parsed but entities are. */
export function escapeHtml(text: string): string {
  return printable(text).replace(
    /[&<>"]/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[char] ?? char,
  );
}

/** A link destination in angle brackets, which allows parentheses but not spaces or `<>`. */
export function linkTarget(url: string): string {
  return `<${printable(url).replace(/[\s<>]/g, (char) => encodeURIComponent(char))}>`;
}
