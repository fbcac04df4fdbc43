import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAction } from "../../src/action/run.js";
import { SECRET_TOKEN, tempDir, workspace, world } from "./helpers.js";

describe("an unexpected error in the Action", () => {
  it("becomes one annotation that quotes no secret", async () => {
    const sandbox = await world();
    const cwd = workspace(sandbox, "");
    // An event file that is not JSON, holding the token: the parser's message quotes what it read.
    const event = join(tempDir(), "event.json");
    writeFileSync(event, `{"token": ${SECRET_TOKEN}}`);
    let log = "";
    const code = await runAction({
      env: {
        INPUT_COMMAND: "plan",
        "INPUT_GITHUB-TOKEN": SECRET_TOKEN,
        "INPUT_WRITE-INTERVAL": "0",
        GITHUB_EVENT_PATH: event,
        RUNNER_TEMP: tempDir(),
      },
      cwd,
      write: (text) => {
        log += text;
      },
    });
    expect(code).toBe(1);
    const lines = log.split("\n");
    expect(lines[0]).toBe(`::add-mask::${SECRET_TOKEN}`);
    const internal = lines.filter((line) =>
      line.startsWith("::error title=forgeplan::internal error:"),
    );
    expect(internal).toHaveLength(1);
    expect(internal[0]).toContain("(sensitive)");
    expect(lines.slice(1).join("\n")).not.toContain(SECRET_TOKEN);
  });
});
