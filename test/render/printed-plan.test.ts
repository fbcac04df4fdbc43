import { describe, expect, it } from "vitest";
import { printPlan } from "../../src/cli/output.js";
import type { CommandIO } from "../../src/cli/io.js";
import { makePlan } from "../../src/core/plan.js";
import { Redactor } from "../../src/core/redact.js";
import { renderPlan } from "../../src/render/index.js";
import { createProtection } from "./fixtures.js";

describe("a printed JSON plan", () => {
  it("is the rendered plan, written in pieces of about 64 KiB rather than one per change", () => {
    const changes = Array.from({ length: 3000 }, (_, index) => ({
      ...createProtection,
      address: `${createProtection.address}-${index}`,
    }));
    const plan = makePlan(changes);
    const pieces: string[] = [];
    const io = {
      stdout: { write: (text: string) => pieces.push(text), isTTY: false },
      redactor: new Redactor(),
    } as unknown as CommandIO;
    printPlan(io, plan, "json", false);
    const text = pieces.join("");
    expect(text).toBe(renderPlan(plan, "json"));
    expect(pieces.length).toBeLessThanOrEqual(Math.ceil(text.length / (64 * 1024)) + 1);
    expect(pieces.length).toBeGreaterThan(1);
  });
});
