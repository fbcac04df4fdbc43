/**
 * The project's own lint rules, as the `forgeplan` plugin of eslint.config.js: the layers of src/
 * and the independence of the resource kinds. Both check every relative import (type-only ones,
 * re-exports and dynamic imports too) by the file it resolves to, so they hold at any depth of
 * folders (src/resources/ruleset/…).
 */
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

/** The file that registers the kinds: the one place outside a kind's folder that imports it. */
const REGISTRY = resolve(SRC, "resources", "index.ts");

function partsOf(file) {
  return relative(SRC, file).split(sep);
}

/** The layer a source file belongs to: its folder under src/ (the sandbox's by its inner folder). */
function layerOf(file) {
  const parts = partsOf(file);
  if (parts.length < 2 || parts[0] === "..") return undefined;
  if (parts[0] === "sandbox" && parts.length > 2) return `sandbox/${parts[1]}`;
  return parts[0];
}

/** The kind whose folder a file is in (src/resources/<kind>/…); undefined for any other file. */
function kindOf(file) {
  const parts = partsOf(file);
  return parts[0] === "resources" && parts.length > 2 ? parts[1] : undefined;
}

/** Calls `check` with each relative import of a file and the absolute path it resolves to. */
function imports(context, check) {
  const visit = (node, source) => {
    if (typeof source !== "string" || !source.startsWith(".")) return;
    check(node, resolve(dirname(context.filename), source));
  };
  return {
    ImportDeclaration: (node) => visit(node, node.source.value),
    ExportNamedDeclaration: (node) => node.source && visit(node, node.source.value),
    ExportAllDeclaration: (node) => visit(node, node.source.value),
    ImportExpression: (node) => visit(node, node.source.value),
  };
}

const layers = {
  meta: { type: "problem", schema: [] },
  create(context) {
    const from = layerOf(context.filename);
    if (from === undefined || !(from in LAYERS)) return {};
    return imports(context, (node, target) => {
      const to = layerOf(target);
      if (to === undefined || to === from || LAYERS[from].includes(to)) return;
      const allowed = LAYERS[from].map((name) => `src/${name}/`).join(", ") || "its own layer";
      context.report({
        node,
        message: `src/${from}/ may import only ${allowed}, not src/${to}/ (see eslint.config.js)`,
      });
    });
  },
};

/**
 * Kinds do not import each other: a kind's folder (src/resources/<kind>/) imports its own files and
 * the modules of src/resources/ itself, where what kinds share lives; only the registry imports a
 * kind's folder from outside it. A kind that needed another's code would be planned, tested and
 * changed with it (docs/adding-a-kind.md).
 */
const kinds = {
  meta: { type: "problem", schema: [] },
  create(context) {
    if (layerOf(context.filename) !== "resources" || context.filename === REGISTRY) return {};
    const from = kindOf(context.filename);
    return imports(context, (node, target) => {
      const to = kindOf(target);
      if (to === undefined || to === from) return;
      const where = from === undefined ? "a module of src/resources/" : `the ${from} kind`;
      context.report({
        node,
        message: `${where} may not import src/resources/${to}/: kinds do not import each other; move what they share to a module of src/resources/ (see eslint.plugin.js)`,
      });
    });
  },
};

export default { rules: { layers, kinds } };
