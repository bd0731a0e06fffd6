/**
 * The queue's hot statements, one function per operation holding its SQL text,
 * its values and its row mapping together (graphile-worker's src/sql/*.ts
 * shape): the placeholders are numbered ($1, $2...) and the values listed in
 * that order beside the text, a number used as often as the text needs it.
 *
 * Every state change is a single conditional statement, atomic: a count of 0
 * (or no row returned) means another worker got there first.
 */
import { asDate, asNumber, asString, rowsOf, statement, statementsByCount, type BatchItem, type Sql } from "../db/sql";
import type { JobState } from "./types";

const JOB_COLUMNS = `"id", "kind", "key", "shop", "payload", "state", "runAt", "attempts", "maxAttempts", "leaseOwner", "leaseExpiresAt", "lastError", "rerun", "createdAt", "updatedAt"`;

/** A leased Job row, values normalised. */
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
  createdAt: Date;
}

type RawJobRow = {
  id: string;
  kind: string;
  key: string;
  shop: string | null;
  payload: string;
  state: string;
  runAt: unknown;
  attempts: unknown;
  maxAttempts: unknown;
  leaseOwner: string | null;
  leaseExpiresAt: unknown;
  lastError: string | null;
  createdAt: unknown;
};

const jobRow = (r: RawJobRow): JobRow => ({
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
  createdAt: asDate(r.createdAt)!,
});

/** A due or running job the claim may lease: what it needs to choose and order them. */
export interface Candidate {
  id: string;
  kind: string;
  shop: string | null;
  state: string;
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  leaseExpiresAt: Date | null;
}

type RawCandidate = { [K in keyof Candidate]: unknown };
const CANDIDATE_COLUMNS = `j."id", j."kind", j."shop", j."state", j."attempts", j."maxAttempts", j."runAt", j."leaseExpiresAt"`;

const candidateOf = (r: RawCandidate): Candidate => ({
  id: String(r.id),
  kind: String(r.kind),
  shop: asString(r.shop),
  state: String(r.state),
  attempts: asNumber(r.attempts),
  maxAttempts: asNumber(r.maxAttempts),
  runAt: asDate(r.runAt)!,
  leaseExpiresAt: asDate(r.leaseExpiresAt),
});

// ---------------------------------------------------------------------------
// Enqueue

/** A job to write; maxAttempts null: the column default on create, unchanged on take-over. */
export interface NewJob {
  id: string;
  kind: string;
  key: string;
  shop: string | null;
  /** JSON text. */
  payload: string;
  runAt: Date;
  maxAttempts: number | null;
}

const INSERT_JOBS = `INSERT INTO "Job" ("id", "kind", "key", "shop", "payload", "state", "runAt", "attempts", "maxAttempts", "rerun", "createdAt", "updatedAt")`;
/** One job's row ($1 to $9 in a one-row statement), its values from jobValues; maxAttempts ($7) the column default unless given. */
const JOB_ROW = `(?, ?, ?, ?, ?, 'pending', ?, 0, COALESCE(?, 10), FALSE, ?, ?)`;
const jobValues = (job: NewJob, now: Date) => [
  job.id,
  job.kind,
  job.key,
  job.shop,
  job.payload,
  job.runAt,
  job.maxAttempts,
  now,
  now,
];
/** A job taken over by a new enqueue: a running one runs again after (rerun), any other starts over. */
const TAKE_OVER = `
    "kind" = excluded."kind", "shop" = excluded."shop", "payload" = excluded."payload", "runAt" = excluded."runAt",
    "rerun" = ("Job"."state" = 'running'),
    "attempts" = CASE WHEN "Job"."state" = 'running' THEN "Job"."attempts" ELSE 0 END,
    "lastError" = CASE WHEN "Job"."state" = 'running' THEN "Job"."lastError" ELSE NULL END,
    "leaseOwner" = CASE WHEN "Job"."state" = 'running' THEN "Job"."leaseOwner" ELSE NULL END,
    "leaseExpiresAt" = CASE WHEN "Job"."state" = 'running' THEN "Job"."leaseExpiresAt" ELSE NULL END,
    "state" = CASE WHEN "Job"."state" = 'running' THEN 'running' ELSE 'pending' END,
    "updatedAt" = excluded."updatedAt"`;

