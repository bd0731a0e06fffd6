/**
 * The database a benchmark runs on, with every migration applied:
 * `--database sqlite` (default) a fresh file in a temporary directory,
 * `--database postgres` a fresh database on an embedded PostgreSQL server the
 * benchmark starts (durable settings, as a real deployment runs: fsync on),
 * or any URL given with `--database-url` (left in place at the end).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databaseKind, type DatabaseKind } from "../../../app/db-url";
import { startEmbeddedPostgres } from "../../lib/embedded-postgres";
import { applyMigrations } from "../../lib/migrations";

const migrationsDir = join(import.meta.dirname, "..", "..", "..", "prisma", "migrations");

export type BenchDatabaseKind = DatabaseKind;

export interface BenchDatabase {
  kind: BenchDatabaseKind;
  url: string;
  /** The SQLite file's path, when it is one. */
  sqliteFile: string | null;
  close(): Promise<void>;
}

export function benchDatabaseKind(value: string | undefined): BenchDatabaseKind {
  if (value === undefined || value === "sqlite") return "sqlite";
  if (value === "postgres") return "postgres";
  throw new Error(`--database must be sqlite or postgres, not ${value}`);
}

export async function openBenchDatabase(options: { kind: BenchDatabaseKind; name: string; url?: string }): Promise<BenchDatabase> {
  if (options.url) {
    await applyMigrations(options.url, migrationsDir);
    const kind = databaseKind(options.url);
    return { kind, url: options.url, sqliteFile: kind === "sqlite" ? options.url.replace(/^file:/, "") : null, close: async () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), `cod-${options.name}-`));
  if (options.kind === "sqlite") {
    const file = join(dir, `${options.name}.sqlite`);
    const url = `file:${file}`;
    await applyMigrations(url, migrationsDir);
    return { kind: "sqlite", url, sqliteFile: file, close: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const server = await startEmbeddedPostgres();
  try {
    const url = server.url();
    await applyMigrations(url, migrationsDir);
    return {
      kind: "postgres",
      url,
      sqliteFile: null,
      async close() {
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
