import { describe, expect, it } from "vitest";
import { Slots } from "../../src/forge/slots.js";

/** An attempt the test ends by hand, holding the `release` its slot gave it. */
function held() {
  const attempt: {
    release?: () => void;
    finish?: (value: string) => void;
    fail?: (error: Error) => void;
  } = {};
  const run = (release: () => void) => {
    attempt.release = release;
    return new Promise<string>((resolve, reject) => {
      attempt.finish = resolve;
      attempt.fail = reject;
    });
  };
  return { attempt, run };
}

describe("the client's concurrency slots", () => {
  it("run at most their number of attempts at once, the rest in the order they came", async () => {
    const slots = new Slots(2);
    const started: number[] = [];
    const attempts = Array.from({ length: 5 }, () => held());
    const results = attempts.map(({ run }, index) =>
      slots.run((release) => {
        started.push(index);
        return run(release);
      }),
    );
    expect(started).toEqual([0, 1]);
    attempts[1]!.attempt.finish!("one");
    await results[1];
    expect(started).toEqual([0, 1, 2]);
    attempts[0]!.attempt.finish!("zero");
    attempts[2]!.attempt.finish!("two");
    await Promise.all([results[0], results[2]]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    attempts[3]!.attempt.finish!("three");
    attempts[4]!.attempt.finish!("four");
    expect(await Promise.all(results)).toEqual(["zero", "one", "two", "three", "four"]);
  });

  it("pass a released slot to the next attempt within the release, before any promise settles", () => {
    const slots = new Slots(1);
    const first = held();
    void slots.run(first.run);
    let secondStarted = false;
    void slots.run(() => {
      secondStarted = true;
      return new Promise<string>(() => {});
    });
    expect(secondStarted).toBe(false);
    first.attempt.release!();
    expect(secondStarted).toBe(true);
  });

  it("free a slot once, however often it is released and whether the attempt settles after", async () => {
    const slots = new Slots(1);
    const first = held();
    const done = slots.run(first.run);
    const started: string[] = [];
    const next = (name: string) =>
      slots.run(() => {
        started.push(name);
        return new Promise<string>(() => {});
      });
    void next("second");
    void next("third");
    first.attempt.release!();
    first.attempt.release!();
    first.attempt.finish!("first");
    expect(await done).toBe("first");
    expect(started).toEqual(["second"]);
  });

  it("free the slot of an attempt that throws or rejects, and pass on its error", async () => {
    const slots = new Slots(1);
    const thrown = slots.run(() => {
      throw new Error("thrown");
    });
    await expect(thrown).rejects.toThrow("thrown");
    const rejecting = held();
    const rejected = slots.run(rejecting.run);
    const after = slots.run(async () => "after");
    rejecting.attempt.fail!(new Error("rejected"));
    await expect(rejected).rejects.toThrow("rejected");
    expect(await after).toBe("after");
  });

  it("keep their order over many waiting attempts", async () => {
    const slots = new Slots(3);
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 1000 }, (_, index) =>
        slots.run(async () => {
          order.push(index);
          await Promise.resolve();
        }),
      ),
    );
    expect(order).toEqual(Array.from({ length: 1000 }, (_, index) => index));
  });
});
