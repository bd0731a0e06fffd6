/**
 * The database a benchmark runs on, with every migration applied: a fresh
 * embedded PostgreSQL server the benchmark starts (durable settings, as a real
 * deployment runs: fsync on).
 */
import { join } from "node:path";
import { startEmbeddedPostgres } from "../../../lib/embedded-postgres";
import { applyMigrations } from "../../../../app/db/migrations.server";

const migrationsDir = join(import.meta.dirname, "..", "..", "..", "..", "prisma", "migrations");

export interface BenchDatabase {
  url: string;
  close(): Promise<void>;
}

export async function openBenchDatabase(): Promise<BenchDatabase> {
  const server = await startEmbeddedPostgres();
  try {
    const url = server.url();
    await applyMigrations(url, migrationsDir);
    return { url, close: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
