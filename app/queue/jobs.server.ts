/**
 * Data access of the durable outbox (the Job table). Every call takes the client
 * first. Claims and state changes are single conditional UPDATEs (`updateMany`
 * with the precondition in its WHERE), which are atomic on SQLite and PostgreSQL
 * alike: a count of 0 means another worker got there first.
 *
 * A lease is identified by (leaseOwner, attempts): each claim increments attempts,
 * so a worker whose lease expired and was taken over cannot settle the job, even
 * when the new claim came from the same owner.
 *
 * Our own queue, not graphile-worker or pg-boss: they run only on PostgreSQL and
 * know neither per-shop turns nor the shared key limiter
 * (docs/decisions/0003-own-job-queue.md).
 */
import { Prisma, type Job } from "@prisma/client";
import { backoffDelayMs, type BackoffOptions } from "./backoff";
import { EnqueueConflictError, errorMessage, PermanentJobError } from "./errors";
import { retryWhileBusy } from "../db/sqlite-busy";
import { discoverTurns, dropTurnIfIdle, ensureTurn, ensureTurns, nextTurns, takeTurn } from "./turns.server";
import { JOB_STATES, type ClaimedJob, type JobState, type QueueDb } from "./types";

export interface EnqueueJobInput {
  kind: string;
  /** Dedupe key, unique across kinds: one job per key ever exists. */
  key: string;
  shop?: string | null;
  /** Any JSON-serialisable value. */
  payload?: unknown;
  /** Defaults to now. */
  runAt?: Date;
  /** Defaults to the column default (10) on create, unchanged on re-enqueue. */
  maxAttempts?: number;
}

export type EnqueueOutcome =
  /** No job had this key. */
  | "created"
  /** A waiting, finished or dead job got the new payload and starts over. */
  | "reset"
  /** The job is running: the new payload runs again right after this attempt. */
  | "rerun";

/**
 * Creates the job, or reuses the one with the same key (see EnqueueOutcome).
 * Works inside an interactive transaction, so intake can store an order and its
 * job atomically; there, busy errors and key races are left to the caller's retry.
 */
export async function enqueueJob(
  db: QueueDb,
  input: EnqueueJobInput,
): Promise<{ id: string; outcome: EnqueueOutcome }> {
  const inTransaction = !("$transaction" in db);
  const run = inTransaction ? <T>(f: () => Promise<T>) => f() : retryWhileBusy;
  const payload = JSON.stringify(input.payload ?? {});
  const runAt = input.runAt ?? new Date();

  for (let round = 0; round < 3; round++) {
    const existing = await run(() => db.job.findUnique({ where: { key: input.key }, select: { id: true, state: true } }));
    if (!existing) {
      try {
        const created = await run(() =>
          db.job.create({
            data: { kind: input.kind, key: input.key, shop: input.shop ?? null, payload, runAt, maxAttempts: input.maxAttempts },
            select: { id: true },
          }),
        );
        await run(() => ensureTurn(db, input.shop));
        return { id: created.id, outcome: "created" };
      } catch (error) {
        // Another writer created it between our read and insert: reuse it.
        if (!inTransaction && isUniqueViolation(error)) continue;
        throw error;
      }
    }
    const common = { kind: input.kind, shop: input.shop, payload, runAt, maxAttempts: input.maxAttempts };
    if (existing.state === "running") {
      // runAt of a running job is not read until it is pending again.
      const { count } = await run(() =>
        db.job.updateMany({ where: { id: existing.id, state: "running" }, data: { ...common, rerun: true } }),
      );
      if (count === 1) return { id: existing.id, outcome: "rerun" };
    } else {
      const { count } = await run(() =>
        db.job.updateMany({
          where: { id: existing.id, state: { not: "running" } },
          data: { ...common, state: "pending", attempts: 0, lastError: null, rerun: false, ...noLease },
        }),
      );
      if (count === 1) {
        await run(() => ensureTurn(db, input.shop));
        return { id: existing.id, outcome: "reset" };
      }
    }
  }
  throw new EnqueueConflictError(input.key);
}

