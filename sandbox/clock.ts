/**
 * The sandbox clock: real time plus an offset that only grows, so tests can jump
 * minutes ahead (rate-limit windows, duplicate window, autopilot) without sleeping.
 * A frozen clock ignores real time entirely, which makes edges (exactly 600 s) testable.
 */
export interface SandboxClock {
  now(): number;
  advance(seconds: number): number;
  onAdvance(listener: (nowMs: number) => void): () => void;
  readonly frozen: boolean;
}

export function createClock(options: { frozen?: boolean; startMs?: number } = {}): SandboxClock {
  const frozen = options.frozen ?? false;
  const realStart = Date.now();
  const start = options.startMs ?? realStart;
  let offsetMs = 0;
  const listeners = new Set<(nowMs: number) => void>();
  const now = () => (frozen ? start + offsetMs : Date.now() - realStart + start + offsetMs);
  return {
    frozen,
    now,
    advance(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0)
        throw new RangeError("advance_seconds must be a non-negative number");
      offsetMs += Math.round(seconds * 1000);
      const t = now();
      for (const listener of listeners) listener(t);
      return t;
    },
    onAdvance(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
