/**
 * With TEST_DATABASE=postgres (`npm run test:postgres`): one embedded PostgreSQL
 * server for the whole run; each test file then creates its own database on it
 * (test/helpers/db.ts). Without it, nothing: the tests run on SQLite files.
 */
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../scripts/dev/lib/embedded-postgres";

declare module "vitest" {
  export interface ProvidedContext {
    postgresServerUrl: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE !== "postgres") {
    project.provide("postgresServerUrl", "");
    return;
  }
  const server = await startEmbeddedPostgres({ throwAway: true });
  console.log(`[postgres] tests run on PostgreSQL (embedded, port ${server.port})`);
  project.provide("postgresServerUrl", server.url());
  return () => server.stop();
}