const ENQUEUE = statement(`${INSERT_JOBS} VALUES ${JOB_ROW}
  ON CONFLICT ("key") DO UPDATE SET ${TAKE_OVER},
    "maxAttempts" = COALESCE($7, "Job"."maxAttempts")
  RETURNING "id", "state"`);

/**
 * Creates the job, or takes over the one with the same key: a running job keeps
 * running and is marked to run again (rerun); any other starts over as pending
 * with a fresh budget. The id and state of the key's job afterwards.
 */
export async function upsertJob(sql: Sql, job: NewJob, now: Date): Promise<{ id: string; state: string }> {
  const [row] = await sql.all<{ id: string; state: string }>(ENQUEUE, jobValues(job, now));
  return { id: String(row.id), state: String(row.state) };
}

const upsertJobsStatement = statementsByCount(
  (count) => `${INSERT_JOBS} VALUES ${rowsOf(JOB_ROW, count)} ON CONFLICT ("key") DO UPDATE SET ${TAKE_OVER}`,
);

/** upsertJob for jobs of distinct keys in one statement (maxAttempts unchanged on take-over). */
export async function upsertJobs(sql: Sql, jobs: readonly NewJob[], now: Date): Promise<void> {
  await sql.run(
    upsertJobsStatement(jobs.length),
    jobs.flatMap((j) => jobValues(j, now)),
  );
}

const wakeJobsStatement = statementsByCount(
  (count) => `${INSERT_JOBS} VALUES ${rowsOf(JOB_ROW, count)}
      ON CONFLICT ("key") DO UPDATE SET
        "rerun" = ("Job"."state" = 'running'),
        "payload" = CASE WHEN "Job"."state" = 'running' THEN "Job"."payload" ELSE excluded."payload" END,
        "runAt" = CASE WHEN "Job"."state" = 'running' THEN "Job"."runAt" ELSE excluded."runAt" END,
        "attempts" = CASE WHEN "Job"."state" = 'running' THEN "Job"."attempts" ELSE 0 END,
        "lastError" = CASE WHEN "Job"."state" = 'running' THEN "Job"."lastError" ELSE NULL END,
        "state" = CASE WHEN "Job"."state" = 'running' THEN 'running' ELSE 'pending' END,
        "updatedAt" = excluded."updatedAt"
      WHERE "Job"."state" IN ('done', 'dead') OR ("Job"."state" = 'running' AND "Job"."rerun" = FALSE)`,
);

/**
 * Wakes the jobs with these keys unless already waiting: a finished or dead one
 * starts over at runAt with the new payload, a running one runs again after
 * (rerun); a pending or failed one keeps its runAt and payload, so a burst of
 * wake-ups is one run. No row is written when nothing changes.
 */
export async function wakeJobRows(sql: Sql, jobs: readonly NewJob[], now: Date): Promise<void> {
  const item = wakeJobsItem(jobs, now);
  await sql.run(item.statement, item.params);
}

/** wakeJobRows as a statement for a batch of writes in the caller's commit. */
export const wakeJobsItem = (jobs: readonly NewJob[], now: Date): BatchItem => ({
  statement: wakeJobsStatement(jobs.length),
  params: jobs.flatMap((j) => jobValues(j, now)),
});

const insertNewJobsStatement = statementsByCount(
  (count) => `${INSERT_JOBS} VALUES ${rowsOf(JOB_ROW, count)} ON CONFLICT ("key") DO NOTHING`,
);

/** Inserts the jobs whose key is not taken, leaving the others alone; how many were inserted. */
export async function insertNewJobs(sql: Sql, jobs: readonly NewJob[], now: Date): Promise<number> {
  const item = insertNewJobsItem(jobs, now);
  return sql.run(item.statement, item.params);
}

