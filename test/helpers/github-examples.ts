import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** GitHub's documented response examples, from its published OpenAPI description. */
export function githubExample(name: string): unknown {
  const path = require.resolve("@octokit/openapi/generated/api.github.com.json");
  const spec = JSON.parse(readFileSync(path, "utf8")) as {
    components: { examples: Record<string, { value: unknown }> };
  };
  const example = spec.components.examples[name];
  if (!example) throw new Error(`no GitHub example named ${name}`);
  return example.value;
}
