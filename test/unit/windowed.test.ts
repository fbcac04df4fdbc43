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

  it("starts 16 tasks in each turn of the event loop, so answers are read between", async () => {
    // No task finishes before the window has started, so each turn's starts are its own.
    const { tasks, log } = noted(64, () => 10);
    const seen: number[] = [];
    let done = false;
    // Queued before the window's own turns, so each runs after one turn's starts and before the next.
    const note = () => {
      seen.push(log.length);
      if (!done) setImmediate(note);
    };
    setImmediate(note);
    await runWindowed(tasks, 64);
    done = true;
    expect(seen.slice(0, 4)).toEqual([16, 32, 48, 64]);
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
