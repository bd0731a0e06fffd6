import prisma, { type Db } from "../db.server";

export type DatabaseHealth = { ok: true } | { ok: false; error: string };

export async function checkDatabase(db: Db = prisma): Promise<DatabaseHealth> {
  try {
    await db.$queryRaw`SELECT 1`;
    return { ok: true };
  } catch (error) {
    // The class name only: driver messages can carry connection strings.
    return { ok: false, error: error instanceof Error ? error.name : "unknown error" };
  }
}
