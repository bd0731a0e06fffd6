/**
 * Applies prisma/migrations to a libsql database exactly as `prisma migrate
 * deploy` would on an empty one (same SQL files, same order), without the CLI.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";

export async function applyMigrations(url: string, migrationsDir: string): Promise<string[]> {
  const client = createClient({ url });
  try {
    const dirs = readdirSync(migrationsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    for (const dir of dirs) await client.executeMultiple(readFileSync(join(migrationsDir, dir, "migration.sql"), "utf8"));
    return dirs;
  } finally {
    client.close();
  }
}