/** insertNewJobs as a statement for a batch of writes in the caller's commit. */
export const insertNewJobsItem = (jobs: readonly NewJob[], now: Date): BatchItem => ({
  statement: insertNewJobsStatement(jobs.length),
  params: jobs.flatMap((j) => jobValues(j, now)),
});

// ---------------------------------------------------------------------------
// Claim

/** The least recently served turns first (QueueTurn). */
export interface TurnRow {
  key: string;
  lastServedMs: number;
}

const oldest = (where: string, withKinds: boolean) =>
  `(SELECT p."id" FROM "Job" p WHERE ${where} AND p."runAt" <= $2${withKinds ? ` AND p."kind" = ANY($3)` : ""} ORDER BY p."runAt", p."id" LIMIT 1)`;

const claimRead = (withKinds: boolean) =>
  statement(`WITH "t" AS (SELECT "shop", "lastServedMs" FROM "QueueTurn" ORDER BY "lastServedMs", "shop" LIMIT $1),
      "c" AS (
        SELECT ${oldest(`p."shop" = "t"."shop" AND p."state" = 'pending'`, withKinds)} AS "id" FROM "t"
        UNION ALL SELECT ${oldest(`p."shop" = "t"."shop" AND p."state" = 'failed'`, withKinds)} FROM "t"
        UNION ALL SELECT ${oldest(`p."shop" IS NULL AND p."state" = 'pending'`, withKinds)}
        UNION ALL SELECT ${oldest(`p."shop" IS NULL AND p."state" = 'failed'`, withKinds)}
        UNION ALL SELECT ${oldest(`p."state" = 'pending'`, withKinds)}
        UNION ALL SELECT ${oldest(`p."state" = 'failed'`, withKinds)}
      )
      SELECT 'turn' AS "src", "shop" AS "turn", "lastServedMs", NULL AS "id", NULL AS "kind", NULL AS "shop", NULL AS "state",
        NULL AS "attempts", NULL AS "maxAttempts", NULL AS "runAt", NULL AS "leaseExpiresAt" FROM "t"
      UNION ALL SELECT 'job', NULL, NULL, ${CANDIDATE_COLUMNS} FROM "Job" j WHERE j."state" = 'running'
      UNION ALL SELECT 'job', NULL, NULL, ${CANDIDATE_COLUMNS} FROM "Job" j WHERE j."id" IN (SELECT "id" FROM "c")`);
const CLAIM_READ = claimRead(false);
const CLAIM_READ_KINDS = claimRead(true);

/**
 * The claim's one read: the `turns` least recently served turns; every running
 * job (expired leases, and the per-shop caps); and the candidates: for each of
 * those turns its oldest due pending and oldest due failed job, the same for jobs
 * without a shop, and the oldest due overall. Each candidate is an ordered range
 * of the (shop, state, runAt) or (state, runAt) index read for one row.
 */
export async function readClaimRows(
  sql: Sql,
  scope: { turns: number; now: Date; kinds?: readonly string[] },
): Promise<{ turns: TurnRow[]; jobs: Candidate[] }> {
  const rows = await sql.all<RawCandidate & { src: string; turn: unknown; lastServedMs: unknown }>(
    scope.kinds ? CLAIM_READ_KINDS : CLAIM_READ,
    [scope.turns, scope.now, ...(scope.kinds ? [[...scope.kinds]] : [])],
  );
  const turns: TurnRow[] = [];
  const jobs: Candidate[] = [];
  for (const row of rows) {
    if (row.src === "turn") turns.push({ key: String(row.turn), lastServedMs: asNumber(row.lastServedMs) });
    else jobs.push(candidateOf(row));
  }
  return { turns, jobs };
}

/**
 * The `take` oldest due jobs in each waiting state (pending, failed), of one
 * shop when given (null: jobs without a shop), of some kinds, and not of the
 * (shop, kind) pairs at their cap (jobs without a shop are never capped). One
 * statement, each state an ordered range of the (shop, state, runAt) or
 * (state, runAt) index read up to `take` rows: `state IN (...) ORDER BY runAt`
 * would read and sort every due job, which at 100k pending costs tens of ms.
 */
