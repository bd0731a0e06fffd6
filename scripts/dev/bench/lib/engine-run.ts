/**
 * What a queue benchmark's run of one engine stands on: a fresh bench database
 * readied for the engine, the app's client on it, and the sandbox with its key
 * limit; closed in order (workers stopped first, then the sandbox, what the
 * caller adds, the client, the database).
 */
import type { ChildProcess } from "node:child_process";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../../../app/db/client";
import { sandboxControl, startSandbox } from "../../../../sandbox/index";
import { openBenchDatabase } from "./bench-database";
import { prepareEngine, type QueueEngine } from "./queue-engines";

export interface EngineRun {
  url: string;
  db: PrismaClient;
  sandbox: Awaited<ReturnType<typeof startSandbox>>;
  control: ReturnType<typeof sandboxControl>;
  /** The run's worker processes: close() stops them before anything else. */
  workers: ChildProcess[];
  /** A worker process's environment on this run's database (production, the sandbox on loopback, quiet logs). */
  workerEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
  close(beforeDatabase?: () => Promise<void>): Promise<void>;
}

export async function openEngineRun(engine: QueueEngine, rateLimitPerMinute: number): Promise<EngineRun> {
  const database = await openBenchDatabase();
  const url = database.url;
  await prepareEngine(engine, url);
  const db = createPrismaClient(url);
  const sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute });
  const workers: ChildProcess[] = [];
  return {
    url,
    db,
    sandbox,
    control: sandboxControl(sandbox.url),
    workers,
    workerEnv: (extra = {}) => ({
      ...process.env,
      NODE_ENV: "production",
      SELLER_API_ALLOW_PRIVATE_HOSTS: "true",
      DATABASE_URL: url,
      LOG_LEVEL: "warn",
      ...extra,
    }),
    async close(beforeDatabase) {
      for (const w of workers) w.kill("SIGTERM");
      await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.on("exit", r)))));
      await sandbox.close();
      await beforeDatabase?.();
      await db.$disconnect();
      await database.close();
    },
  };
}
