/**
 * Complexity checks for the security suite: time(2n) / time(n), each the median
 * of several runs, so a linear routine scores about 2 and a quadratic one 4,
 * whatever the machine's speed.
 */

/** Median wall time of `runs` calls, in ms. */
export function medianMs(fn: () => unknown, runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** `prepare(size)` builds the input (not timed) and returns the call to time. */
export function timeRatio(prepare: (size: number) => () => unknown, n: number, runs = 5): { small: number; large: number; ratio: number } {
  const smallCall = prepare(n);
  const largeCall = prepare(2 * n);
  smallCall(); // warm up the JIT on the same path
  const small = medianMs(smallCall, runs);
  const large = medianMs(largeCall, runs);
  return { small, large, ratio: large / small };
}

/** The smallest n (doubling from `start`, at most `max`) where one call takes `floorMs`. */
export function sizeFor(prepare: (size: number) => () => unknown, start: number, max: number, floorMs = 20): number {
  let n = start;
  while (n < max && medianMs(prepare(n), 3) < floorMs) n *= 2;
  return n;
}

/** How many back-to-back calls of `fn` take `floorMs` (so a fast call is timed over many). */
export function repetitionsFor(fn: () => unknown, floorMs = 20, max = 10_000): number {
  let reps = 1;
  while (reps < max && medianMs(() => repeat(fn, reps), 3) < floorMs) reps *= 2;
  return reps;
}

export function repeat(fn: () => unknown, times: number): void {
  for (let i = 0; i < times; i++) fn();
}