/**
 * Creates, in one read and one insert, the jobs whose key is not taken yet; a key
 * already used is left alone (a one-off event queued twice runs once). For handlers
 * that queue many jobs inside another writer's transaction (lead events of a sync
 * batch): per-job enqueueJob would be two statements each. Returns how many were created.
 */
const KEYS_PER_READ = 500;

export async function enqueueNewJobs(tx: Prisma.TransactionClient, inputs: readonly EnqueueJobInput[]): Promise<number> {
  if (inputs.length === 0) return 0;
  const unique = [...new Map(inputs.map((i) => [i.key, i])).values()];
  const takenKeys = new Set<string>();
  // Pages under SQLite's 999 bound parameters per statement.
  for (let i = 0; i < unique.length; i += KEYS_PER_READ) {
    const taken = await tx.job.findMany({ where: { key: { in: unique.slice(i, i + KEYS_PER_READ).map((j) => j.key) } }, select: { key: true } });
    for (const t of taken) takenKeys.add(t.key);
  }
  const data = unique
    .filter((i) => !takenKeys.has(i.key))
    .map((i) => ({ kind: i.kind, key: i.key, shop: i.shop ?? null, payload: JSON.stringify(i.payload ?? {}), runAt: i.runAt ?? new Date(), maxAttempts: i.maxAttempts }));
  if (data.length > 0) {
    await tx.job.createMany({ data });
    await ensureTurns(tx, data.map((d) => d.shop));
  }
  return data.length;
}

export interface ClaimOptions {
  /** This worker's id, stored as leaseOwner. */
  owner: string;
  leaseMs: number;
  now: Date;
  /** Only these kinds (default: any). */
  kinds?: readonly string[];
  /**
   * "fair" (default): shops take turns. "fifo": the oldest due job whatever its
   * shop, the order before turns existed (kept as the benchmarks' baseline).
   * Either way jobs whose lease expired are taken back first.
   */
  order?: ClaimOrder;
  /**
   * Fair order only: a shop with this many jobs of one kind running (in every
   * worker) gets no more of that kind until one ends, so its posts waiting for
   * their key cannot fill every lane (docs/decisions/0004-fair-claim.md).
   * Default 2; 0 for no cap. Jobs without a shop are never capped.
   */
  maxRunningPerShop?: number;
}

export type ClaimOrder = "fair" | "fifo";
export const CLAIM_ORDERS: readonly ClaimOrder[] = ["fair", "fifo"];

const CANDIDATES_PER_ROUND = 10;
const CLAIM_ROUNDS = 3;
/** Shops asked per claim before falling back to the oldest due job. */
const TURNS_PER_CLAIM = 8;
export const DEFAULT_MAX_RUNNING_PER_SHOP = 2;
/** How often a process looks for waiting jobs whose shop has no turn (see discoverTurns). */
const DISCOVER_EVERY_MS = 5_000;
let nextDiscoveryMs = 0;

/**
 * Takes a due job: pending or failed with runAt <= now, or running with an
 * expired lease (its worker crashed or stalled). Expired leases go first; then
 * shops take turns, the least recently served shop with a due job giving its
 * oldest one (docs/decisions/0004-fair-claim.md). Returns null when none is due
 * or other workers won every candidate tried.
 */
