/**
 * The database a benchmark runs on, with every migration applied: a fresh
 * embedded PostgreSQL server the benchmark starts (durable settings, as a real
 * deployment runs: fsync on). `checkout`: another checkout whose migrations to
 * apply (a `--compare` baseline's worker runs on its own schema and triggers).
 */
import { join } from "node:path";
import { startEmbeddedPostgres } from "../../../lib/embedded-postgres";
import { applyMigrations } from "../../../../app/db/migrations.server";

const migrationsDir = join(import.meta.dirname, "..", "..", "..", "..", "prisma", "migrations");

export interface BenchDatabase {
  url: string;
  close(): Promise<void>;
}

export async function openBenchDatabase(checkout?: string): Promise<BenchDatabase> {
  const server = await startEmbeddedPostgres();
  try {
    const url = server.url();
    await applyMigrations(url, checkout ? join(checkout, "prisma", "migrations") : migrationsDir);
    return { url, close: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