export async function oldestDueRows(
  sql: Sql,
  scope: {
    now: Date;
    shop?: string | null;
    kinds?: readonly string[];
    withoutKinds: readonly { shop: string; kind: string }[];
    take: number;
  },
): Promise<Candidate[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    params.push(...values);
  };
  add(`"runAt" <= ?`, scope.now);
  if (scope.shop === null) add(`"shop" IS NULL`);
  else if (scope.shop !== undefined) add(`"shop" = ?`, scope.shop);
  if (scope.kinds) add(`"kind" = ANY(?)`, [...scope.kinds]);
  if (scope.withoutKinds.length > 0)
    add(
      `("shop" IS NULL OR NOT EXISTS (SELECT 1 FROM json_array_elements(CAST(? AS json)) c WHERE c.value->>0 = "shop" AND c.value->>1 = "kind"))`,
      JSON.stringify(scope.withoutKinds.map((c) => [c.shop, c.kind])),
    );
  const inState = (state: string) =>
    `(SELECT ${CANDIDATE_COLUMNS.replace(/j\./g, "")} FROM "Job" WHERE "state" = '${state}' AND ${where.join(" AND ")} ORDER BY "runAt", "id" LIMIT ?)`;
  const text = `${inState("pending")} UNION ALL ${inState("failed")}`;
  const rows = await sql.all<RawCandidate>(oldestDueStatement(text), [...params, scope.take, ...params, scope.take]);
  return rows.map(candidateOf);
}

const oldestDueByText = new Map<string, ReturnType<typeof statement>>();
const oldestDueStatement = (text: string) => {
  let s = oldestDueByText.get(text);
  if (!s) oldestDueByText.set(text, (s = statement(text)));
  return s;
};

/** A lease: this worker ($1), until ($2), counted as an attempt, at now ($3). */
const SET_RUNNING = `"state" = 'running', "leaseOwner" = $1, "leaseExpiresAt" = $2, "attempts" = "attempts" + 1, "updatedAt" = $3`;

export interface LeaseTerms {
  owner: string;
  leaseExpiresAt: Date;
  now: Date;
}
const leaseValues = (lease: LeaseTerms) => [lease.owner, lease.leaseExpiresAt, lease.now];

/** The oldest due job in `state` is not of shop $4 (false when none is due). */
const oldestNotOfShop = (state: string, withKinds: boolean) =>
  `EXISTS (SELECT 1 FROM (SELECT o."shop" FROM "Job" o WHERE o."state" = '${state}' AND o."runAt" <= $3${withKinds ? ` AND o."kind" = ANY($6)` : ""}
    ORDER BY o."runAt", o."id" LIMIT 1) z WHERE z."shop" IS DISTINCT FROM $4)`;

/** The shop's ($4) kinds with `cap` ($5) or more jobs running under a live lease, with `andLeased`'s. */
const kindsAtCap = (andLeased: string) =>
  `ARRAY(SELECT k."kind" FROM (SELECT r."kind" FROM "Job" r WHERE r."shop" = $4 AND r."state" = 'running' AND r."leaseExpiresAt" >= $3 ${andLeased}) k
    GROUP BY k."kind" HAVING COUNT(*) >= $5)`;

/**
 * Due jobs the leased job's `quiet` looks at, at most: a longer backlog is
 * answered "not quiet" (the lane claims again, as it would anyway) rather
 * than read whole on every claim.
 */
const QUIET_SCAN = 256;

