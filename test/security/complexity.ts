/**
 * Complexity checks for the security suite: time(2n) / time(n), each the median
 * of several runs, so a linear routine scores about 2 and a quadratic one 4,
 * whatever the machine's speed.
 */

function timesMs(fn: () => unknown, runs: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    fn();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** Median wall time of `runs` calls, in ms. */
export function medianMs(fn: () => unknown, runs = 5): number {
  const times = timesMs(fn, runs);
  return times[Math.floor(times.length / 2)];
}

/**
 * `prepare(size)` builds the input (not timed) and returns the call to time.
 * The median by default; `min` for calls of a few milliseconds, where one
 * garbage collection or another process's burst would decide a median of 3.
 */
export function timeRatio(
  prepare: (size: number) => () => unknown,
  n: number,
  runs = 5,
  estimator: "median" | "min" = "median",
): { small: number; large: number; ratio: number } {
  const smallCall = prepare(n);
  const largeCall = prepare(2 * n);
  smallCall(); // warm up the JIT (and any memo) on the same path
  largeCall();
  const pick = (times: number[]) => (estimator === "min" ? times[0] : times[Math.floor(times.length / 2)]);
  const small = pick(timesMs(smallCall, runs));
  const large = pick(timesMs(largeCall, runs));
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
