/**
 * What the unauthenticated probes answer. /healthz (liveness): healthy when the database
 * answers, with its kind and this process's event-loop delay (current and previous 10 s
 * windows). /readyz (load balancers, deploys): ready when this process can serve; which
 * check failed goes only to the metrics listener (server.ts), never to a client.
 */
import prisma from "../db.server";
import { checkDatabase, eventLoopHealth } from "../runtime/health.server";
import { publicReadinessResponse, readinessResponse } from "../runtime/readiness.server";

export async function healthAnswer(): Promise<Response> {
  const database = await checkDatabase();
  const reported = database.ok
    ? { kind: database.kind, reachable: true }
    : { kind: database.kind, reachable: false, error: database.error };
  return Response.json(
    { status: database.ok ? "ok" : "unavailable", database: reported, eventLoop: eventLoopHealth() },
    { status: database.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}

/** wholeReport: the metrics listener asks (a load context no client can give) and reads every check. */
export function readinessAnswer(wholeReport: boolean): Promise<Response> {
  return wholeReport ? readinessResponse(prisma) : publicReadinessResponse(prisma);
}
