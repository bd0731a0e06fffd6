/**
 * A clock whose sleep returns at once and moves time forward, so tests can assert
 * waits of minutes in milliseconds. `sleeps` records every requested wait.
 */
export interface FakeClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  advance: (ms: number) => void;
  sleeps: number[];
}

export function createFakeClock(startMs = Date.UTC(2025, 0, 15, 10, 0, 0)): FakeClock {
  let t = startMs;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += Math.max(0, ms);
    },
    advance: (ms) => {
      t += ms;
    },
    sleeps,
  };
}
