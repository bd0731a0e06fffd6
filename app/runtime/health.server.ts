import prisma, { type Db } from "../db.server";
import { loopDelayReport, startLoopDelayMonitor, type LoopDelayReport } from "./event-loop.server";

/** `kind` stays in the answer for the probes that read it: the one database there is. */
export type DatabaseHealth = { ok: true; kind: "postgres" } | { ok: false; kind: "postgres"; error: string };

// Measured from start-up, not from the first probe.
startLoopDelayMonitor();

export async function checkDatabase(db: Db = prisma): Promise<DatabaseHealth> {
  try {
    await db.$queryRaw`SELECT 1`;
    return { ok: true, kind: "postgres" };
  } catch (error) {
    // The class name only: driver messages can carry connection strings.
    return { ok: false, kind: "postgres", error: error instanceof Error ? error.name : "unknown error" };
  }
}

/** The event-loop delay of this process: a stalled loop answers nobody, webhooks included. */
export function eventLoopHealth(): LoopDelayReport {
  return loopDelayReport();
}
