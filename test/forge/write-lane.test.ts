import { describe, expect, it } from "vitest";
import { systemClock } from "../../src/forge/client.js";
import { WriteLane, writeLaneOf } from "../../src/forge/write-lane.js";
import { FakeClock } from "./fake-clock.js";

/** Takes the lane, whether it was free (a release at once) or after a wait. */
async function take(lane: WriteLane, signal?: AbortSignal): Promise<() => void> {
  return lane.acquire(signal);
}

describe("the write lane", () => {
  it("gives a free lane at once, then one holder at a time in the order they asked", async () => {
    const lane = new WriteLane();
    const first = lane.acquire(undefined);
    expect(typeof first).toBe("function");
    const order: string[] = [];
    const waiting = ["b", "c", "d"].map((name) =>
      take(lane).then((release) => {
        order.push(name);
        return release;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    (first as () => void)();
    for (const turn of waiting) (await turn)();
    expect(order).toEqual(["b", "c", "d"]);
    expect(typeof lane.acquire(undefined)).toBe("function");
  });

  it("drops a waiter whose signal fires, and the next one gets the lane", async () => {
    const lane = new WriteLane();
    const release = await take(lane);
    const cancel = new AbortController();
    const cancelled = take(lane, cancel.signal);
    let granted = false;
    const next = take(lane).then((r) => {
      granted = true;
      return r;
    });
    cancel.abort(new Error("interrupted"));
    await expect(cancelled).rejects.toThrow("interrupted");
    release();
    const nextRelease = await next;
    expect(granted).toBe(true);
    // A second call of a spent release hands nothing on: the lane stays with its holder.
    release();
    expect(lane.acquire(undefined)).toBeInstanceOf(Promise);
    nextRelease();
  });

  it("refuses at once when the signal has already fired", async () => {
    const cancel = new AbortController();
    cancel.abort(new Error("interrupted"));
    await expect(take(new WriteLane(), cancel.signal)).rejects.toThrow("interrupted");
  });

  it("is one lane per clock, service and writer", () => {
    const clock = new FakeClock();
    const lane = writeLaneOf(clock, "https://api.github.com", "token:a");
    expect(writeLaneOf(clock, "https://api.github.com", "token:a")).toBe(lane);
    expect(writeLaneOf(clock, "https://api.github.com", "token:b")).not.toBe(lane);
    expect(writeLaneOf(clock, "https://ghe.example", "token:a")).not.toBe(lane);
    expect(writeLaneOf(systemClock, "https://api.github.com", "token:a")).not.toBe(lane);
  });
});
