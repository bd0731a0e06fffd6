/**
 * Each vitest project's one embedded PostgreSQL server (vitest.config.ts):
 * each test file then creates its own database on it (test/helpers/db.ts).
 */
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../scripts/dev/lib/embedded-postgres";

declare module "vitest" {
  export interface ProvidedContext {
    postgresServerUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startEmbeddedPostgres({ throwAway: true });
  console.log(`[postgres] ${project.name}: tests run on PostgreSQL (embedded, port ${server.port})`);
  project.provide("postgresServerUrl", server.url());
  return () => server.stop();
}