export async function claimNextJob(db: QueueDb, options: ClaimOptions): Promise<ClaimedJob | null> {
  const kinds: Prisma.JobWhereInput = options.kinds ? { kind: { in: [...options.kinds] } } : {};
  // One read of the running jobs (at most the lanes of all workers) gives both
  // the expired leases and the shops at their cap.
  const running = await retryWhileBusy(() =>
    db.job.findMany({ where: { state: "running" }, select: { ...candidateFields, kind: true, shop: true, leaseExpiresAt: true } }),
  );
  const expiredWhere: Prisma.JobWhereInput = { ...kinds, state: "running", leaseExpiresAt: { lt: options.now } };
  const expired = running
    .filter((j) => j.leaseExpiresAt !== null && j.leaseExpiresAt < options.now && (!options.kinds || options.kinds.includes(j.kind)))
    .sort(byAge);
  for (const candidate of expired) {
    const claimed = await claimCandidate(db, options, candidate, expiredWhere);
    if (claimed) return claimed;
  }
  if (options.order === "fifo") return claimOldestDue(db, options, kinds);

  const nowMs = options.now.getTime();
  if (nowMs >= nextDiscoveryMs || nowMs < nextDiscoveryMs - DISCOVER_EVERY_MS) {
    nextDiscoveryMs = nowMs + DISCOVER_EVERY_MS;
    await retryWhileBusy(() => discoverTurns(db));
  }
  const capped = kindsAtCap(running, options.maxRunningPerShop ?? DEFAULT_MAX_RUNNING_PER_SHOP, options.now);
  for (const turn of await retryWhileBusy(() => nextTurns(db, TURNS_PER_CLAIM + capped.length))) {
    const cappedKinds = capped.filter((c) => c.shop === turn.shop).map((c) => c.kind);
    const scope: Prisma.JobWhereInput = { ...kinds, shop: turn.shop, ...(cappedKinds.length > 0 ? { NOT: { kind: { in: cappedKinds } } } : {}) };
    const [candidate] = await oldestDue(db, options.now, scope, 1);
    if (!candidate) {
      // Its due jobs are of a capped kind: it keeps its place, first in line once one ends.
      if (cappedKinds.length > 0) continue;
      // Nothing due: gone when the shop has nothing waiting, else to the back of the line.
      if (!(await retryWhileBusy(() => dropTurnIfIdle(db, turn)))) await retryWhileBusy(() => takeTurn(db, turn, nowMs));
      continue;
    }
    // Lost: another worker is serving this shop's turn right now; ask the next shop.
    if (!(await retryWhileBusy(() => takeTurn(db, turn, nowMs)))) continue;
    const claimed = await claimCandidate(db, options, candidate, dueWhere(options.now, scope));
    if (claimed) return claimed;
  }
  // The shops asked had nothing due (their work waits for a later runAt), or
  // a job's shop has no turn yet: the oldest due job, as before turns existed.
  // Jobs without a shop are never capped (spelled out: NOT over a NULL shop is NULL in SQL).
  const notCapped: Prisma.JobWhereInput =
    capped.length > 0 ? { OR: [{ shop: null }, { NOT: capped.map((c) => ({ shop: c.shop, kind: c.kind })) }] } : {};
  return claimOldestDue(db, options, { ...kinds, ...notCapped });
}

/** (shop, kind) pairs with `max` or more jobs running under a live lease. */
function kindsAtCap(
  running: readonly { shop: string | null; kind: string; leaseExpiresAt: Date | null }[],
  max: number,
  now: Date,
): { shop: string; kind: string }[] {
  if (max <= 0) return [];
  const counts = new Map<string, { shop: string; kind: string; n: number }>();
  for (const job of running) {
    if (job.shop === null || job.leaseExpiresAt === null || job.leaseExpiresAt < now) continue;
    const id = JSON.stringify([job.shop, job.kind]);
    const entry = counts.get(id) ?? { shop: job.shop, kind: job.kind, n: 0 };
    entry.n++;
    counts.set(id, entry);
  }
  return [...counts.values()].filter((c) => c.n >= max).map(({ shop, kind }) => ({ shop, kind }));
}

const byAge = (a: Candidate, b: Candidate) => a.runAt.getTime() - b.runAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const WAITING_STATES = ["pending", "failed"] as const;
const dueWhere = (now: Date, scope: Prisma.JobWhereInput): Prisma.JobWhereInput => ({
  ...scope,
  state: { in: [...WAITING_STATES] },
  runAt: { lte: now },
});

/**
 * The `take` oldest due jobs in `scope`. One query per waiting state, each an
 * ordered range of the (state, runAt) index (or (shop, state, runAt) when a
 * shop is given) read up to `take` rows: `state IN (...) ORDER BY runAt` would
 * read and sort every due job, which at 100k pending costs tens of ms a claim.
 */
