import js from "@eslint/js";
import tseslint from "typescript-eslint";

import forgeplan from "./eslint.plugin.js";

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
    plugins: { forgeplan },
    rules: { "forgeplan/layers": "error", "forgeplan/kinds": "error" },
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
