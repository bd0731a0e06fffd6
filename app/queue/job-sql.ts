/**
 * The queue's hot statements (app/db/sql): enqueue, the claim's one read and
 * its conditional update, and the settles. Every state change is a single
 * conditional statement, atomic: a count of 0 (or no row returned) means
 * another worker got there first.
 */
import { asBool, asDate, asNumber, asString, statement, type Row, type SqlStatement } from "../db/sql";

export const JOB_COLUMNS = `"id", "kind", "key", "shop", "payload", "state", "runAt", "attempts", "maxAttempts", "leaseOwner", "leaseExpiresAt", "lastError", "rerun", "createdAt", "updatedAt"`;

/** A Job row as the statements return it, values normalised. */
export interface JobRow {
  id: string;
  kind: string;
  key: string;
  shop: string | null;
  payload: string;
  state: string;
  runAt: Date;
  attempts: number;
  maxAttempts: number;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  lastError: string | null;
  rerun: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export function jobRow(r: Row): JobRow {
  return {
    id: String(r.id),
    kind: String(r.kind),
    key: String(r.key),
    shop: asString(r.shop),
    payload: String(r.payload),
    state: String(r.state),
    runAt: asDate(r.runAt)!,
    attempts: asNumber(r.attempts),
    maxAttempts: asNumber(r.maxAttempts),
    leaseOwner: asString(r.leaseOwner),
    leaseExpiresAt: asDate(r.leaseExpiresAt),
    lastError: asString(r.lastError),
    rerun: asBool(r.rerun),
    createdAt: asDate(r.createdAt)!,
    updatedAt: asDate(r.updatedAt)!,
  };
}

/**
 * Creates the job, or takes over the one with the same key: a running job keeps
 * running and is marked to run again (rerun); any other starts over as pending
 * with a fresh budget. maxAttempts: the column default on create, unchanged on
 * re-enqueue when not given. Params: id, kind, key, shop, payload, runAt,
 * maxAttempts, now, maxAttempts.
 */
const INSERT_JOB = `INSERT INTO "Job" ("id", "kind", "key", "shop", "payload", "state", "runAt", "attempts", "maxAttempts", "rerun", "createdAt", "updatedAt")`;
/** A job's row to insert, maxAttempts the column default unless given (params: id, kind, key, shop, payload, runAt, maxAttempts, now, now). */
const JOB_ROW = `(?, ?, ?, ?, ?, 'pending', ?, 0, COALESCE(?, 10), FALSE, ?, ?)`;
/** JOB_ROW with the column default for maxAttempts (params: id, kind, key, shop, payload, runAt, now, now). */
const JOB_ROW_DEFAULT_ATTEMPTS = `(?, ?, ?, ?, ?, 'pending', ?, 0, 10, FALSE, ?, ?)`;
const rowsOf = (row: string, count: number) => Array.from({ length: count }, () => row).join(", ");
/** A job taken over by a new enqueue: a running one runs again after (rerun), any other starts over. */
const TAKE_OVER = `
    "rerun" = ("Job"."state" = 'running'),
    "attempts" = CASE WHEN "Job"."state" = 'running' THEN "Job"."attempts" ELSE 0 END,
    "lastError" = CASE WHEN "Job"."state" = 'running' THEN "Job"."lastError" ELSE NULL END,
    "leaseOwner" = CASE WHEN "Job"."state" = 'running' THEN "Job"."leaseOwner" ELSE NULL END,
    "leaseExpiresAt" = CASE WHEN "Job"."state" = 'running' THEN "Job"."leaseExpiresAt" ELSE NULL END,
    "state" = CASE WHEN "Job"."state" = 'running' THEN 'running' ELSE 'pending' END,
    "updatedAt" = excluded."updatedAt"`;

/** A statement per row count, built once (the batch writers' multi-row statements). */
function byCount(build: (count: number) => SqlStatement): (count: number) => SqlStatement {
  const cache = new Map<number, SqlStatement>();
  return (count) => {
    let s = cache.get(count);
    if (!s) cache.set(count, (s = build(count)));
    return s;
  };
}

export const ENQUEUE = statement(`${INSERT_JOB}
  VALUES ${JOB_ROW}
  ON CONFLICT ("key") DO UPDATE SET
    "kind" = excluded."kind", "shop" = excluded."shop", "payload" = excluded."payload", "runAt" = excluded."runAt",
    "maxAttempts" = COALESCE(?, "Job"."maxAttempts"),${TAKE_OVER}
  RETURNING "id", "state"`);

/**
 * ENQUEUE for `count` jobs of distinct keys in one statement (a handler's
 * batch): each is created or taken over as ENQUEUE does; maxAttempts is the
 * column default on create and unchanged on take-over. Params per job: id,
 * kind, key, shop, payload, runAt, now, now.
 */
export const enqueueJobs = byCount((count) =>
  statement(`${INSERT_JOB} VALUES ${rowsOf(JOB_ROW_DEFAULT_ATTEMPTS, count)}
      ON CONFLICT ("key") DO UPDATE SET
        "kind" = excluded."kind", "shop" = excluded."shop", "payload" = excluded."payload", "runAt" = excluded."runAt",${TAKE_OVER}`),
);

/**
 * Wakes the jobs with these keys unless already waiting: a finished or dead one
 * starts over at runAt with the new payload, a running one runs again after
 * (rerun); a pending or failed one keeps its runAt and payload, so a burst of
 * wake-ups is one run. No row is written when nothing changes. Params per job:
 * id, kind, key, shop, payload, runAt, now, now.
 */
export const wakeJobs = byCount((count) =>
  statement(`${INSERT_JOB} VALUES ${rowsOf(JOB_ROW_DEFAULT_ATTEMPTS, count)}
      ON CONFLICT ("key") DO UPDATE SET
        "rerun" = ("Job"."state" = 'running'),
        "payload" = CASE WHEN "Job"."state" = 'running' THEN "Job"."payload" ELSE excluded."payload" END,
        "runAt" = CASE WHEN "Job"."state" = 'running' THEN "Job"."runAt" ELSE excluded."runAt" END,
        "attempts" = CASE WHEN "Job"."state" = 'running' THEN "Job"."attempts" ELSE 0 END,
        "lastError" = CASE WHEN "Job"."state" = 'running' THEN "Job"."lastError" ELSE NULL END,
        "state" = CASE WHEN "Job"."state" = 'running' THEN 'running' ELSE 'pending' END,
        "updatedAt" = excluded."updatedAt"
      WHERE "Job"."state" IN ('done', 'dead') OR ("Job"."state" = 'running' AND "Job"."rerun" = FALSE)`),
);

/** Inserts `count` jobs, leaving alone any whose key is taken. Params per job: id, kind, key, shop, payload, runAt, maxAttempts, now, now. */
export const insertNewJobs = byCount((count) =>
  statement(`${INSERT_JOB} VALUES ${rowsOf(JOB_ROW, count)} ON CONFLICT ("key") DO NOTHING`),
);

const oldest = (where: string, kinds: string) =>
  `(SELECT p."id" FROM "Job" p WHERE ${where} AND p."runAt" <= ?${kinds} ORDER BY p."runAt", p."id" LIMIT 1)`;
const kindFilter = (withKinds: boolean) => (withKinds ? ` AND p."kind" = ANY(?)` : "");
const CANDIDATE_COLUMNS = `j."id", j."kind", j."shop", j."state", j."attempts", j."maxAttempts", j."runAt", j."leaseExpiresAt"`;

/**
 * The claim's one read: the `limit` least recently served turns; every running
 * job (expired leases, and the per-shop caps); and the candidates: for each of
 * those turns its oldest due pending and oldest due failed job, the same for jobs
 * without a shop, and the oldest due overall. Each candidate is an ordered range
 * of the (shop, state, runAt) or (state, runAt) index read for one row.
 * Params: limit, then now (and the kinds list when given) for each of the six lookups.
 */
function claimRead(withKinds: boolean): SqlStatement {
  const k = kindFilter(withKinds);
  return statement(`WITH "t" AS (SELECT "shop", "lastServedMs" FROM "QueueTurn" ORDER BY "lastServedMs", "shop" LIMIT ?),
      "c" AS (
        SELECT ${oldest(`p."shop" = "t"."shop" AND p."state" = 'pending'`, k)} AS "id" FROM "t"
        UNION ALL SELECT ${oldest(`p."shop" = "t"."shop" AND p."state" = 'failed'`, k)} FROM "t"
        UNION ALL SELECT ${oldest(`p."shop" IS NULL AND p."state" = 'pending'`, k)}
        UNION ALL SELECT ${oldest(`p."shop" IS NULL AND p."state" = 'failed'`, k)}
        UNION ALL SELECT ${oldest(`p."state" = 'pending'`, k)}
        UNION ALL SELECT ${oldest(`p."state" = 'failed'`, k)}
      )
      SELECT 'turn' AS "src", "shop" AS "turn", "lastServedMs", NULL AS "id", NULL AS "kind", NULL AS "shop", NULL AS "state",
        NULL AS "attempts", NULL AS "maxAttempts", NULL AS "runAt", NULL AS "leaseExpiresAt" FROM "t"
      UNION ALL SELECT 'job', NULL, NULL, ${CANDIDATE_COLUMNS} FROM "Job" j WHERE j."state" = 'running'
      UNION ALL SELECT 'job', NULL, NULL, ${CANDIDATE_COLUMNS} FROM "Job" j WHERE j."id" IN (SELECT "id" FROM "c")`);
}
export const CLAIM_READ = claimRead(false);
export const CLAIM_READ_KINDS = claimRead(true);

/** The `take` oldest due jobs in one waiting state, optionally of one shop ("" = none) and not of some kinds. */
const dueByShape = new Map<string, SqlStatement>();
export function oldestDueStatement(shape: {
  shop: "any" | "null" | "one";
  withKinds: boolean;
  withoutKinds: boolean;
}): SqlStatement {
  const id = JSON.stringify(shape);
  let s = dueByShape.get(id);
  if (!s) {
    const where = [
      `"state" = ?`,
      `"runAt" <= ?`,
      ...(shape.shop === "one" ? [`"shop" = ?`] : shape.shop === "null" ? [`"shop" IS NULL`] : []),
      ...(shape.withKinds ? [`"kind" = ANY(?)`] : []),
      // The (shop, kind) pairs at their cap, as JSON pairs; jobs without a shop are never capped.
      ...(shape.withoutKinds
        ? [
            `("shop" IS NULL OR NOT EXISTS (SELECT 1 FROM json_array_elements(CAST(? AS json)) c WHERE c.value->>0 = "shop" AND c.value->>1 = "kind"))`,
          ]
        : []),
    ];
    s = statement(
      `SELECT ${CANDIDATE_COLUMNS.replace(/j\./g, "")} FROM "Job" WHERE ${where.join(" AND ")} ORDER BY "runAt", "id" LIMIT ?`,
    );
    dueByShape.set(id, s);
  }
  return s;
}

const SET_RUNNING = `"state" = 'running', "leaseOwner" = ?, "leaseExpiresAt" = ?, "attempts" = "attempts" + 1, "updatedAt" = ?`;

/**
 * The claim in one statement while one shop alone has due work: its oldest due
 * pending job of a kind under the cap, leased, provided nothing would come
 * before it in the fair order (no expired lease, no due failed job of the shop,
 * no other turn with a due job). Returns no row when any of that does not hold:
 * the caller then claims the usual way. Params: owner, leaseExpiresAt, now,
 * shop, now, [kinds], now, cap, now, shop, now, shop, now, now.
 */
function claimAlone(withKinds: boolean): SqlStatement {
  const waiting = `o."state" IN ('pending', 'failed') AND o."runAt" <= ?`;
  return statement(`UPDATE "Job" SET ${SET_RUNNING}
      WHERE "id" = (
        SELECT p."id" FROM "Job" p
        WHERE p."shop" = ? AND p."state" = 'pending' AND p."runAt" <= ?${kindFilter(withKinds)}
          AND (SELECT COUNT(*) FROM "Job" r WHERE r."state" = 'running' AND r."shop" = p."shop" AND r."kind" = p."kind" AND r."leaseExpiresAt" >= ?) < ?
        ORDER BY p."runAt", p."id" LIMIT 1 FOR UPDATE OF p SKIP LOCKED
      )
      AND "state" = 'pending'
      AND NOT EXISTS (SELECT 1 FROM "Job" x WHERE x."state" = 'running' AND x."leaseExpiresAt" < ?)
      AND NOT EXISTS (SELECT 1 FROM "Job" f WHERE f."shop" = ? AND f."state" = 'failed' AND f."runAt" <= ?)
      AND NOT EXISTS (SELECT 1 FROM "QueueTurn" t WHERE t."shop" <> ? AND (
        (t."shop" <> '' AND EXISTS (SELECT 1 FROM "Job" o WHERE o."shop" = t."shop" AND ${waiting}))
        OR (t."shop" = '' AND EXISTS (SELECT 1 FROM "Job" o WHERE o."shop" IS NULL AND ${waiting}))))
      RETURNING ${JOB_COLUMNS}`);
}
export const CLAIM_ALONE = claimAlone(false);
export const CLAIM_ALONE_KINDS = claimAlone(true);
/** Leases a waiting job that is still due. Params: owner, leaseExpiresAt, now, id, now. */
export const CLAIM_DUE = statement(
  `UPDATE "Job" SET ${SET_RUNNING} WHERE "id" = ? AND "state" IN ('pending', 'failed') AND "runAt" <= ? RETURNING ${JOB_COLUMNS}`,
);
/**
 * Leases more due pending jobs of one shop and kind for a batch (the worker's
 * batch handlers), oldest first; a job another worker took meanwhile is skipped.
 * The pick is materialised: PostgreSQL may rescan an IN subquery, and each
 * rescan would skip the rows the last one locked and lease more than the limit.
 * Params: shop, now, kind, limit, owner, leaseExpiresAt, now.
 */
export const CLAIM_BATCH = statement(
  `WITH "picked" AS MATERIALIZED (
      SELECT p."id" FROM "Job" p WHERE p."shop" = ? AND p."state" = 'pending' AND p."runAt" <= ? AND p."kind" = ?
      ORDER BY p."runAt", p."id" LIMIT ? FOR UPDATE OF p SKIP LOCKED)
    UPDATE "Job" SET ${SET_RUNNING} WHERE "id" IN (SELECT "id" FROM "picked") AND "state" = 'pending' RETURNING ${JOB_COLUMNS}`,
);
/** Takes back a running job whose lease expired. Params: owner, leaseExpiresAt, now, id, now. */
export const CLAIM_EXPIRED = statement(
  `UPDATE "Job" SET ${SET_RUNNING} WHERE "id" = ? AND "state" = 'running' AND "leaseExpiresAt" < ? RETURNING ${JOB_COLUMNS}`,
);
/** An expired lease with no attempt left. Params: lastError, now, id, now. */
export const BURY_EXPIRED =
  statement(`UPDATE "Job" SET "state" = 'dead', "lastError" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ?
  WHERE "id" = ? AND "state" = 'running' AND "leaseExpiresAt" < ?`);

const HELD = `"id" = ? AND "state" = 'running' AND "leaseOwner" = ? AND "attempts" = ?`;
/** Done, if this lease holds and the job was not re-enqueued meanwhile. Params: now, id, owner, attempts. */
export const COMPLETE =
  statement(`UPDATE "Job" SET "state" = 'done', "lastError" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ?
  WHERE ${HELD} AND "rerun" = FALSE`);
/**
 * COMPLETE for a batch's jobs: ids, then each as "id:attempts" (its lease), both as list params.
 * Params: now, ids, leases, owner. Returns the ids marked done.
 */
export const COMPLETE_BATCH = statement(
  `UPDATE "Job" SET "state" = 'done', "lastError" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ?
  WHERE "id" = ANY(?) AND ("id" || ':' || CAST("attempts" AS TEXT)) = ANY(?) AND "state" = 'running' AND "leaseOwner" = ? AND "rerun" = FALSE RETURNING "id"`,
);
/**
 * A failed or postponed attempt, if this lease holds and no rerun was asked:
 * the new state and error, runAt when given, the attempt given back when asked.
 * Params: state, lastError, runAt|null, attemptsGivenBack (0|1), now, id, owner, attempts.
 */
export const SETTLE =
  statement(`UPDATE "Job" SET "state" = ?, "lastError" = ?, "runAt" = COALESCE(?, "runAt"), "attempts" = "attempts" - ?,
  "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ? WHERE ${HELD} AND "rerun" = FALSE RETURNING "state", "runAt"`);
/** The job was re-enqueued while it ran: back to pending with a fresh budget. Params: lastError, runAt|null, now, id, owner, attempts. */
export const SETTLE_RERUN =
  statement(`UPDATE "Job" SET "state" = 'pending', "attempts" = 0, "rerun" = FALSE, "lastError" = ?, "runAt" = COALESCE(?, "runAt"),
  "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ? WHERE ${HELD} AND "rerun" = TRUE RETURNING "state", "runAt"`);
/** Params: leaseExpiresAt, now, id, owner, attempts. */
export const EXTEND_LEASE = statement(`UPDATE "Job" SET "leaseExpiresAt" = ?, "updatedAt" = ? WHERE ${HELD}`);

// Turns (turns.server.ts)
export const ENSURE_TURN = statement(
  `INSERT INTO "QueueTurn" ("shop", "lastServedMs") VALUES (?, 0) ON CONFLICT ("shop") DO NOTHING`,
);
export const TAKE_TURN = statement(`UPDATE "QueueTurn" SET "lastServedMs" = ? WHERE "shop" = ? AND "lastServedMs" = ?`);
