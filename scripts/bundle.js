// What the command's bundle (scripts/build-cli.js) and the Action's (scripts/build-action.js) share:
// esbuild options for one ES module program for Node 20 with its dependencies inside.
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Bundles with esbuild from the repository's root; `options` names the entry and the output. */
export function bundle(options, { banner = [] } = {}) {
  return build({
    absWorkingDir: root,
    bundle: true,
    platform: "node",
    format: "esm",
    // The Action's runner runs node24; package.json promises Node 20.
    target: "node20",
    charset: "utf8",
    legalComments: "eof",
    banner: {
      js: [
        ...banner,
        // yaml's Node build is CommonJS and requires node built-ins; give the ESM bundle a require.
        'import { createRequire as __forgeplanCreateRequire } from "node:module";',
        "const require = __forgeplanCreateRequire(import.meta.url);",
      ].join("\n"),
    },
    logLevel: "warning",
    ...options,
  });
}
