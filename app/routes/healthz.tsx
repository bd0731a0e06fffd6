import { checkDatabase, eventLoopHealth } from "../models/health.server";

// Unauthenticated liveness + readiness probe: the app is healthy when its database answers.
// eventLoop: this process's event-loop delay, current and previous 10 s windows.
export const loader = async () => {
  const database = await checkDatabase();
  return Response.json(
    { status: database.ok ? "ok" : "unavailable", database: database.ok ? "ok" : database.error, eventLoop: eventLoopHealth() },
    { status: database.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
};
