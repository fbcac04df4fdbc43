/** Injected failures for reliability tests, drawn from a seeded generator so runs repeat exactly. */

export type Fault = 502 | 503 | "secondary";

/** mulberry32: a tiny, well-mixed 32-bit generator; enough for picking faults reproducibly. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KINDS: readonly Fault[] = [502, 503, "secondary"];

export class FaultInjector {
  readonly #random: () => number;

  constructor(
    private readonly rate: number,
    seed: number,
  ) {
    this.#random = mulberry32(seed);
  }

  /** The fault for the next request in arrival order, or undefined to serve it normally. */
  next(): Fault | undefined {
    if (this.rate <= 0) return undefined;
    if (this.#random() >= this.rate) return undefined;
    return KINDS[Math.floor(this.#random() * KINDS.length)];
  }
}
