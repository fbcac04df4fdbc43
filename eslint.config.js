import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * The layers of src/, each allowed to import only the layers below it (design: cli/ and action/ →
 * engine/ → resources/ → forge/, config/, render/ → core/; report/ holds what both cli/ and action/
 * use; library/ is the one-call plan and apply of the package's API, below cli/). The sandbox is an
 * independent implementation and imports nothing of the reconciler.
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
  sandbox: [],
};

const layerRules = Object.entries(LAYERS).map(([layer, allowed]) => {
  const forbidden = Object.keys(LAYERS).filter(
    (other) => other !== layer && !allowed.includes(other),
  );
  return {
    files: [`src/${layer}/**/*.ts`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^\\.\\./(${forbidden.join("|")})/`,
              message: `src/${layer}/ may import only ${allowed.length > 0 ? allowed.map((name) => `src/${name}/`).join(", ") : "its own layer"} (see eslint.config.js)`,
            },
          ],
        },
      ],
    },
  };
});

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
  ...layerRules,
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