const claimAlone = (withKinds: boolean) => {
  const waiting = `o."state" IN ('pending', 'failed') AND o."runAt" <= $3`;
  return statement(`WITH "leased" AS (
      UPDATE "Job" SET ${SET_RUNNING}
      WHERE "id" = (
        SELECT p."id" FROM "Job" p
        WHERE p."shop" = $4 AND p."state" = 'pending' AND p."runAt" <= $3${withKinds ? ` AND p."kind" = ANY($6)` : ""}
          AND (SELECT COUNT(*) FROM "Job" r WHERE r."state" = 'running' AND r."shop" = p."shop" AND r."kind" = p."kind" AND r."leaseExpiresAt" >= $3) < $5
        ORDER BY p."runAt", p."id" LIMIT 1 FOR UPDATE OF p SKIP LOCKED
      )
      AND "state" = 'pending'
      AND NOT EXISTS (SELECT 1 FROM "Job" x WHERE x."state" = 'running' AND x."leaseExpiresAt" < $3)
      AND NOT EXISTS (SELECT 1 FROM "Job" f WHERE f."shop" = $4 AND f."state" = 'failed' AND f."runAt" <= $3)
      AND NOT EXISTS (SELECT 1 FROM "QueueTurn" t WHERE t."shop" <> $4 AND (
        (t."shop" <> '' AND EXISTS (SELECT 1 FROM "Job" o WHERE o."shop" = t."shop" AND ${waiting}))
        OR (t."shop" = '' AND EXISTS (SELECT 1 FROM "Job" o WHERE o."shop" IS NULL AND ${waiting}))))
      RETURNING ${JOB_COLUMNS})
    SELECT ${JOB_COLUMNS.replace(/"(\w+)"/g, 'l."$1"')}, FALSE AS "blocked", COALESCE((
        SELECT BOOL_AND(d."kind" = ANY(c."capped")) AND COUNT(*) < ${QUIET_SCAN} FROM (
          SELECT m."kind" FROM "Job" m
          WHERE m."shop" = $4 AND m."state" IN ('pending', 'failed') AND m."runAt" <= $3 AND m."id" <> l."id"${withKinds ? ` AND m."kind" = ANY($6)` : ""}
          LIMIT ${QUIET_SCAN}) d
      ), TRUE) AS "quiet", c."capped"
    FROM "leased" l CROSS JOIN LATERAL (SELECT ${kindsAtCap(`UNION ALL SELECT l."kind"`)} AS "capped") c
    UNION ALL
    SELECT ${JOB_COLUMNS.replace(/"\w+"/g, "NULL")}, (
        ${oldestNotOfShop("pending", withKinds)}
        OR ${oldestNotOfShop("failed", withKinds)}
        OR EXISTS (SELECT 1 FROM "Job" x WHERE x."state" = 'running' AND x."leaseExpiresAt" < $3)
        OR EXISTS (SELECT 1 FROM "Job" f WHERE f."shop" = $4 AND f."state" = 'failed' AND f."runAt" <= $3)
        OR EXISTS (SELECT 1 FROM "QueueTurn" t WHERE t."shop" <> $4 AND (
          (t."shop" <> '' AND EXISTS (SELECT 1 FROM "Job" o WHERE o."shop" = t."shop" AND ${waiting}))
          OR (t."shop" = '' AND EXISTS (SELECT 1 FROM "Job" o WHERE o."shop" IS NULL AND ${waiting}))))
      ) AS "blocked", TRUE AS "quiet", ${kindsAtCap("")} AS "capped"
    WHERE NOT EXISTS (SELECT 1 FROM "leased")`);
};
const CLAIM_ALONE = claimAlone(false);
const CLAIM_ALONE_KINDS = claimAlone(true);

/**
 * The claim in one statement while one shop alone has due work: its oldest due
 * pending job of a kind with fewer than `cap` running, leased, provided nothing
 * would come before it in the fair order (no expired lease, no due failed job
 * of the shop, no other turn with a due job). When none is leased, "none" if
 * nothing could be claimed now: nothing is due, or the shop's due jobs are
 * each of a kind at its cap or held by another worker, nothing comes before
 * them (as above), and the oldest due jobs are the shop's (so no job without a
 * turn is waiting either; the usual claim sees those the same way). The usual
 * claim would find that in two more reads, and an idle shop would lose its
 * place as the one alone. Anything else is "blocked": the caller claims the
 * usual way, which also tidies the turns.
 *
 * The answer says also whether anything else could be claimed now (`quiet`
 * when not: "none" is always quiet) and which of the shop's kinds are at their
 * cap, the leased job counted (`capped`). Work that comes due later wakes the
 * workers (wake-ups.server.ts), and only the end of a capped kind's job makes
 * its waiting jobs claimable: a lane whose job ends after a quiet answer, with
 * no wake-up since, claims again only when its job's kind was capped (worker.server.ts).
 */
