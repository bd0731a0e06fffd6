/**
 * The production build served for browser tests (shared with the benchmarks):
 * here, without a databaseUrl, the server gets a migrated database of its own on
 * the run's PostgreSQL server, dropped when it closes.
 */
import {
  startPreviewServer as startOnDatabase,
  type PreviewServer,
  type PreviewServerOptions,
} from "../../scripts/dev/lib/preview-server";
import { applyMigrations, createEmptyDatabase } from "./db";

export * from "../../scripts/dev/lib/preview-server";

export async function startPreviewServer(
  options: Omit<PreviewServerOptions, "databaseUrl"> & { databaseUrl?: string },
): Promise<PreviewServer> {
  if (options.databaseUrl) return startOnDatabase({ ...options, databaseUrl: options.databaseUrl });
  const database = await createEmptyDatabase();
  try {
    await applyMigrations(database.url);
    const server = await startOnDatabase({ ...options, databaseUrl: database.url });
    return {
      ...server,
      async close() {
        await server.close();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}
