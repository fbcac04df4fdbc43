import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { errorLines, stateOf, yaml } from "./helpers.js";

const PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n";

describe("GitHub App targets", () => {
  it("resolve app_id, installation_id and a key file relative to the config file", () => {
    const state = stateOf(
      {
        "conf/a.yaml": yaml`
          version: 1
          targets:
            github: { type: repository, app_id: 12, installation_id: "34", private_key_file: keys/app.pem }
        `,
      },
      {},
    );
    expect(state.targets[0]).toMatchObject({
      name: "github",
      app: { appId: 12, installationId: 34, privateKey: { file: "conf/keys/app.pem" } },
    });
  });

  it("read a key from the environment at load time, kept sensitive, and an id written as ${VAR}", () => {
    const state = stateOf(
      {
        "a.yaml": yaml`
          version: 1
          targets:
            github: { type: repository, app_id: "\${BOT_APP_ID}", private_key_env: BOT_KEY }
        `,
      },
      { BOT_APP_ID: "77", BOT_KEY: PEM },
    );
    const app = state.targets[0]?.app;
    expect(app?.appId).toBe(77);
    expect(inspect(state)).not.toContain("MIIB");
    expect(JSON.stringify(state)).not.toContain("MIIB");
  });

  it("give the default github target an App from GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY", () => {
    const state = stateOf(
      { "a.yaml": "version: 1\n" },
      { GITHUB_APP_ID: "5", GITHUB_APP_PRIVATE_KEY: PEM, GITHUB_APP_INSTALLATION_ID: "9" },
    );
    expect(state.targets.find((target) => target.name === "github")?.app).toMatchObject({
      appId: 5,
      installationId: 9,
      privateKey: { env: "GITHUB_APP_PRIVATE_KEY" },
    });
    expect(state.targets.find((target) => target.name === "gitlab")?.app).toBeUndefined();
    expect(stateOf({ "a.yaml": "version: 1\n" }).targets[0]?.app).toBeUndefined();
  });

  it("refuse an inline key, a key without an App, an App without a key, and mixed credentials", () => {
    expect(
      errorLines({
        "a.yaml": yaml`
          version: 1
          targets:
            a: { type: repository, app_id: 1, private_key: "-----BEGIN" }
            b: { type: repository, private_key_env: KEY, installation_id: 3 }
            c: { type: repository, app_id: 1 }
            d: { type: repository, app_id: 1, private_key_env: KEY, private_key_file: k.pem, token_env: T }
            e: { type: planning, app_id: 1, private_key_env: KEY }
            f: { type: repository, app_id: "one", private_key_env: KEY }
        `,
      }),
    ).toEqual([
      "a.yaml:3:50: targets.a.private_key: inline private keys are refused: put the key in an environment variable (private_key_env) or a file (private_key_file)",
      "a.yaml:4:43: targets.b.private_key_env: only for App authentication: add app_id",
      "a.yaml:4:65: targets.b.installation_id: only for App authentication: add app_id",
      "a.yaml:5:34: targets.c.app_id: an App needs its private key: set one of private_key_env and private_key_file",
      "a.yaml:6:34: targets.d.app_id: an App needs its private key: set one of private_key_env and private_key_file",
      "a.yaml:6:95: targets.d.token_env: a target authenticates with a token or as an App: remove token_env or app_id",
      "a.yaml:7:32: targets.e.app_id: GitHub App authentication is for GitHub targets",
      'a.yaml:8:34: targets.f.app_id: expected a positive number, or ${NAME} to read it from the environment, found the string "one"',
    ]);
  });
});