export async function leaseWhileAlone(
  sql: Sql,
  lease: LeaseTerms,
  scope: { shop: string; cap: number; kinds?: readonly string[] },
): Promise<{ row: JobRow | null; quiet: boolean; capped: string[] } | "blocked"> {
  const [row] = await sql.all<RawJobRow & { blocked: unknown; quiet: unknown; capped: unknown }>(
    scope.kinds ? CLAIM_ALONE_KINDS : CLAIM_ALONE,
    [...leaseValues(lease), scope.shop, scope.cap, ...(scope.kinds ? [[...scope.kinds]] : [])],
  );
  if (!row || (row.id === null && row.blocked !== false)) return "blocked";
  const capped = Array.isArray(row.capped) ? row.capped.map(String) : [];
  return { row: row.id === null ? null : jobRow(row), quiet: row.quiet === true, capped };
}

const LEASE_DUE = statement(
  `UPDATE "Job" SET ${SET_RUNNING} WHERE "id" = $4 AND "state" IN ('pending', 'failed') AND "runAt" <= $3 RETURNING ${JOB_COLUMNS}`,
);
const LEASE_EXPIRED = statement(
  `UPDATE "Job" SET ${SET_RUNNING} WHERE "id" = $4 AND "state" = 'running' AND "leaseExpiresAt" < $3 RETURNING ${JOB_COLUMNS}`,
);

/** Leases a waiting job that is still due, or takes back a running one whose lease expired. Null: another worker won it. */
export async function leaseCandidate(sql: Sql, lease: LeaseTerms, candidate: Candidate): Promise<JobRow | null> {
  return leaseById(sql, lease, candidate.id, candidate.state === "running" ? "expired" : "due");
}

/** Leases the job with this id: as "due", if pending or failed with its runAt passed; as "expired", if running with its lease expired. Null when it is not. */
export async function leaseById(
  sql: Sql,
  lease: LeaseTerms,
  id: string,
  as: "due" | "expired",
): Promise<JobRow | null> {
  const [row] = await sql.all<RawJobRow>(as === "expired" ? LEASE_EXPIRED : LEASE_DUE, [...leaseValues(lease), id]);
  return row ? jobRow(row) : null;
}

const BURY_EXPIRED =
  statement(`UPDATE "Job" SET "state" = 'dead', "lastError" = $1, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = $2
  WHERE "id" = $3 AND "state" = 'running' AND "leaseExpiresAt" < $2`);

/** An expired lease with no attempt left: dead, with the reason. */
export async function buryExpiredJob(sql: Sql, id: string, reason: string, now: Date): Promise<void> {
  await sql.run(BURY_EXPIRED, [reason, now, id]);
}

/*
 * The pick is materialised: PostgreSQL may rescan an IN subquery, and each
 * rescan would skip the rows the last one locked and lease more than the limit.
 */
const LEASE_BATCH = statement(
  `WITH "picked" AS MATERIALIZED (
      SELECT p."id" FROM "Job" p WHERE p."shop" = $4 AND p."state" = 'pending' AND p."runAt" <= $3 AND p."kind" = $5
      ORDER BY p."runAt", p."id" LIMIT $6 FOR UPDATE OF p SKIP LOCKED)
    UPDATE "Job" SET ${SET_RUNNING} WHERE "id" IN (SELECT "id" FROM "picked") AND "state" = 'pending' RETURNING ${JOB_COLUMNS}`,
);

