import { checkDatabase } from "../models/health.server";

// Unauthenticated liveness + readiness probe: the app is healthy when its database answers.
export const loader = async () => {
  const database = await checkDatabase();
  return Response.json(
    { status: database.ok ? "ok" : "unavailable", database: database.ok ? "ok" : database.error },
    { status: database.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
};
