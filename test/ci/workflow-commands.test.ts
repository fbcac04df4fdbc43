import { describe, expect, it } from "vitest";
import { InputError, readInputs } from "../../src/action/inputs.js";
import { annotation, maskCommands, outputBlock } from "../../src/action/workflow-commands.js";
import { parseOutputs } from "./helpers.js";

describe("workflow commands", () => {
  it("escapes messages and properties as the runner decodes them", () => {
    expect(
      annotation({
        level: "error",
        file: "a,b:c.yaml",
        line: 3,
        col: 7,
        message: "100% wrong\nsecond line\r",
      }),
    ).toBe("::error file=a%2Cb%3Ac.yaml,line=3,col=7::100%25 wrong%0Asecond line%0D\n");
  });

  it("masks every line of a multi-line secret", () => {
    expect(maskCommands("line-one\r\nline-two\n")).toBe(
      "::add-mask::line-one\n::add-mask::line-two\n",
    );
  });

  it("writes outputs that survive new lines and look-alike delimiters", () => {
    const value = "a\nghadelimiter_x\nb";
    expect(parseOutputs(outputBlock("plan-json", value))).toEqual({ "plan-json": value });
  });
});

describe("Action inputs", () => {
  it("take the documented defaults", () => {
    expect(readInputs({})).toEqual({
      command: "plan",
      config: ["forgeplan.yaml"],
      format: "text",
      comment: undefined,
      allowDelete: false,
      allowVisibility: false,
      allowCreate: false,
      allowProtectionGap: false,
      allowPlanErrors: false,
      merge: [],
      commentKey: "forgeplan.yaml",
      acceptReplan: false,
      rotateSecrets: false,
      rotateSecretNames: [],
    });
    expect(readInputs({ INPUT_COMMENT: "auto", INPUT_CONFIG: "a.yaml\n b/ " })).toMatchObject({
      comment: undefined,
      config: ["a.yaml", "b/"],
      commentKey: "a.yaml b/",
    });
    expect(
      readInputs({
        "INPUT_COMMENT-KEY": "org",
        INPUT_COMMAND: "apply",
        "INPUT_ACCEPT-REPLAN": "true",
      }),
    ).toMatchObject({ commentKey: "org", acceptReplan: true });
    expect(readInputs({ INPUT_COMMENT: "False", INPUT_SHARD: "2/3" })).toMatchObject({
      comment: false,
      shard: { index: 2, count: 3 },
    });
  });

  it("refuse what cannot work, naming the input", () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ INPUT_FORMAT: "html" }, "input 'format' must be one of text, markdown, json, got 'html'"],
      [{ INPUT_SHARD: "5/4" }, "input 'shard' expects 1 ≤ K ≤ N, got '5/4'"],
      [
        { INPUT_MERGE: "plans", INPUT_COMMAND: "drift" },
        "input 'merge' combines shard plans: use it with command plan and no shard",
      ],
      [{ INPUT_CACHE: ".cache" }, "inputs 'cache' and 'report-issue' belong to command drift"],
      [{ "INPUT_ACCEPT-REPLAN": "true" }, "input 'accept-replan' belongs to command apply"],
    ];
    for (const [env, message] of cases) {
      expect(() => readInputs(env)).toThrow(new InputError(message));
    }
  });
});
