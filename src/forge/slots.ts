/**
 * The client's concurrency: at most `size` attempts hold a slot at once, the rest wait in order.
 * Unlike a promise-based limiter (p-limit, which the client used before), a slot passes to the
 * next waiting attempt synchronously, inside `release`. The client releases a slot as an answer's
 * last byte is read (./http-fetch.ts), in Node's tick queue: the next request reaches its socket
 * there, before the microtasks that parse and plan the answer. Handed over through a promise, the
 * next attempt started among those microtasks, and Node wrote its request only after all of them:
 * about 0.4 ms more a request at 8 slots, most of what a plan of 1,000 repositories spent beyond a
 * bare client between an answer and the next request.
 */
export class Slots {
  #free: number;
  /** Waiting attempts' starts, oldest first from `#head` (an array shifted only by index). */
  #waiting: Array<(() => void) | undefined> = [];
  #head = 0;

  constructor(size: number) {
    this.#free = size;
  }

  /**
   * Runs `attempt` once a slot is free, with the slot's `release`: the slot is freed by the first
   * call to it, or when the attempt settles, whichever comes first.
   */
  run<T>(attempt: (release: () => void) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        let held = true;
        const release = () => {
          if (!held) return;
          held = false;
          this.#pass();
        };
        let running: Promise<T>;
        try {
          running = attempt(release);
        } catch (error) {
          release();
          reject(error);
          return;
        }
        running.then(
          (value) => {
            release();
            resolve(value);
          },
          (error: unknown) => {
            release();
            reject(error);
          },
        );
      };
      if (this.#free > 0) {
        this.#free--;
        start();
      } else {
        this.#waiting.push(start);
      }
    });
  }

  /** A slot is released: the oldest waiting attempt takes it now, or it is free. */
  #pass(): void {
    const next = this.#waiting[this.#head];
    if (next === undefined) {
      this.#free++;
      return;
    }
    this.#waiting[this.#head++] = undefined;
    if (this.#head === this.#waiting.length) {
      this.#waiting = [];
      this.#head = 0;
    }
    next();
  }
}
