import type { ESLint } from "eslint";

/** The project's own lint rules (eslint.plugin.js). */
declare const plugin: ESLint.Plugin;
export default plugin;
