/** Small doubles shared by the queue tests. */
import type { QueueLogger } from "../../app/queue/types";

export interface FakeClock {
  now(): Date;
  advance(ms: number): void;
}

/**
 * Moves only when told. Starts a second ahead of real time, so jobs enqueued in
 * the test with the default runAt (real now) are due.
 */
export function fakeClock(startMs: number = Date.now() + 1000): FakeClock {
  let t = startMs;
  return {
    now: () => new Date(t),
    advance: (ms) => {
      t += ms;
    },
  };
}

export interface CapturedLogger extends QueueLogger {
  lines: string[];
}

export function captureLogger(): CapturedLogger {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}

/** A promise with its resolver, to hold a handler until a test lets it go. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
