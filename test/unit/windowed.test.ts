import { setImmediate as afterEvents } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { runWindowed } from "../../src/engine/windowed.js";

/** Tasks that note when each starts, each finishing after `delay(index)` event-loop turns. */
function noted(count: number, delay: (index: number) => number = () => 1) {
  const log: string[] = [];
  let running = 0;
  let most = 0;
  const tasks = Array.from({ length: count }, (_, index) => async () => {
    log.push(`start ${index}`);
    running += 1;
    most = Math.max(most, running);
    for (let turn = 0; turn < delay(index); turn++) await afterEvents();
    running -= 1;
    return index * 10;
  });
  return { tasks, log, most: () => most };
}

describe("runWindowed", () => {
  it("keeps the tasks' order in its results, with at most `width` unfinished at a time", async () => {
    const { tasks, most } = noted(100, (index) => (index * 7) % 5);
    expect(await runWindowed(tasks, 32)).toEqual(Array.from({ length: 100 }, (_, i) => i * 10));
    expect(most()).toBe(32);
  });

  it("lets the first 16 tasks' work out onto the event loop before it starts the rest", async () => {
    const { tasks, log } = noted(64);
    const marks: string[] = [];
    // An event-loop turn queued now runs after the first tasks start and before the others do.
    void afterEvents().then(() => marks.push(`turn after ${log.length} starts`));
    await runWindowed(tasks, 64);
    expect(marks).toEqual(["turn after 16 starts"]);
  });

  it("rejects with the first failure, even one while the rest of the window starts", async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", note);
    try {
      const tasks = Array.from({ length: 40 }, (_, index) => async () => {
        if (index === 0) throw new Error("task 0 failed");
        await afterEvents();
        return index;
      });
      await expect(runWindowed(tasks, 40)).rejects.toThrow("task 0 failed");
      await afterEvents();
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", note);
    }
  });
});
