import prisma, { type Db } from "../db.server";
import { databaseKindOf } from "../db/dialect";
import type { DatabaseKind } from "../db/url";
import { loopDelayReport, startLoopDelayMonitor, type LoopDelayReport } from "./event-loop.server";

export type DatabaseHealth = { ok: true; kind: DatabaseKind } | { ok: false; kind: DatabaseKind; error: string };

// Measured from start-up, not from the first probe.
startLoopDelayMonitor();

export async function checkDatabase(db: Db = prisma): Promise<DatabaseHealth> {
  try {
    await db.$queryRaw`SELECT 1`;
    return { ok: true, kind: databaseKindOf(db) };
  } catch (error) {
    // The class name only: driver messages can carry connection strings.
    return { ok: false, kind: databaseKindOf(db), error: error instanceof Error ? error.name : "unknown error" };
  }
}

/** The event-loop delay of this process: a stalled loop answers nobody, webhooks included. */
export function eventLoopHealth(): LoopDelayReport {
  return loopDelayReport();
}