async function oldestDue(db: QueueDb, now: Date, scope: Prisma.JobWhereInput, take: number): Promise<Candidate[]> {
  const found: Candidate[] = [];
  for (const state of WAITING_STATES) {
    found.push(
      ...(await retryWhileBusy(() =>
        db.job.findMany({ where: { ...scope, state, runAt: { lte: now } }, orderBy: [{ runAt: "asc" }, { id: "asc" }], take, select: candidateFields }),
      )),
    );
  }
  return found
    .sort(byAge)
    .slice(0, take);
}

/** The oldest due job whatever its shop, in a few rounds of candidates. */
async function claimOldestDue(db: QueueDb, options: ClaimOptions, kinds: Prisma.JobWhereInput): Promise<ClaimedJob | null> {
  for (let round = 0; round < CLAIM_ROUNDS; round++) {
    const candidates = await oldestDue(db, options.now, kinds, CANDIDATES_PER_ROUND);
    if (candidates.length === 0) return null;
    for (const candidate of candidates) {
      const claimed = await claimCandidate(db, options, candidate, dueWhere(options.now, kinds));
      if (claimed) return claimed;
    }
  }
  return null;
}

const candidateFields = { id: true, key: true, state: true, attempts: true, maxAttempts: true, runAt: true } as const;
type Candidate = Prisma.JobGetPayload<{ select: typeof candidateFields }>;

/**
 * Leases `candidate` if it still matches `where` (the conditional UPDATE that
 * makes a claim safe against every other worker). Null when another worker won
 * it, or it was not runnable (no attempt left, or a payload that is not JSON).
 */
async function claimCandidate(
  db: QueueDb,
  options: ClaimOptions,
  candidate: Candidate,
  where: Prisma.JobWhereInput,
): Promise<ClaimedJob | null> {
  if (candidate.state === "running" && candidate.attempts >= candidate.maxAttempts) {
    // Its worker died during the last attempt: no attempt is left to give it.
    await retryWhileBusy(() =>
      db.job.updateMany({
        where: { id: candidate.id, AND: [where] },
        data: {
          state: "dead",
          lastError: `attempt ${candidate.attempts} of ${candidate.maxAttempts} did not finish: its lease expired (worker crashed or stopped)`,
          ...noLease,
        },
      }),
    );
    return null;
  }
  const leaseExpiresAt = new Date(options.now.getTime() + options.leaseMs);
  const [row] = await retryWhileBusy(() =>
    db.job.updateManyAndReturn({
      where: { id: candidate.id, AND: [where] },
      data: { state: "running", leaseOwner: options.owner, leaseExpiresAt, attempts: { increment: 1 } },
    }),
  );
  if (!row) return null; // another worker won it
  const claimed = toClaimedJob(row);
  if (claimed) return claimed;
  await failJob(db, leaseOf(row), options.owner, new PermanentJobError("payload is not valid JSON"), {
    now: options.now,
    permanent: true,
  });
  return null;
}

function toClaimedJob(row: Job): ClaimedJob | null {
  let payload: unknown;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    return null;
  }
  return {
    id: row.id,
    kind: row.kind,
    key: row.key,
    shop: row.shop,
    payload,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    runAt: row.runAt,
    createdAt: row.createdAt,
    lastError: row.lastError,
    leaseOwner: row.leaseOwner ?? "",
    leaseExpiresAt: row.leaseExpiresAt ?? new Date(0),
  };
}

/** What identifies a lease: the job and the attempt it was claimed for. */
export type LeasedJob = Pick<ClaimedJob, "id" | "attempts" | "maxAttempts">;

const leaseOf = (row: Job): LeasedJob => ({ id: row.id, attempts: row.attempts, maxAttempts: row.maxAttempts });

const noLease = { leaseOwner: null, leaseExpiresAt: null } as const;

/** The job's state and next run time after a settle call. */
export interface Settled {
  state: JobState;
  runAt: Date;
}

/** The job as this lease left it: still running, same owner, same attempt. */
const heldBy = (job: LeasedJob, owner: string) => ({ id: job.id, state: "running", leaseOwner: owner, attempts: job.attempts });
const settledFields = { state: true, runAt: true } as const;

