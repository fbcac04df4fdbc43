import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDesiredState } from "../../src/index.js";
import { formatConfigError } from "../../src/config/index.js";
import { runInProcess } from "../helpers/cli.js";

/**
 * An environment reference that names what every object inherits (`${__proto__}`, `${constructor}`,
 * `${toString}` …) sees only the environment's own variables: it is a variable that is not set, a
 * positioned error like any other, never the inherited member (which made `validate` print
 * "internal error: text.replace is not a function" and the library throw).
 */

const NAMES = Object.getOwnPropertyNames(Object.prototype).filter((name) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(name),
);

/** Every place a reference is read: a target's token variable, a hook URL, a secret reference. */
function config(name: string): string {
  return [
    "version: 1",
    "targets:",
    "  github:",
    "    type: repository",
    "    base_url: https://api.github.com",
    `    token_env: \${${name}}`,
    "repositories:",
    "  - name: acme/api",
    "    webhooks:",
    "      hooks:",
    `        - { url: "https://hooks.example/\${${name}}", secret: "\${${name}}" }`,
    "",
  ].join("\n");
}

function workspace(name: string): string {
  const cwd = mkdtempSync(join(tmpdir(), "forgeplan-hostile-names-"));
  writeFileSync(join(cwd, "forgeplan.yaml"), config(name));
  return cwd;
}

describe("environment references named like Object.prototype's members", () => {
  it("covers every member a reference can name", () => {
    expect(NAMES).toEqual(expect.arrayContaining(["__proto__", "constructor", "toString"]));
    expect(NAMES.length).toBeGreaterThanOrEqual(10);
  });

  it.each(NAMES)("${%s} is a positioned error from the library, never a throw", (name) => {
    const result = loadDesiredState(["forgeplan.yaml"], { cwd: workspace(name), env: {} });
    expect(result.ok).toBe(false);
    const lines = result.ok ? [] : result.errors.map(formatConfigError);
    const hook = config(name).split("\n")[10]!;
    const secretColumn = hook.indexOf("secret: ") + "secret: ".length + 1;
    expect(lines).toEqual(
      expect.arrayContaining([
        `forgeplan.yaml:6:16: targets.github.token_env: environment variable ${name} is not set`,
        `forgeplan.yaml:11:18: repositories[0].webhooks.hooks[0].url: environment variable ${name} is not set`,
        `forgeplan.yaml:11:${secretColumn}: repositories[0].webhooks.hooks[0].secret: environment variable ${name} is not set`,
      ]),
    );
    for (const line of lines) expect(line).toMatch(/^forgeplan\.yaml:\d+:\d+: /);
  });

  it.each(NAMES)("${%s} is a positioned error from the CLI", async (name) => {
    const cwd = workspace(name);
    const planned = await runInProcess(["plan", "--sandbox"], { cwd });
    expect(planned.stderr).not.toContain("internal error");
    expect(planned.stderr).toContain(
      `forgeplan.yaml:6:16: targets.github.token_env: environment variable ${name} is not set\n`,
    );
    expect(planned.code).toBe(1);
    const validated = await runInProcess(["validate"], { cwd });
    expect(validated.stderr).not.toContain("internal error");
    // validate checks the shape without the environment: it lists the variable as not set.
    expect(validated.stdout).toContain(`${name} (not set`);
    expect(validated.code).toBe(0);
  });

  it("uses a variable of that name when the environment has one", () => {
    const cwd = mkdtempSync(join(tmpdir(), "forgeplan-hostile-names-"));
    writeFileSync(
      join(cwd, "forgeplan.yaml"),
      'version: 1\nrepositories:\n  - name: acme/api\n    settings: { description: "${constructor:public}" }\n',
    );
    const result = loadDesiredState(["forgeplan.yaml"], {
      cwd,
      env: { constructor: "a value from the environment" },
    });
    expect(result.ok && result.state.repositories[0]?.settings.settings).toEqual({
      description: "a value from the environment",
    });
  });
});
