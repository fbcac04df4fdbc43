import { setImmediate as yieldToEvents } from "node:timers/promises";

/**
 * How many of the window's tasks start in one turn of the event loop: each runs synchronously up to
 * its first read, and neither a request leaves nor an answer is read before the code that started
 * them yields. With all 512 started at once, a 1,000-repository plan (bench/plan-1k.js) sent its
 * first read 0.13–0.19 s after its listing was read. With 16 first and the other 496 in the next
 * turn, the first reads left at once, but their answers then waited about 80 ms for the 496 to
 * start; with 16 in each turn, the answers come in between.
 */
const STARTED_PER_TURN = 16;

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
  const started: Array<Promise<unknown>> = [];
  for (let begun = 0; begun < lanes && !failed && next < tasks.length;) {
    if (begun > 0) await yieldToEvents();
    const count = Math.min(STARTED_PER_TURN, lanes - begun);
    const turn = Promise.all(Array.from({ length: count }, lane));
    // Observed now and awaited below, so a failure while the rest start is not left unhandled.
    turn.catch(() => undefined);
    started.push(turn);
    begun += count;
  }
  await Promise.all(started);
  return results;
}
