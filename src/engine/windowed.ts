import { setImmediate as yieldToEvents } from "node:timers/promises";

/**
 * How many of the window's tasks start before the rest: each runs synchronously up to its first
 * read, and no request leaves before the code that started them yields. With all 512 started at
 * once, a 1,000-repository plan (bench/plan-1k.js) sent its first read 0.13–0.19 s after its
 * listing was read; with 16 first, 0.03 s.
 */
const FIRST_STARTED = 16;

/** Runs `tasks` with at most `width` unfinished at a time; results keep the tasks' order. */
export async function runWindowed<T>(
  tasks: ReadonlyArray<() => Promise<T>>,
  width: number,
): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < tasks.length) {
      const index = next++;
      try {
        results[index] = await tasks[index]!();
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const lanes = Math.min(width, tasks.length);
  const first = Promise.all(Array.from({ length: Math.min(lanes, FIRST_STARTED) }, lane));
  if (lanes > FIRST_STARTED) {
    // Observed now and awaited below, so a failure while the rest start is not left unhandled.
    first.catch(() => undefined);
    // The first tasks' requests go out now; the rest of the window starts once they have.
    await yieldToEvents();
    await Promise.all([first, ...Array.from({ length: lanes - FIRST_STARTED }, lane)]);
  } else {
    await first;
  }
  return results;
}
