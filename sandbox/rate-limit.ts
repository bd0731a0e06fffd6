/**
 * Per-key rate limit in fixed one-minute windows of the sandbox clock (pure).
 *
 * A key's windows are anchored at its first counted call: [anchor + k·60 s, anchor + (k+1)·60 s).
 * The contract says "retrying at once consumes the next minute"; the sandbox reads it as:
 * a call refused in an exhausted window is charged to the following window. The 429 then
 * states the wait until the first window that still has room, so a client that waits the
 * stated delay is always served, and one that hammers pushes its own recovery further away.
 */
export const WINDOW_MS = 60_000;

export interface RateWindowState {
  anchorMs: number;
  /** calls charged per window index; only the current and later windows are kept */
  counts: Map<number, number>;
}

export type RateDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterMs: number };

export function newRateState(): RateWindowState {
  return { anchorMs: Number.NaN, counts: new Map() };
}

export function takeCall(state: RateWindowState, nowMs: number, limitPerMinute: number): RateDecision {
  const limit = Math.max(1, limitPerMinute);
  if (Number.isNaN(state.anchorMs)) state.anchorMs = nowMs;
  const current = Math.floor((nowMs - state.anchorMs) / WINDOW_MS);
  for (const w of state.counts.keys()) if (w < current) state.counts.delete(w);

  const used = state.counts.get(current) ?? 0;
  if (used < limit) {
    state.counts.set(current, used + 1);
    return { allowed: true, remaining: limit - used - 1 };
  }
  state.counts.set(current + 1, (state.counts.get(current + 1) ?? 0) + 1);
  let open = current + 1;
  while ((state.counts.get(open) ?? 0) >= limit) open++;
  return { allowed: false, retryAfterMs: state.anchorMs + open * WINDOW_MS - nowMs };
}

/** Whole seconds, rounded up, never 0: waiting exactly this long is always enough. */
export const retryAfterSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
