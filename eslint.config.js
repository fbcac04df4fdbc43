import js from "@eslint/js";
import tseslint from "typescript-eslint";

import { dirname, relative, resolve, sep } from "node:path";

/**
 * The layers of src/, each allowed to import only the layers below it (design: cli/ and action/ →
 * engine/ → resources/ → forge/, config/, render/ → core/; report/ holds what both cli/ and action/
 * use; library/ is the one-call plan and apply of the package's API, below cli/). The sandbox is an
 * independent implementation and imports nothing of the reconciler; inside it, its core imports
 * neither service, the two services (their areas) import only the core, the seed puts together
 * what the services' area lists describe, and only its index (src/sandbox/index.ts) sees
 * everything. Only cli/ starts a sandbox, and only through that index.
 */
const LAYERS = {
  core: [],
  config: ["core"],
  forge: ["core"],
  render: ["core"],
  resources: ["core", "config", "forge"],
  engine: ["core", "config", "forge", "resources"],
  report: ["core", "forge", "render"],
  library: ["core", "config", "forge", "render", "resources", "engine"],
  cli: ["core", "config", "forge", "render", "resources", "engine", "report", "library", "sandbox"],
  action: ["core", "config", "forge", "render", "resources", "engine", "report", "cli"],
  sandbox: ["sandbox/core", "sandbox/github", "sandbox/gitlab", "sandbox/seed"],
  "sandbox/core": [],
  "sandbox/github": ["sandbox/core"],
  "sandbox/gitlab": ["sandbox/core"],
  "sandbox/seed": ["sandbox/core", "sandbox/github", "sandbox/gitlab"],
};

const SRC = resolve(import.meta.dirname, "src");

/** The layer a source file belongs to: its folder under src/ (the sandbox's by its inner folder). */
function layerOf(file) {
  const parts = relative(SRC, file).split(sep);
  if (parts.length < 2 || parts[0] === "..") return undefined;
  if (parts[0] === "sandbox" && parts.length > 2) return `sandbox/${parts[1]}`;
  return parts[0];
}

/**
 * Checks every relative import (type-only ones, re-exports and dynamic imports too) by the layer of
 * the file it resolves to, so the rule holds at any depth of folders (src/resources/ruleset/…).
 */
const layersRule = {
  meta: { type: "problem", schema: [] },
  create(context) {
    const from = layerOf(context.filename);
    if (from === undefined || !(from in LAYERS)) return {};
    const check = (node, source) => {
      if (typeof source !== "string" || !source.startsWith(".")) return;
      const to = layerOf(resolve(dirname(context.filename), source));
      if (to === undefined || to === from || LAYERS[from].includes(to)) return;
      const allowed = LAYERS[from].map((name) => `src/${name}/`).join(", ") || "its own layer";
      context.report({
        node,
        message: `src/${from}/ may import only ${allowed}, not src/${to}/ (see eslint.config.js)`,
      });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, node.source.value),
    };
  },
};

export default tseslint.config(
  { ignores: ["dist/", "coverage/", "schema/", "action/dist/", "node_modules/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": "error",
    },
  },
  {
    // A promise nobody awaits loses its error, and one passed where a callback is expected is
    // never awaited: both need the types, so they run on the TypeScript sources only.
    files: ["src/**/*.ts", "test/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
  {
    files: ["src/**/*.ts"],
    plugins: { forgeplan: { rules: { layers: layersRule } } },
    rules: { "forgeplan/layers": "error" },
  },
  {
    files: ["bench/**", "scripts/**"],
    languageOptions: {
      globals: Object.fromEntries(
        [
          "process",
          "console",
          "fetch",
          "URL",
          "AbortController",
          "setTimeout",
          "clearTimeout",
          "performance",
        ].map((name) => [name, "readonly"]),
      ),
    },
    rules: { "no-console": "off" },
  },
);
