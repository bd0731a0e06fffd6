/**
 * graphile-worker as a candidate claimer for the app's jobs, installed on a
 * database by the benchmark or test that runs it, never by prisma/migrations:
 * graphile-worker's own schema (its migrations, `graphile_worker.*`), and a
 * trigger on our Job table that gives every row becoming pending or failed a
 * graphile job `cod_job` {id} at the row's runAt, in the writer's transaction.
 * The job_key is the row's id: a waiting graphile job is replaced (new runAt
 * and queue), a running one keeps running and a new one is added (graphile's
 * add_jobs, 0.18's sql/000020.sql), so each row has at most one waiting.
 *
 * Our Job table stays the record (the Activity page, the done counts, the
 * lease that keeps a job from running twice); graphile only decides which row
 * runs when (runner.ts leases it by id).
 */
import { runMigrations } from "graphile-worker";
import pg from "pg";
import { quietLogger } from "./logger";

/**
 * Graphile's named queues run one job at a time. Which queue a row's job joins:
 * - shop-kind-2: two queues per shop and kind (the id's hash), near our cap of 2 per shop and kind;
 * - shop-kind: one per shop and kind;
 * - shop: one per shop (decision 0024's micro-benchmark);
 * - none: no queue, any job runs as soon as a lane is free.
 * A job without a shop joins no queue.
 */
export const GRAPHILE_QUEUE_MODES = ["shop-kind-2", "shop-kind", "shop", "none"] as const;
export type GraphileQueueMode = (typeof GRAPHILE_QUEUE_MODES)[number];

const QUEUE_NAME: Record<GraphileQueueMode, string> = {
  "shop-kind-2": `NEW."shop" || ':' || NEW."kind" || ':' || (hashtext(NEW."id") & 1)::text`,
  "shop-kind": `NEW."shop" || ':' || NEW."kind"`,
  shop: `NEW."shop"`,
  none: `NULL`,
};

export const GRAPHILE_TASK = "cod_job";

export function parseQueueMode(value: string | undefined): GraphileQueueMode {
  const mode = value ?? "shop-kind-2";
  if (!(GRAPHILE_QUEUE_MODES as readonly string[]).includes(mode))
    throw new Error(`graphile queues: one of ${GRAPHILE_QUEUE_MODES.join(", ")}, not "${mode}"`);
  return mode as GraphileQueueMode;
}

/** Installs graphile-worker's schema and the Job trigger (replacing one installed before) on `connectionString`. */
export async function installGraphileCandidate(connectionString: string, mode: GraphileQueueMode): Promise<void> {
  await runMigrations({ connectionString, logger: quietLogger() });
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(`CREATE OR REPLACE FUNCTION "cod_job_to_graphile"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM graphile_worker.add_job('${GRAPHILE_TASK}', json_build_object('id', NEW."id"),
    queue_name := ${QUEUE_NAME[mode]}, run_at := NEW."runAt", job_key := NEW."id");
  RETURN NULL;
END;
$$`);
    await client.query(`DROP TRIGGER IF EXISTS "Job_to_graphile" ON "Job"`);
    await client.query(`CREATE TRIGGER "Job_to_graphile"
  AFTER INSERT OR UPDATE OF "state", "runAt" ON "Job"
  FOR EACH ROW WHEN (NEW."state" IN ('pending', 'failed'))
  EXECUTE FUNCTION "cod_job_to_graphile"()`);
    // Rows already waiting (written before the trigger) get their graphile job too.
    await client.query(`UPDATE "Job" SET "runAt" = "runAt" WHERE "state" IN ('pending', 'failed')`);
  } finally {
    await client.end();
  }
}
