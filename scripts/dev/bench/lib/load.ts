/** Open-loop load on loopback: requests start on schedule, whether or not earlier ones answered. */
export interface LoadResult {
  sent: number;
  ok: number;
  failed: number;
  durationMs: number;
  latenciesMs: number[];
}

export async function openLoop(options: {
  ratePerSecond: number;
  durationMs: number;
  send: (index: number) => Promise<number>;
}): Promise<LoadResult> {
  const interval = 1000 / options.ratePerSecond;
  const total = Math.round((options.durationMs / 1000) * options.ratePerSecond);
  const latencies: number[] = [];
  let ok = 0;
  let failed = 0;
  const inflight: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    inflight.push(
      options.send(i).then(
        (status) => {
          latencies.push(performance.now() - t0);
          if (status >= 200 && status < 300) ok++;
          else failed++;
        },
        () => void failed++,
      ),
    );
  }
  await Promise.all(inflight);
  return { sent: total, ok, failed, durationMs: performance.now() - started, latenciesMs: latencies };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const ms = (v: number) => `${v.toFixed(1)} ms`;
