/**
 * A seeded pseudo-random source for generated test inputs (mulberry32): the same seed gives the
 * same sequence on every run and machine, so a generated case that fails can be run again by its
 * seed. For tests only.
 */
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Seeded {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** True with probability `p`. */
  chance(p: number) {
    return this.next() < p;
  }

  /** A whole number from `lo` to `hi`, both included. */
  int(lo: number, hi: number) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Each item kept with probability `p`, in order. */
  subset<T>(items: readonly T[], p = 0.5): T[] {
    return items.filter(() => this.chance(p));
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** From `lo` to `hi` picks of `items` (repeats possible). */
  some<T>(items: readonly T[], lo: number, hi: number): T[] {
    const n = this.int(lo, hi);
    return Array.from({ length: n }, () => this.pick(items));
  }
}
