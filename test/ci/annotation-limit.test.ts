import { describe, expect, it } from "vitest";
import {
  type Annotation,
  ANNOTATIONS_PER_LEVEL,
  withinAnnotationLimit,
} from "../../src/action/workflow-commands.js";
import { runActionStep, SECRET_TOKEN, workspace, world } from "./helpers.js";

const error = (n: number): Annotation => ({ level: "error", title: "forgeplan", message: `e${n}` });
const warning = (n: number): Annotation => ({ level: "warning", message: `w${n}` });

describe("annotations within GitHub's 10 of each level a step", () => {
  it("keeps nine of a level that has more and says how many more there are and where", () => {
    const errors = Array.from({ length: 13 }, (_, n) => error(n));
    const notes = [warning(0), ...errors, warning(1)];
    const { shown, left } = withinAnnotationLimit(notes, "the log has them");
    expect(shown.filter((note) => note.level === "error")).toHaveLength(ANNOTATIONS_PER_LEVEL);
    expect(shown).toEqual([
      warning(0),
      ...errors.slice(0, 9),
      warning(1),
      { level: "error", title: "forgeplan", message: "4 more errors: the log has them" },
    ]);
    expect(left).toEqual(errors.slice(9));
  });

  it("leaves ten of a level as they are", () => {
    const notes = Array.from({ length: 10 }, (_, n) => error(n));
    expect(withinAnnotationLimit(notes, "anywhere")).toEqual({ shown: notes, left: [] });
  });

  it("annotates the first config errors and lists the rest in the log, fenced", async () => {
    const sandbox = await world();
    const repositories = Array.from(
      { length: 12 },
      (_, n) =>
        `  - name: acme/r${n}\n    branch_protection:\n      main:\n        enforce_admins: maybe\n`,
    );
    const cwd = workspace(sandbox, `repositories:\n${repositories.join("")}`);
    const run = await runActionStep({
      sandbox,
      cwd,
      inputs: { "github-token": SECRET_TOKEN, "gitlab-token": SECRET_TOKEN },
    });
    expect(run.code).toBe(1);
    const errors = run.log.split("\n").filter((line) => line.startsWith("::error"));
    expect(errors).toHaveLength(ANNOTATIONS_PER_LEVEL);
    expect(errors.at(-1)).toBe("::error title=forgeplan config::3 more errors: the log lists them");
    const fenced = /::stop-commands::([0-9a-f]+)\n([\s\S]*?)::\1::\n/.exec(run.log);
    expect(fenced?.[2]?.split("\n").filter((line) => line !== "")).toEqual(
      [9, 10, 11].map((n) =>
        expect.stringMatching(
          new RegExp(
            `^forgeplan: forgeplan\\.yaml:\\d+:\\d+: repositories\\[${n}\\]\\.branch_protection\\.main\\.enforce_admins: `,
          ),
        ),
      ),
    );
  });

  it("annotates nine changes that could not be planned and says how many more did not", async () => {
    const sandbox = await world();
    const branches = Array.from(
      { length: 12 },
      (_, n) => `      nope${n}: { enforce_admins: true }\n`,
    );
    const cwd = workspace(
      sandbox,
      `repositories:\n  - name: acme/api\n    branch_protection:\n${branches.join("")}`,
    );
    const run = await runActionStep({
      sandbox,
      cwd,
      inputs: { "github-token": SECRET_TOKEN, "gitlab-token": SECRET_TOKEN },
    });
    expect(run.code).toBe(1);
    const errors = run.log.split("\n").filter((line) => line.startsWith("::error"));
    expect(errors).toHaveLength(ANNOTATIONS_PER_LEVEL);
    expect(errors.slice(0, 9).every((line) => line.includes("/branch_protection/nope"))).toBe(true);
    expect(errors.at(-1)).toBe(
      "::error title=forgeplan::3 more errors: the job summary and the log say which and why",
    );
    expect(run.summary.match(/could not be planned/g)?.length ?? 0).toBeGreaterThan(0);
  });
});
