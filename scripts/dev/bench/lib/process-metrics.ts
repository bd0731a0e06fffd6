/**
 * Reading a process's figures from its Prometheus endpoint (METRICS_PORT), as
 * an operator's scraper would: the benchmarks take heap, RSS, event-loop delay
 * and status-sync cycles from there, not from log lines, and the tests check
 * that each family moves.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text format (the sample lines; comments and blank lines skipped). */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]] = pair[2].replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
    }
    const raw = match[3];
    const value = raw === "+Inf" ? Infinity : raw === "-Inf" ? -Infinity : Number(raw);
    samples.push({ name: match[1], labels, value });
  }
  return samples;
}

/** The samples of a scrape, with a sum over the series whose labels include `labels`. */
export class Scrape {
  constructor(readonly samples: Sample[]) {}

  /** Sum of the matching series; NaN when none matches. */
  value(name: string, labels: Record<string, string> = {}): number {
    const matching = this.series(name, labels);
    return matching.length === 0 ? NaN : matching.reduce((sum, s) => sum + s.value, 0);
  }

  /** Like value, 0 when no series matches (a counter never incremented). */
  count(name: string, labels: Record<string, string> = {}): number {
    const v = this.value(name, labels);
    return Number.isNaN(v) ? 0 : v;
  }

  series(name: string, labels: Record<string, string> = {}): Sample[] {
    return this.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  }

  /** Every family (metric name, suffixes of histograms folded) present. */
  families(): Set<string> {
    return new Set(this.samples.map((s) => s.name.replace(/_(bucket|sum|count)$/, "")));
  }
}

/** GET `url` (a /metrics address); throws when it does not answer 200. */
export async function scrape(url: string, init: { token?: string; timeoutMs?: number } = {}): Promise<Scrape> {
  const response = await fetch(url, {
    headers: init.token ? { Authorization: `Bearer ${init.token}` } : {},
    signal: AbortSignal.timeout(init.timeoutMs ?? 10_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 200)}`);
  return new Scrape(parsePrometheusText(text));
}

/** What the benchmarks report of one process, read from its metrics. */
export interface ProcessFigures {
  rssMb: number;
  heapUsedMb: number;
  /** Event-loop delay over the process's last 10-20 s. */
  loopP99Ms: number;
  loopMaxMs: number;
  /** Status-sync cycles so far, and the sum of their durations. */
  syncCycles: number;
  syncSecondsSum: number;
  syncLeadsTracked: number;
}

const MB = 1024 * 1024;

export function figuresOf(s: Scrape): ProcessFigures {
  return {
    rssMb: s.value("process_resident_memory_bytes") / MB,
    heapUsedMb: s.value("nodejs_heap_size_used_bytes") / MB,
    loopP99Ms: s.value("cod_event_loop_delay_seconds", { quantile: "0.99" }) * 1000,
    loopMaxMs: s.value("cod_event_loop_delay_seconds", { quantile: "1" }) * 1000,
    syncCycles: s.count("cod_status_sync_cycle_seconds_count"),
    syncSecondsSum: s.count("cod_status_sync_cycle_seconds_sum"),
    syncLeadsTracked: s.count("cod_status_sync_leads_tracked_sum"),
  };
}

/** The figures of the process whose metrics are at `url`, or NaNs when it does not answer. */
export async function readFigures(url: string): Promise<ProcessFigures> {
  try {
    return figuresOf(await scrape(url, { timeoutMs: 5_000 }));
  } catch {
    return {
      rssMb: NaN,
      heapUsedMb: NaN,
      loopP99Ms: NaN,
      loopMaxMs: NaN,
      syncCycles: 0,
      syncSecondsSum: 0,
      syncLeadsTracked: 0,
    };
  }
}

/** One line of a process's figures for a benchmark's report. */
export function describeFigures(name: string, f: ProcessFigures, s?: Scrape): string {
  const done = s
    ? `, ${s.count("cod_jobs_total", { outcome: "done" })} jobs done, ${s.count("cod_seller_api_calls_total", { status: "429" })} answered 429`
    : "";
  return `${name}: RSS ${f.rssMb.toFixed(0)} MB, heap ${f.heapUsedMb.toFixed(0)} MB, event loop p99 ${f.loopP99Ms.toFixed(0)} ms, max ${f.loopMaxMs.toFixed(0)} ms (last 10-20 s)${done}`;
}