/**
 * Applies `data` if this lease still holds, or `rerunData` (back to pending with
 * a fresh budget) when the job was re-enqueued while it ran. The plain case is
 * tried first: rerun only ever turns true, so a miss there is never a false negative.
 */
async function settle(
  db: QueueDb,
  job: LeasedJob,
  owner: string,
  data: Prisma.JobUpdateManyMutationInput,
  rerunData: Prisma.JobUpdateManyMutationInput,
): Promise<Settled | false> {
  const [plain] = await retryWhileBusy(() =>
    db.job.updateManyAndReturn({ where: { ...heldBy(job, owner), rerun: false }, data: { ...data, ...noLease }, select: settledFields }),
  );
  if (plain) return { state: plain.state as JobState, runAt: plain.runAt };
  return settleRerun(db, job, owner, rerunData);
}

/** settle's second case: the job was re-enqueued while it ran, back to pending with a fresh budget. */
async function settleRerun(
  db: QueueDb,
  job: LeasedJob,
  owner: string,
  rerunData: Prisma.JobUpdateManyMutationInput,
): Promise<Settled | false> {
  const [rerun] = await retryWhileBusy(() =>
    db.job.updateManyAndReturn({
      where: { ...heldBy(job, owner), rerun: true },
      data: { ...rerunData, state: "pending", attempts: 0, rerun: false, ...noLease },
      select: settledFields,
    }),
  );
  return rerun ? { state: rerun.state as JobState, runAt: rerun.runAt } : false;
}

/** Marks the attempt successful. False when the lease was lost (nothing changed). */
export async function completeJob(db: QueueDb, job: LeasedJob, owner: string, now: Date = new Date()): Promise<boolean> {
  // settle's plain case in one raw statement (once per job; Prisma would wrap its
  // update in a transaction of its own); a job re-enqueued while it ran is settleRerun's.
  const done = await retryWhileBusy(
    () => db.$executeRaw`UPDATE "Job" SET "state" = 'done', "lastError" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${now}
      WHERE "id" = ${job.id} AND "state" = 'running' AND "leaseOwner" = ${owner} AND "attempts" = ${job.attempts} AND "rerun" = ${false}`,
  );
  if (done === 1) return true;
  return (await settleRerun(db, job, owner, { lastError: null })) !== false;
}

export interface FailOptions {
  now: Date;
  /** Dead at once, whatever attempts remain (PermanentJobError, unknown kind). */
  permanent?: boolean;
  backoff?: BackoffOptions;
}

/**
 * Records a failed attempt: failed with a backoff runAt, or dead when no attempt
 * is left. `error` must carry no secret: only its message is stored, truncated.
 */
export async function failJob(
  db: QueueDb,
  job: LeasedJob,
  owner: string,
  error: unknown,
  options: FailOptions,
): Promise<Settled | false> {
  const lastError = errorMessage(error);
  const dead = options.permanent === true || job.attempts >= job.maxAttempts;
  const data: Prisma.JobUpdateManyMutationInput = dead
    ? { state: "dead", lastError }
    : {
        state: "failed",
        lastError,
        runAt: new Date(options.now.getTime() + backoffDelayMs(job.attempts, options.backoff)),
      };
  return settle(db, job, owner, data, { lastError });
}

export interface RescheduleOptions {
  runAt: Date;
  /** False (rate limit, paused shop): the attempt is given back. */
  countAttempt: boolean;
  reason: string;
}

/** Puts the job back to wait until runAt, without it counting as a failure. */
export async function rescheduleJob(
  db: QueueDb,
  job: LeasedJob,
  owner: string,
  options: RescheduleOptions,
): Promise<Settled | false> {
  const reason = errorMessage(options.reason);
  if (options.countAttempt && job.attempts >= job.maxAttempts) {
    return settle(db, job, owner, { state: "dead", lastError: reason }, { lastError: reason, runAt: options.runAt });
  }
  const data: Prisma.JobUpdateManyMutationInput = {
    state: "pending",
    runAt: options.runAt,
    lastError: reason,
    ...(options.countAttempt ? {} : { attempts: { decrement: 1 } }),
  };
  return settle(db, job, owner, data, { lastError: reason, runAt: options.runAt });
}

