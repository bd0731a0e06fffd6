/**
 * The stand-in's clock: real time plus an offset that only grows (POST /_control/clock),
 * or a function given by a test. The leaky buckets, token expiry and the timestamps
 * mutations write all read it.
 */
export interface StandInClock {
  now(): number;
  advance(seconds: number): number;
}

export function createClock(now?: () => number): StandInClock {
  const base = now ?? Date.now;
  let offsetMs = 0;
  return {
    now: () => base() + offsetMs,
    advance(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0)
        throw new RangeError("advance_seconds must be a non-negative number");
      offsetMs += Math.round(seconds * 1000);
      return base() + offsetMs;
    },
  };
}
