/**
 * The process's event-loop delay (perf_hooks.monitorEventLoopDelay), in
 * rotating windows: /healthz and the metrics report the current and the
 * previous window, and each window that ends is logged when it saw a stall, so
 * a blocked loop shows in the logs and to any probe without a probe resetting
 * what another reads.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";
import { log } from "./logger.server";
import { memoryReport } from "./process-memory.server";

export interface LoopDelayWindow {
  /** When the window started (ISO). */
  since: string;
  windowMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface LoopDelayReport {
  current: LoopDelayWindow;
  previous: LoopDelayWindow | null;
}

const WINDOW_MS = 10_000;
/**
 * A sample every 20 ms: a stall still shows whole (the late sample measures
 * it, at most one interval short), and an idle process is not woken 1,000
 * times a second (at 1 ms the sampling alone cost about 14 ms of CPU a second
 * on this machine, in every process). Each sample still wakes the process: at
 * 20 ms about 4 ms of CPU a second, so the worker, whose jobs no client waits
 * on, samples every 100 ms (`WORKER_LOOP_SAMPLE_MS`, about 1 ms a second).
 */
export const LOOP_SAMPLE_MS = 20;
export const WORKER_LOOP_SAMPLE_MS = 100;
/** A window whose max delay passes this is logged as a warning; every minute a summary and the memory at info. */
const STALL_LOG_MS = 200;
const SUMMARY_EVERY_WINDOWS = 6;

export interface Monitor {
  histogram: IntervalHistogram;
  sampleMs: number;
  since: number;
  previous: LoopDelayWindow | null;
  worstSinceSummary: LoopDelayWindow | null;
  windows: number;
}

declare global {
  var __codLeadSyncLoopMonitor: Monitor | undefined;
}

// A sample is the time between two timer turns: the sampling interval plus the delay. The delay alone is reported.
const toMs = (ns: number, sampleMs: number) => Math.max(0, Math.round((ns / 1e6 - sampleMs) * 10) / 10);

function snapshot(monitor: Monitor, now: number): LoopDelayWindow {
  const h = monitor.histogram;
  const ms = (ns: number) => toMs(ns, monitor.sampleMs);
  const empty = h.count === 0;
  return {
    since: new Date(monitor.since).toISOString(),
    windowMs: now - monitor.since,
    p50Ms: empty ? 0 : ms(h.percentile(50)),
    p99Ms: empty ? 0 : ms(h.percentile(99)),
    maxMs: empty ? 0 : ms(h.max),
  };
}

/**
 * Starts the monitor once per process; its lines carry the process's role (the
 * logger's). Called again with another `sampleMs` (the worker, after a module
 * it imports started it), it samples at that interval from then on.
 */
export function startLoopDelayMonitor(sampleMs = LOOP_SAMPLE_MS): Monitor {
  const existing = globalThis.__codLeadSyncLoopMonitor;
  if (existing) {
    if (existing.sampleMs !== sampleMs) {
      existing.histogram.disable();
      existing.histogram = monitorEventLoopDelay({ resolution: sampleMs });
      existing.histogram.enable();
      existing.sampleMs = sampleMs;
    }
    return existing;
  }
  const histogram = monitorEventLoopDelay({ resolution: sampleMs });
  histogram.enable();
  const monitor: Monitor = {
    histogram,
    sampleMs,
    since: Date.now(),
    previous: null,
    worstSinceSummary: null,
    windows: 0,
  };
  const timer = setInterval(() => {
    const now = Date.now();
    const window = snapshot(monitor, now);
    monitor.previous = window;
    monitor.histogram.reset();
    monitor.since = now;
    if (window.maxMs >= STALL_LOG_MS) {
      log.warn(`event loop stalled ${window.maxMs} ms`, {
        maxMs: window.maxMs,
        p99Ms: window.p99Ms,
        windowMs: window.windowMs,
        since: window.since,
      });
    }
    if (!monitor.worstSinceSummary || window.maxMs > monitor.worstSinceSummary.maxMs)
      monitor.worstSinceSummary = window;
    if (++monitor.windows % SUMMARY_EVERY_WINDOWS === 0) {
      const worst = monitor.worstSinceSummary;
      // The worst 10 s window of the last minute, and the memory: growth of RSS the heap does not show is native.
      log.info("event loop and memory", { loopP99Ms: worst.p99Ms, loopMaxMs: worst.maxMs, ...memoryReport() });
      monitor.worstSinceSummary = null;
    }
  }, WINDOW_MS);
  timer.unref();
  globalThis.__codLeadSyncLoopMonitor = monitor;
  return monitor;
}

export function loopDelayReport(): LoopDelayReport {
  const monitor = globalThis.__codLeadSyncLoopMonitor ?? startLoopDelayMonitor();
  return { current: snapshot(monitor, Date.now()), previous: monitor.previous };
}
