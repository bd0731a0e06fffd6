/**
 * What a lead's whole life costs in the soak: the work still to do (orders not
 * posted, lead events not told, write-backs and Flow triggers due), the CPU each
 * process used per lead, and the job attempts per lead by kind and outcome
 * (read from the processes' metrics).
 */
import type { PrismaClient } from "@prisma/client";
import { cpuTimeMs } from "./process-cpu";
import type { Scrape } from "./process-metrics";

export interface WorkLeft {
  /** Orders not posted or refused yet. */
  links: number;
  /** Lead events recorded and not told yet (they queue write-backs and triggers). */
  events: number;
  /**
   * Write-back and Flow trigger jobs waiting (due now, or coming within their
   * coalescing delay) or running, of those last queued before `queuedBefore`
   * when given: the autopilot keeps moving leads, so new ones keep coming.
   */
  shopifyJobs: number;
}

export async function workLeft(db: PrismaClient, shop: string, queuedBefore?: Date): Promise<WorkLeft> {
  const [links, events, shopifyJobs] = await Promise.all([
    db.orderLink.count({ where: { shop, state: { in: ["received", "posting", "retrying"] } } }),
    db.pendingLeadEvent.count({ where: { shop, ...(queuedBefore ? { at: { lte: queuedBefore } } : {}) } }),
    db.job.count({
      where: {
        shop,
        kind: { in: ["write-back", "flow-trigger"] },
        state: { in: ["pending", "running", "failed"] },
        runAt: { lte: new Date(Date.now() + 10_000) },
        // Woken last before then: a job woken again since (a later status move) holds newer work, not this.
        ...(queuedBefore ? { updatedAt: { lte: queuedBefore } } : {}),
      },
    }),
  ]);
  return { links, events, shopifyJobs };
}

export const nothingLeft = (w: WorkLeft) => w.links === 0 && w.events === 0 && w.shopifyJobs === 0;

/** CPU time (ms) of each process, read now. */
export function cpuOf(processes: readonly { name: string; pid: number }[]): Record<string, number> {
  const { user, system } = process.cpuUsage();
  return {
    ...Object.fromEntries(processes.map((p) => [p.name, cpuTimeMs(p.pid)])),
    "load generator": (user + system) / 1000,
  };
}

/** CPU ms per lead of each process between two readings. */
export function cpuPerLead(
  before: Record<string, number>,
  after: Record<string, number>,
  leads: number,
): Record<string, number> {
  return Object.fromEntries(
    Object.keys(after).map((name) => [name, Number(((after[name] - before[name]) / Math.max(1, leads)).toFixed(2))]),
  );
}

/** Job attempts ended per lead, by kind and outcome (cod_jobs_total of the app's and the worker's metrics). */
export function jobsPerLead(scrapes: Iterable<Scrape>, leads: number): Record<string, Record<string, number>> {
  const byKind = new Map<string, Map<string, number>>();
  for (const scrape of scrapes) {
    for (const sample of scrape.series("cod_jobs_total")) {
      const outcomes = byKind.get(sample.labels.kind) ?? new Map<string, number>();
      outcomes.set(sample.labels.outcome, (outcomes.get(sample.labels.outcome) ?? 0) + sample.value);
      byKind.set(sample.labels.kind, outcomes);
    }
  }
  const perLead = (n: number) => Number((n / Math.max(1, leads)).toFixed(2));
  return Object.fromEntries(
    [...byKind].map(([kind, outcomes]) => [
      kind,
      Object.fromEntries([...outcomes].map(([outcome, n]) => [outcome, perLead(n)])),
    ]),
  );
}
