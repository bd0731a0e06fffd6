/**
 * Retry delays for failed jobs: exponential, capped, with full jitter (AWS "Exponential
 * Backoff And Jitter"), so workers that failed together do not retry together.
 */
export interface BackoffOptions {
  baseMs?: number;
  capMs?: number;
  /** In [0, 1); injectable so tests are deterministic. */
  random?: () => number;
}

export const DEFAULT_BACKOFF_BASE_MS = 1000;
export const DEFAULT_BACKOFF_CAP_MS = 15 * 60_000;

/** Delay before the retry that follows failed attempt number `attempt` (1-based). */
export function backoffDelayMs(attempt: number, options: BackoffOptions = {}): number {
  const baseMs = options.baseMs ?? DEFAULT_BACKOFF_BASE_MS;
  const capMs = options.capMs ?? DEFAULT_BACKOFF_CAP_MS;
  const random = options.random ?? Math.random;
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  // 2 ** exponent overflows to Infinity for huge attempts; min() still caps it.
  const ceilingMs = Math.min(capMs, baseMs * 2 ** exponent);
  return Math.floor(random() * ceilingMs);
}
