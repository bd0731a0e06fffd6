import { checkDatabase, eventLoopHealth } from "../runtime/health.server";

// Unauthenticated liveness + readiness probe: the app is healthy when its database answers.
// database: its kind (postgres) and whether it answered; eventLoop: this process's
// event-loop delay, current and previous 10 s windows.
export const loader = async () => {
  const database = await checkDatabase();
  const reported = database.ok
    ? { kind: database.kind, reachable: true }
    : { kind: database.kind, reachable: false, error: database.error };
  return Response.json(
    { status: database.ok ? "ok" : "unavailable", database: reported, eventLoop: eventLoopHealth() },
    { status: database.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
};