/** Leases up to `limit` due pending jobs of one shop and kind, oldest first; a job another worker holds is skipped. */
export async function leaseBatch(
  sql: Sql,
  lease: LeaseTerms,
  scope: { shop: string; kind: string; limit: number },
): Promise<JobRow[]> {
  const rows = await sql.all<RawJobRow>(LEASE_BATCH, [...leaseValues(lease), scope.shop, scope.kind, scope.limit]);
  return rows.map(jobRow);
}

// ---------------------------------------------------------------------------
// Settle: each only if this lease still holds (the job, its owner, the attempt it was claimed for).

/** What identifies a lease: the job and the attempt it was claimed for. */
export interface Lease {
  id: string;
  attempts: number;
}

/** This lease still holds: the settles' first values are heldValues' ($1 now, $2 to $4 the lease). */
const HELD = `"id" = $2 AND "state" = 'running' AND "leaseOwner" = $3 AND "attempts" = $4`;
const heldValues = (lease: Lease, owner: string, now: Date) => [now, lease.id, owner, lease.attempts];

const COMPLETE =
  statement(`UPDATE "Job" SET "state" = 'done', "lastError" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = $1
  WHERE ${HELD} AND "rerun" = FALSE`);

/** Done, if this lease holds and the job was not re-enqueued meanwhile, as a statement for a batch of writes (1: done). */
export const completionItem = (lease: Lease, owner: string, now: Date): BatchItem => ({
  statement: COMPLETE,
  params: heldValues(lease, owner, now),
});

/** completionItem run now: true when done. */
export async function completeLease(sql: Sql, lease: Lease, owner: string, now: Date): Promise<boolean> {
  const item = completionItem(lease, owner, now);
  return (await sql.run(item.statement, item.params)) === 1;
}

const COMPLETE_BATCH = statement(
  `UPDATE "Job" SET "state" = 'done', "lastError" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = $1
  WHERE "id" = ANY($2) AND ("id" || ':' || CAST("attempts" AS TEXT)) = ANY($3) AND "state" = 'running' AND "leaseOwner" = $4
    AND "rerun" = FALSE RETURNING "id"`,
);

/** completeLease for a batch's leases in one statement: the ids marked done. */
export async function completeLeases(
  sql: Sql,
  leases: readonly Lease[],
  owner: string,
  now: Date,
): Promise<Set<string>> {
  const rows = await sql.all<{ id: string }>(COMPLETE_BATCH, [
    now,
    leases.map((l) => l.id),
    leases.map((l) => `${l.id}:${l.attempts}`),
    owner,
  ]);
  return new Set(rows.map((r) => String(r.id)));
}

/** The job's state and next run time after a settle. */
export interface Settled {
  state: JobState;
  runAt: Date;
}
const settledOf = (row: { state: unknown; runAt: unknown }): Settled => ({
  state: String(row.state) as JobState,
  runAt: asDate(row.runAt)!,
});

const SETTLE =
  statement(`UPDATE "Job" SET "state" = $5, "lastError" = $6, "runAt" = COALESCE($7, "runAt"), "attempts" = "attempts" - $8,
  "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = $1
  WHERE ${HELD} AND "rerun" = FALSE RETURNING "state", "runAt"`);

/**
 * A failed or postponed attempt, if this lease holds and no rerun was asked:
 * the new state and error, runAt when given, the attempt given back when asked.
 * Null when the lease is lost or a rerun was asked.
 */
export async function settleLease(
  sql: Sql,
  lease: Lease,
  owner: string,
  data: { state: JobState; lastError: string | null; runAt?: Date; giveBackAttempt?: boolean },
  now: Date,
): Promise<Settled | null> {
  const [row] = await sql.all<{ state: unknown; runAt: unknown }>(SETTLE, [
    ...heldValues(lease, owner, now),
    data.state,
    data.lastError,
    data.runAt ?? null,
    data.giveBackAttempt ? 1 : 0,
  ]);
  return row ? settledOf(row) : null;
}

