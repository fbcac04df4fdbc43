import { describe, expect, it } from "vitest";
import { formatConfigError } from "../../src/config/index.js";
import { loadDesiredState } from "../../src/engine/desired.js";
import { Redactor } from "../../src/core/redact.js";
import type { Webhooks } from "../../src/resources/webhook/settings.js";
import { runInProcess } from "../helpers/cli.js";
import { configFile } from "../helpers/sandbox.js";
import { type Files, errorLines, stateOf, yaml } from "./helpers.js";

/** Loads in-memory files with a redactor and returns what it learned. */
function learned(files: Files, env: Record<string, string>) {
  const redactor = new Redactor();
  const result = loadDesiredState(Object.keys(files), {
    cwd: "/nonexistent-forgeplan-test",
    env,
    redactor,
    readFile: (path) => files[path.replace("/nonexistent-forgeplan-test/", "")]!,
  });
  return { result, redactor };
}

const hookConfig = (url: string) => yaml`
  version: 1
  targets: { github: { type: repository, token_env: FP_TOKEN } }
  repositories:
    - name: acme/api
      webhooks:
        hooks:
          - url: "${url}"
            secret: "\${HOOK_SECRET}"
            authorization_header: "\${HOOK_AUTH}"
`;

const env = {
  FP_TOKEN: "tok_target_0123456789",
  HOOK_SECRET: "whsec_0123456789",
  HOOK_AUTH: "Bearer auth_0123456789",
  COLLECTOR_TOKEN: "ct_0123456789",
  COLLECTOR_HOST: "collector.example",
};

describe("what loading teaches the redactor", () => {
  it("every interpolated value, secret reference and target token, but not a value marked public", () => {
    const { result, redactor } = learned(
      { "a.yaml": hookConfig("https://${COLLECTOR_HOST:public}/h?t=${COLLECTOR_TOKEN}") },
      env,
    );
    expect(result.ok).toBe(true);
    expect(redactor.masks().sort()).toEqual(
      [env.FP_TOKEN, env.HOOK_SECRET, env.HOOK_AUTH, env.COLLECTOR_TOKEN].sort(),
    );
    expect(redactor.redact("https://collector.example/h?t=ct_0123456789")).toBe(
      "https://collector.example/h?t=(sensitive)",
    );
  });

  it("expands a public reference like any other", () => {
    const state = stateOf(
      { "a.yaml": hookConfig("https://${COLLECTOR_HOST:public}/h") },
      { ...env, HOOK_SECRET: "s", HOOK_AUTH: "a" },
    );
    expect((state.repositories[0]!.settings.webhooks as Webhooks).hooks![0]!.url).toBe(
      "https://collector.example/h",
    );
  });

  it("learns the values even when the load fails, and its errors hold none of them", () => {
    const { result, redactor } = learned(
      { "a.yaml": hookConfig("${COLLECTOR_TOKEN}") },
      { ...env, COLLECTOR_TOKEN: "not-a-url-0123456789" },
    );
    expect(result.ok).toBe(false);
    const errors = result.ok ? [] : result.errors.map(formatConfigError);
    expect(errors.join("\n")).toContain('found the string "(sensitive)"');
    expect(redactor.masks()).toContain("not-a-url-0123456789");
  });

  it("refuses a modifier other than :public, and a public secret", () => {
    expect(
      errorLines({ "a.yaml": hookConfig("https://x.example/${COLLECTOR_TOKEN:secret}") }, env),
    ).toEqual([
      'a.yaml:7:16: repositories[0].webhooks.hooks[0].url: unknown modifier ":secret" in "${COLLECTOR_TOKEN:secret}": the only one is :public (${COLLECTOR_TOKEN:public})',
    ]);
    const publicSecret = hookConfig("https://x.example/h").replace(
      "${HOOK_SECRET}",
      "${HOOK_SECRET:public}",
    );
    expect(errorLines({ "a.yaml": publicSecret }, env)).toEqual([
      "a.yaml:8:19: repositories[0].webhooks.hooks[0].secret: literal secrets are refused: write ${NAME} and set the environment variable NAME",
    ]);
  });
});

describe("validate", () => {
  it("prints no interpolated value in its errors or in --print", async () => {
    const bad = configFile(hookConfig("${COLLECTOR_TOKEN}"));
    const failed = await runInProcess(["validate", "-c", bad], {
      env: { ...env, COLLECTOR_TOKEN: "not-a-url-0123456789" },
    });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("expected an http(s) URL");
    expect(failed.stderr).toContain("(sensitive)");
    expect(failed.stderr).not.toContain("0123456789");

    const good = configFile(hookConfig("https://collector.example/h?t=${COLLECTOR_TOKEN}"));
    const printed = await runInProcess(["validate", "-c", good, "--print"], { env });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain("https://collector.example/h?t=(sensitive)");
    expect(printed.stdout).not.toContain("0123456789");
  });
});
