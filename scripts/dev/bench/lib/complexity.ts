/**
 * Complexity measures (`npm run bench -- complexity`): time(4n) / time(n), each the fastest
 * of several runs, in CPU time (another process's turn on the core is not the
 * routine's), so a linear routine scores about 4 and a quadratic one 16,
 * whatever the machine's speed. The bound leaves a linear routine room for the
 * cache and garbage-collection effects of a 4x larger input (seen up to 8 on a
 * loaded 2-core machine) and still flags a quadratic one; at 2n the two were only
 * 2 and 4 apart, which load blurred. The fastest run, because another process's
 * burst only ever adds time. They were assertions in the security tests until a
 * busy machine failed them: a ratio is still a speed.
 */
export const SCALE = 4;
export const LINEAR_BOUND = 10;

/** This process's CPU time in ms: what the routine computed, whatever else the machine runs meanwhile. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function timesMs(fn: () => unknown, runs: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = cpuMs();
    fn();
    times.push(cpuMs() - started);
  }
  return times.sort((a, b) => a - b);
}

/** Median CPU time of `runs` calls, in ms. */
function medianMs(fn: () => unknown, runs = 5): number {
  const times = timesMs(fn, runs);
  return times[Math.floor(times.length / 2)];
}

/**
 * `prepare(size)` builds the input (not timed) and returns the call to time,
 * at n and SCALE * n.
 */
export function timeRatio(
  prepare: (size: number) => () => unknown,
  n: number,
  runs = 5,
  estimator: "median" | "min" = "min",
): { small: number; large: number; ratio: number } {
  const smallCall = prepare(n);
  const largeCall = prepare(SCALE * n);
  smallCall(); // warm up the JIT (and any memo) on the same path
  largeCall();
  const pick = (times: number[]) => (estimator === "min" ? times[0] : times[Math.floor(times.length / 2)]);
  const small = pick(timesMs(smallCall, runs));
  const large = pick(timesMs(largeCall, runs));
  return { small, large, ratio: large / small };
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