const SETTLE_RERUN =
  statement(`UPDATE "Job" SET "state" = 'pending', "attempts" = 0, "rerun" = FALSE, "lastError" = $5, "runAt" = COALESCE($6, "runAt"),
  "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = $1
  WHERE ${HELD} AND "rerun" = TRUE RETURNING "state", "runAt"`);

/** The job was re-enqueued while this lease ran it: back to pending with a fresh budget. Null when not so. */
export async function settleRerun(
  sql: Sql,
  lease: Lease,
  owner: string,
  data: { lastError: string | null; runAt?: Date },
  now: Date,
): Promise<Settled | null> {
  const [row] = await sql.all<{ state: unknown; runAt: unknown }>(SETTLE_RERUN, [
    ...heldValues(lease, owner, now),
    data.lastError,
    data.runAt ?? null,
  ]);
  return row ? settledOf(row) : null;
}

const EXTEND_LEASE = statement(`UPDATE "Job" SET "leaseExpiresAt" = $5, "updatedAt" = $1 WHERE ${HELD}`);

/** Pushes the lease's end to `until`; false when the lease is no longer ours. */
export async function extendLeaseRow(sql: Sql, lease: Lease, owner: string, until: Date, now: Date): Promise<boolean> {
  return (await sql.run(EXTEND_LEASE, [...heldValues(lease, owner, now), until])) === 1;
}

// ---------------------------------------------------------------------------
// Turns (turns.server.ts): one row per shop with waiting jobs ("" for jobs without a shop).

/** Jobs a turn is waiting on; a shop with none of these has no turn. */
const WAITING = `("state" IN ('pending', 'failed', 'running'))`;

const ENSURE_TURN = statement(
  `INSERT INTO "QueueTurn" ("shop", "lastServedMs") VALUES ($1, 0) ON CONFLICT ("shop") DO NOTHING`,
);

/** Gives the turn key one if it has none (a new shop goes first). */
export async function insertTurn(sql: Sql, key: string): Promise<void> {
  await sql.run(ENSURE_TURN, [key]);
}

/** insertTurn as a statement for a batch of writes in the caller's commit. */
export const turnItem = (key: string): BatchItem => ({ statement: ENSURE_TURN, params: [key] });

const TAKE_TURN = statement(`UPDATE "QueueTurn" SET "lastServedMs" = $1 WHERE "shop" = $2 AND "lastServedMs" = $3`);

/** Moves the turn to `servedMs` if it still reads `lastServedMs`; false: another worker took it. */
export async function moveTurn(sql: Sql, turn: TurnRow, servedMs: number): Promise<boolean> {
  return (await sql.run(TAKE_TURN, [servedMs, turn.key, turn.lastServedMs])) === 1;
}

const DISCOVER_TURNS = statement(`INSERT INTO "QueueTurn" ("shop", "lastServedMs")
  SELECT DISTINCT COALESCE("shop", ''), 0 FROM "Job" WHERE ${WAITING}
  ON CONFLICT ("shop") DO NOTHING`);

/** Gives a turn to every shop with a waiting job and none yet; how many were given. */
export async function insertMissingTurns(sql: Sql): Promise<number> {
  return sql.run(DISCOVER_TURNS);
}

const DROP_IDLE_TURN = statement(`DELETE FROM "QueueTurn" WHERE "shop" = $1
  AND NOT EXISTS (SELECT 1 FROM "Job" WHERE "shop" = $1 AND ${WAITING})`);
const DROP_IDLE_NULL_TURN = statement(`DELETE FROM "QueueTurn" WHERE "shop" = ''
  AND NOT EXISTS (SELECT 1 FROM "Job" WHERE "shop" IS NULL AND ${WAITING})`);

/** Removes the turn when its shop has no waiting job; true when removed. */
export async function deleteIdleTurn(sql: Sql, key: string): Promise<boolean> {
  return (key === "" ? await sql.run(DROP_IDLE_NULL_TURN) : await sql.run(DROP_IDLE_TURN, [key])) === 1;
}