/** Pushes the lease end to now + leaseMs. False when the lease is no longer ours. */
export async function extendLease(
  db: QueueDb,
  job: LeasedJob,
  owner: string,
  options: { leaseMs: number; now: Date },
): Promise<boolean> {
  const { count } = await retryWhileBusy(() =>
    db.job.updateMany({
      where: { id: job.id, state: "running", leaseOwner: owner, attempts: job.attempts },
      data: { leaseExpiresAt: new Date(options.now.getTime() + options.leaseMs) },
    }),
  );
  return count === 1;
}

const RETRYABLE_STATES: JobState[] = ["dead", "failed"];

const freshStart = (now: Date) =>
  ({ state: "pending", attempts: 0, runAt: now, lastError: null, rerun: false, ...noLease }) as const;

/**
 * Runs a dead (or failed, still in backoff) job again now, with a fresh attempt
 * budget. With `shop`, only that shop's job. False when no such job is retryable.
 */
export async function retryDeadJob(
  db: QueueDb,
  id: string,
  options: { shop?: string; now?: Date } = {},
): Promise<boolean> {
  const [row] = await retryWhileBusy(() =>
    db.job.updateManyAndReturn({
      where: { id, state: { in: RETRYABLE_STATES }, ...(options.shop !== undefined ? { shop: options.shop } : {}) },
      data: freshStart(options.now ?? new Date()),
      select: { shop: true },
    }),
  );
  if (!row) return false;
  await retryWhileBusy(() => ensureTurn(db, row.shop));
  return true;
}

/** Retries every job in `state` (of `shop`, when given). Returns how many. */
export async function retryJobs(
  db: QueueDb,
  options: { shop?: string; state: "dead" | "failed"; now?: Date },
): Promise<number> {
  const { count } = await retryWhileBusy(() =>
    db.job.updateMany({
      where: { state: options.state, ...(options.shop !== undefined ? { shop: options.shop } : {}) },
      data: freshStart(options.now ?? new Date()),
    }),
  );
  if (count > 0) {
    if (options.shop !== undefined) await retryWhileBusy(() => ensureTurn(db, options.shop));
    else await retryWhileBusy(() => discoverTurns(db));
  }
  return count;
}

export interface ListJobsOptions {
  shop?: string;
  states?: readonly JobState[];
  kinds?: readonly string[];
  /** 1 to 200. */
  limit: number;
  /** nextCursor of the previous page. */
  cursor?: string;
}

/** Newest first (by creation, then id), a page at a time. */
export async function listJobs(
  db: QueueDb,
  options: ListJobsOptions,
): Promise<{ jobs: Job[]; nextCursor: string | null }> {
  const limit = Math.min(200, Math.max(1, Math.floor(options.limit)));
  const rows = await retryWhileBusy(() =>
    db.job.findMany({
      where: {
        ...(options.shop !== undefined ? { shop: options.shop } : {}),
        ...(options.states ? { state: { in: [...options.states] } } : {}),
        ...(options.kinds ? { kind: { in: [...options.kinds] } } : {}),
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit + 1,
      ...(options.cursor ? { cursor: { id: options.cursor }, skip: 1 } : {}),
    }),
  );
  const jobs = rows.slice(0, limit);
  return { jobs, nextCursor: rows.length > limit ? jobs[jobs.length - 1].id : null };
}

/** How many jobs are in each state (every state present, zeros included). */
export async function countJobsByState(db: QueueDb, options: { shop?: string } = {}): Promise<Record<JobState, number>> {
  const groups = await retryWhileBusy(() =>
    db.job.groupBy({
      by: ["state"],
      where: options.shop !== undefined ? { shop: options.shop } : {},
      _count: { _all: true },
    }),
  );
  const counts = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
  for (const group of groups) {
    if ((JOB_STATES as readonly string[]).includes(group.state)) counts[group.state as JobState] = group._count._all;
  }
  return counts;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}
