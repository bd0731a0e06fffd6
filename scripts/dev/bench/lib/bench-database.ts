/**
 * The database a benchmark runs on, with every migration applied:
 * `--database sqlite` (default) a fresh file in a temporary directory,
 * `--database postgres` a fresh database on an embedded PostgreSQL server the
 * benchmark starts (durable settings, as a real deployment runs: fsync on).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseKind } from "../../../../app/db/url";
import { startEmbeddedPostgres } from "../../lib/embedded-postgres";
import { applyMigrations } from "../../../../app/db/migrations.server";

const migrationsDir = join(import.meta.dirname, "..", "..", "..", "..", "prisma", "migrations");

export interface BenchDatabase {
  kind: DatabaseKind;
  url: string;
  close(): Promise<void>;
}

export function benchDatabaseKind(value: string | undefined): DatabaseKind {
  if (value === undefined || value === "sqlite") return "sqlite";
  if (value === "postgres") return "postgres";
  throw new Error(`--database must be sqlite or postgres, not ${value}`);
}

export async function openBenchDatabase(options: { kind: DatabaseKind; name: string }): Promise<BenchDatabase> {
  if (options.kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), `cod-${options.name}-`));
    const url = `file:${join(dir, `${options.name}.sqlite`)}`;
    await applyMigrations(url, migrationsDir);
    return { kind: "sqlite", url, close: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const server = await startEmbeddedPostgres();
  try {
    const url = server.url();
    await applyMigrations(url, migrationsDir);
    return { kind: "postgres", url, close: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
