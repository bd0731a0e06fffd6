/**
 * Data access of the durable outbox (the Job table). Every call takes the client
 * first. Claims and state changes are single conditional UPDATEs (`updateMany`
 * with the precondition in its WHERE), which are atomic: a count of 0 means
 * another worker got there first.
 *
 * A lease is identified by (leaseOwner, attempts): each claim increments attempts,
 * so a worker whose lease expired and was taken over cannot settle the job, even
 * when the new claim came from the same owner.
 *
 * Our own queue, not graphile-worker or pg-boss, which know neither per-shop
 * turns nor the shared key limiter (docs/decisions/0003-own-job-queue.md).
 */
import type { Job } from "@prisma/client";
import { backoffDelayMs, type BackoffOptions } from "./backoff";
import { errorMessage, PermanentJobError } from "./errors";
import { newId, sqlOf, type BatchItem, type Sql, type SqlSource } from "../db/sql";
import {
  discoverTurns,
  dropTurnIfIdle,
  ensureTurn,
  ensureTurns,
  shopOfTurn,
  takeTurn,
  turnKey,
  type Turn,
} from "./turns.server";
import {
  buryExpiredJob,
  completeLease,
  completeLeases,
  completionItem as completionStatement,
  extendLeaseRow,
  insertNewJobs,
  leaseBatch,
  leaseById,
  leaseCandidate,
  leaseWhileAlone,
  oldestDueRows,
  readClaimRows,
  settleLease,
  settleRerun as settleRerunRow,
  upsertJob,
  upsertJobs,
  wakeJobRows,
  wakeJobsItem,
  type Candidate,
  type JobRow,
  type LeaseTerms,
  type NewJob,
  type Settled,
} from "./job-sql";
import { JOB_STATES, type ClaimedJob, type JobState, type QueueDb } from "./types";

export type { Settled } from "./job-sql";

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

export interface EnqueueOptions {
  /**
   * The shop has a turn that cannot go away meanwhile (the caller runs one of its
   * jobs): no statement to make sure of it.
   */
  shopHasTurn?: boolean;
}

const JOBS_PER_INSERT = 100;

/**
 * Creates the job, or reuses the one with the same key (see EnqueueOutcome), in
 * one statement (an INSERT ... ON CONFLICT DO UPDATE, atomic).
 * Works inside a transaction, so intake can store an order and its job
 * atomically.
 */
export async function enqueueJob(
  db: SqlSource,
  input: EnqueueJobInput,
  options: EnqueueOptions = {},
): Promise<{ id: string; outcome: EnqueueOutcome }> {
  const sql = sqlOf(db);
  const now = new Date();
  const job = newJob(input, now);
  const row = await upsertJob(sql, job, now);
  const outcome: EnqueueOutcome = row.id === job.id ? "created" : row.state === "running" ? "rerun" : "reset";
  if (outcome !== "rerun" && !options.shopHasTurn) await ensureTurn(sql, input.shop);
  return { id: row.id, outcome };
}

/** The row to write for `input`: a fresh id, runAt now unless given. */
export const newJob = (input: EnqueueJobInput, now: Date): NewJob => ({
  id: newId(),
  kind: input.kind,
  key: input.key,
  shop: input.shop ?? null,
  payload: JSON.stringify(input.payload ?? {}),
  runAt: input.runAt ?? now,
  maxAttempts: input.maxAttempts ?? null,
});

/**
 * enqueueJob for many jobs, one statement per 100 (a key given twice: the last
 * one): each is created or takes over its key's job with its payload and runAt.
 */
export const enqueueJobs = (db: SqlSource, inputs: readonly EnqueueJobInput[], options: EnqueueOptions = {}) =>
  writeJobsInPages(db, inputs, upsertJobs, options);

/**
 * Makes sure jobs with these keys will run: each is created, or a finished or
 * dead one starts over, or a running one runs again after; a job already
 * waiting is left as it is (its runAt and payload), so many wake-ups before it
 * runs make one run. One statement per 100, which writes nothing for jobs
 * already waiting.
 */
export const wakeJobs = (db: SqlSource, inputs: readonly EnqueueJobInput[], options: EnqueueOptions = {}) =>
  writeJobsInPages(db, inputs, wakeJobRows, options);

/** One multi-row statement per JOBS_PER_INSERT distinct keys (maxAttempts the column default on create), then the shops' turns. */
async function writeJobsInPages(
  db: SqlSource,
  inputs: readonly EnqueueJobInput[],
  write: (sql: Sql, jobs: readonly NewJob[], now: Date) => Promise<unknown>,
  options: EnqueueOptions,
): Promise<void> {
  if (inputs.length === 0) return;
  const sql = sqlOf(db);
  const unique = [...new Map(inputs.map((i) => [i.key, i])).values()];
  const now = new Date();
  for (let i = 0; i < unique.length; i += JOBS_PER_INSERT) {
    const page = unique.slice(i, i + JOBS_PER_INSERT);
    await write(
      sql,
      page.map((j) => ({ ...newJob(j, now), maxAttempts: null })),
      now,
    );
  }
  if (!options.shopHasTurn)
    await ensureTurns(
      sql,
      unique.map((j) => j.shop),
    );
}

/**
 * wakeJobs as writes for a caller's batch (one per 100 keys), for a caller that
 * runs one of the shop's jobs (its turn cannot go away meanwhile).
 */
export function wakeJobsItems(inputs: readonly EnqueueJobInput[], now: Date = new Date()): BatchItem[] {
  const unique = [...new Map(inputs.map((i) => [i.key, i])).values()];
  const items: BatchItem[] = [];
  for (let i = 0; i < unique.length; i += JOBS_PER_INSERT)
    items.push(
      wakeJobsItem(
        unique.slice(i, i + JOBS_PER_INSERT).map((j) => ({ ...newJob(j, now), maxAttempts: null })),
        now,
      ),
    );
  return items;
}

/** wakeJobs for one job. */
export const wakeJob = (db: SqlSource, input: EnqueueJobInput, options: EnqueueOptions = {}) =>
  wakeJobs(db, [input], options);

/**
 * Creates, in one insert per 100 jobs, the jobs whose key is not taken yet; a
 * key already used is left alone (a one-off event queued twice runs once). For
 * handlers that queue many jobs inside another writer's transaction (lead
 * events of a batch). Returns how many were created.
 */
export async function enqueueNewJobs(
  db: SqlSource,
  inputs: readonly EnqueueJobInput[],
  options: EnqueueOptions = {},
): Promise<number> {
  if (inputs.length === 0) return 0;
  const sql = sqlOf(db);
  const unique = [...new Map(inputs.map((i) => [i.key, i])).values()];
  const now = new Date();
  let created = 0;
  for (let i = 0; i < unique.length; i += JOBS_PER_INSERT) {
    created += await insertNewJobs(
      sql,
      unique.slice(i, i + JOBS_PER_INSERT).map((j) => newJob(j, now)),
      now,
    );
  }
  if (created > 0 && !options.shopHasTurn)
    await ensureTurns(
      sql,
      unique.map((j) => j.shop),
    );
  return created;
}

export interface ClaimOptions {
  /** This worker's id, stored as leaseOwner. */
  owner: string;
  leaseMs: number;
  now: Date;
  /** Only these kinds (default: any). */
  kinds?: readonly string[];
  /**
   * A shop with this many jobs of one kind running (in every worker) gets no
   * more of that kind until one ends, so its posts waiting for their key cannot
   * fill every lane (docs/decisions/0004-fair-claim.md). Default 2; 0 for no
   * cap. Jobs without a shop are never capped.
   */
  maxRunningPerShop?: number;
}

const CANDIDATES_PER_ROUND = 10;
const CLAIM_ROUNDS = 3;
/** Shops asked per claim before falling back to the oldest due job. */
const TURNS_PER_CLAIM = 8;
/** Turns read per claim: those asked, and room for shops whose due work is all capped. */
const TURNS_READ = 16;
export const DEFAULT_MAX_RUNNING_PER_SHOP = 2;
/** How often a process looks for waiting jobs whose shop has no turn (see discoverTurns). */
const DISCOVER_EVERY_MS = 5_000;
let nextDiscoveryMs = 0;
const discoveryDue = (nowMs: number) => nowMs >= nextDiscoveryMs || nowMs < nextDiscoveryMs - DISCOVER_EVERY_MS;

/** What the claim's one read (job-sql.ts readClaimRows) found. */
interface ClaimView {
  turns: Turn[];
  running: Candidate[];
  /** Due waiting jobs: each read turn's oldest, the oldest without a shop, the oldest overall. */
  waiting: Candidate[];
  /** Every turn there is was read (fewer than asked for). */
  allTurns: boolean;
}

async function readClaimView(sql: Sql, options: ClaimOptions): Promise<ClaimView> {
  const read = await readClaimRows(sql, { turns: TURNS_READ, now: options.now, kinds: options.kinds });
  const turns: Turn[] = read.turns.map((t) => ({ ...t, shop: shopOfTurn(t.key) }));
  turns.sort((a, b) => a.lastServedMs - b.lastServedMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const running = read.jobs.filter((j) => j.state === "running");
  const waiting = read.jobs.filter((j) => j.state !== "running").sort(byAge);
  return { turns, running, waiting, allTurns: turns.length < TURNS_READ };
}

const leaseTerms = (options: Pick<ClaimOptions, "owner" | "leaseMs" | "now">): LeaseTerms => ({
  owner: options.owner,
  leaseExpiresAt: new Date(options.now.getTime() + options.leaseMs),
  now: options.now,
});

/**
 * Takes a due job: pending or failed with runAt <= now, or running with an
 * expired lease (its worker crashed or stalled). Expired leases go first; then
 * shops take turns, the least recently served shop with a due job giving its
 * oldest one (docs/decisions/0004-fair-claim.md). Returns null when none is due
 * or other workers won every candidate tried.
 *
 * One read (turns, running jobs and candidates together) and one conditional
 * update; moving the shop to the back of the line is a third statement, left
 * out when no other shop has due work (there is no one to take turns with).
 */
export async function claimNextJob(db: SqlSource, options: ClaimOptions): Promise<ClaimedJob | null> {
  return (await claimNext(db, options)).job;
}

/**
 * A claim's job (null: none); `quiet` when the claim saw nothing else it could
 * lease now, but jobs of the shop's `capped` kinds (leaseWhileAlone); false
 * when it cannot tell.
 */
export interface Claim {
  job: ClaimedJob | null;
  quiet: boolean;
  capped: readonly string[];
}

const UNTOLD = { quiet: false, capped: [] } as const;

/** claimNextJob, telling also whether the claim saw nothing else to do. */
export async function claimNext(db: SqlSource, options: ClaimOptions): Promise<Claim> {
  const sql = sqlOf(db);
  // Not when discovery is due: a job whose shop has no turn must get one, and the full claim does that.
  if (!discoveryDue(options.now.getTime())) {
    const alone = await claimWhileAlone(sql, options);
    if (alone !== "blocked") return alone;
  }
  return { job: await claimTakingTurns(sql, options), ...UNTOLD };
}

async function claimTakingTurns(sql: Sql, options: ClaimOptions): Promise<ClaimedJob | null> {
  const view = await readClaimView(sql, options);
  const expired = view.running
    .filter(
      (j) =>
        j.leaseExpiresAt !== null &&
        j.leaseExpiresAt < options.now &&
        (!options.kinds || options.kinds.includes(j.kind)),
    )
    .sort(byAge);
  for (const candidate of expired) {
    const claimed = await claimCandidate(sql, options, candidate);
    if (claimed) return claimed;
  }

  const nowMs = options.now.getTime();
  if (discoveryDue(nowMs)) {
    nextDiscoveryMs = nowMs + DISCOVER_EVERY_MS;
    await discoverTurns(sql);
  }
  const capped = kindsAtCap(view.running, options.maxRunningPerShop ?? DEFAULT_MAX_RUNNING_PER_SHOP, options.now);
  const dueByTurn = new Map<string, Candidate[]>();
  for (const job of view.waiting) {
    const key = turnKey(job.shop);
    const jobs = dueByTurn.get(key) ?? dueByTurn.set(key, []).get(key)!;
    if (!jobs.some((j) => j.id === job.id)) jobs.push(job);
  }
  const turnsWithWork = view.turns.filter((turn) => dueByTurn.has(turn.key)).length;
  // Alone with due work among all the turns: no one to take turns with, no bookkeeping.
  const alone = view.allTurns && turnsWithWork === 1;
  /** A candidate went to another worker (or was not runnable): older ones may be left. */
  let lost = false;
  for (const turn of view.turns.slice(0, TURNS_PER_CLAIM + capped.length)) {
    const cappedKinds = capped.filter((c) => c.shop === turn.shop).map((c) => c.kind);
    const due = dueByTurn.get(turn.key) ?? [];
    let candidate = due.find((j) => !cappedKinds.includes(j.kind));
    if (!candidate && due.length > 0) {
      // Its oldest due jobs are of a capped kind: its oldest of another kind, if any.
      [candidate] = await oldestDue(
        sql,
        options,
        { shop: turn.shop, withoutKinds: capped.filter((c) => c.shop === turn.shop) },
        1,
      );
      // None: it keeps its place, first in line once one ends.
      if (!candidate) continue;
    }
    if (!candidate) {
      // Nothing due: gone when the shop has nothing waiting, else to the back of the line.
      if (!(await dropTurnIfIdle(sql, turn))) await takeTurn(sql, turn, nowMs);
      continue;
    }
    // Lost: another worker is serving this shop's turn right now; ask the next shop.
    if (!alone && !(await takeTurn(sql, turn, nowMs))) continue;
    const claimed = await claimCandidate(sql, options, candidate);
    if (claimed) {
      if (alone && turn.shop !== null) aloneShop.set(sql, turn.shop);
      return claimed;
    }
    lost = true;
  }
  // The shops asked had nothing due (their work waits for a later runAt), or
  // a job's shop has no turn yet: the oldest due job, as before turns existed.
  // When every turn was read and each due job seen has one, a job without a
  // turn can only be younger than those: discoverTurns gives it one shortly.
  const orphanSeen = view.waiting.some((j) => !view.turns.some((t) => t.key === turnKey(j.shop)));
  if (view.allTurns && !orphanSeen && !lost) return null;
  return claimOldestDue(sql, options, view.waiting, capped);
}

/** The shop a claim last found alone with due work, per database: the next claim tries it in one statement. */
const aloneShop = new WeakMap<Sql, string>();

/**
 * job-sql.ts CLAIM_ALONE: the job, or null when nothing can be claimed now (the
 * shop stays alone), or "blocked" when the shop is no longer alone or a job
 * comes before its own (the usual claim then).
 */
async function claimWhileAlone(sql: Sql, options: ClaimOptions): Promise<Claim | "blocked"> {
  const shop = aloneShop.get(sql);
  if (shop === undefined) return "blocked";
  const max = options.maxRunningPerShop ?? DEFAULT_MAX_RUNNING_PER_SHOP;
  const leased = await leaseWhileAlone(sql, leaseTerms(options), {
    shop,
    cap: max > 0 ? max : Number.MAX_SAFE_INTEGER,
    kinds: options.kinds,
  });
  if (leased === "blocked") {
    aloneShop.delete(sql);
    return "blocked";
  }
  if (!leased.row) return { job: null, quiet: true, capped: leased.capped };
  // Not runnable (made dead): others may be due, the usual claim looks.
  const job = await runnable(sql, leased.row, options);
  return job ? { job, quiet: leased.quiet, capped: leased.capped } : "blocked";
}

/** (shop, kind) pairs with `max` or more jobs running under a live lease. */
function kindsAtCap(running: readonly Candidate[], max: number, now: Date): { shop: string; kind: string }[] {
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

const byAge = (a: Candidate, b: Candidate) =>
  a.runAt.getTime() - b.runAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const isCapped = (job: Candidate, capped: readonly { shop: string; kind: string }[]) =>
  capped.some((c) => c.shop === job.shop && c.kind === job.kind);

/** The `take` oldest due jobs, of one shop when given, not of the capped pairs (job-sql.ts oldestDueRows). */
async function oldestDue(
  sql: Sql,
  options: ClaimOptions,
  scope: { shop?: string | null; withoutKinds: readonly { shop: string; kind: string }[] },
  take: number,
): Promise<Candidate[]> {
  const found = await oldestDueRows(sql, { ...scope, now: options.now, kinds: options.kinds, take });
  return found.sort(byAge).slice(0, take);
}

/** The oldest due job whatever its shop: the read's candidates first, then a few rounds of fresh ones. */
async function claimOldestDue(
  sql: Sql,
  options: ClaimOptions,
  known: readonly Candidate[],
  capped: readonly { shop: string; kind: string }[],
): Promise<ClaimedJob | null> {
  const first = known.filter((j) => !isCapped(j, capped));
  // The read's overall oldest is a true oldest only when nothing capped stands before it.
  if (first.length > 0 && capped.length === 0) {
    for (const candidate of first) {
      const claimed = await claimCandidate(sql, options, candidate);
      if (claimed) return claimed;
    }
  }
  for (let round = 0; round < CLAIM_ROUNDS; round++) {
    const candidates = await oldestDue(sql, options, { withoutKinds: capped }, CANDIDATES_PER_ROUND);
    if (candidates.length === 0) return null;
    for (const candidate of candidates) {
      const claimed = await claimCandidate(sql, options, candidate);
      if (claimed) return claimed;
    }
  }
  return null;
}

/**
 * Leases `candidate` if it is still due (or still expired): the conditional
 * UPDATE that makes a claim safe against every other worker. Null when another
 * worker won it, or it was not runnable (no attempt left, or a payload that is not JSON).
 */
async function claimCandidate(sql: Sql, options: ClaimOptions, candidate: Candidate): Promise<ClaimedJob | null> {
  if (candidate.state === "running" && candidate.attempts >= candidate.maxAttempts) {
    // Its worker died during the last attempt: no attempt is left to give it.
    const reason = `attempt ${candidate.attempts} of ${candidate.maxAttempts} did not finish: its lease expired (worker crashed or stopped)`;
    await buryExpiredJob(sql, candidate.id, reason, options.now);
    return null;
  }
  const job = await leaseCandidate(sql, leaseTerms(options), candidate);
  return job ? runnable(sql, job, options) : null; // null: another worker won it
}

/** The leased job as its handler gets it; a payload that is not JSON makes it dead instead (null). */
async function runnable(
  sql: Sql,
  job: JobRow,
  options: Pick<ClaimOptions, "owner" | "now">,
): Promise<ClaimedJob | null> {
  const claimed = toClaimedJob(job);
  if (claimed) return claimed;
  await failJob(sql, job, options.owner, new PermanentJobError("payload is not valid JSON"), {
    now: options.now,
    permanent: true,
  });
  return null;
}

function toClaimedJob(row: JobRow): ClaimedJob | null {
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

/**
 * Leases the job with this id if it is due (pending or failed, its runAt passed):
 * for a runner that chose the job itself rather than by the fair claim. Null when
 * it is not (done, dead, leased by a worker, waiting for a later runAt) or not
 * runnable (made dead, as in the claim).
 */
export async function claimJobById(
  db: SqlSource,
  id: string,
  options: Pick<ClaimOptions, "owner" | "leaseMs" | "now">,
): Promise<ClaimedJob | null> {
  const sql = sqlOf(db);
  const job = await leaseById(sql, leaseTerms(options), id, "due");
  return job ? runnable(sql, job, options) : null;
}

/**
 * Leases up to `limit` more due pending jobs of `first`'s shop and kind, to run
 * in one batch with it (the worker's batch handlers). A payload that is not
 * JSON makes its job dead, as in the claim.
 */
export async function claimBatchJobs(
  db: SqlSource,
  first: ClaimedJob,
  options: Pick<ClaimOptions, "owner" | "leaseMs" | "now"> & { limit: number },
): Promise<ClaimedJob[]> {
  if (options.limit <= 0 || first.shop === null) return [];
  const sql = sqlOf(db);
  const rows = await leaseBatch(sql, leaseTerms(options), { shop: first.shop, kind: first.kind, limit: options.limit });
  const jobs: ClaimedJob[] = [];
  for (const row of rows) {
    const claimed = await runnable(sql, row, options);
    if (claimed) jobs.push(claimed);
  }
  return jobs.sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id.localeCompare(b.id));
}

/**
 * completeJobIn for a batch's jobs, in one statement: the ids marked done (a job
 * re-enqueued meanwhile or whose lease was lost is not, and is settled as usual).
 */
export async function completeJobsIn(
  tx: Sql,
  jobs: readonly LeasedJob[],
  owner: string,
  now: Date = new Date(),
): Promise<Set<string>> {
  return jobs.length === 0 ? new Set() : completeLeases(tx, jobs, owner, now);
}

/** What identifies a lease: the job and the attempt it was claimed for. */
export type LeasedJob = Pick<ClaimedJob, "id" | "attempts" | "maxAttempts">;

interface SettleData {
  state: JobState;
  lastError: string | null;
  runAt?: Date;
  /** The attempt is given back (not counted). */
  giveBackAttempt?: boolean;
}

/**
 * Applies `data` if this lease still holds, or the rerun case (back to pending
 * with a fresh budget) when the job was re-enqueued while it ran. The plain case
 * is tried first: rerun only ever turns true, so a miss there is never a false negative.
 */
async function settle(
  db: SqlSource,
  job: LeasedJob,
  owner: string,
  data: SettleData,
  rerun: { lastError: string | null; runAt?: Date },
): Promise<Settled | false> {
  const sql = sqlOf(db);
  const now = new Date();
  return (
    (await settleLease(sql, job, owner, data, now)) ?? (await settleRerunRow(sql, job, owner, rerun, now)) ?? false
  );
}

/** Marks the attempt successful. False when the lease was lost (nothing changed). */
export async function completeJob(
  db: SqlSource,
  job: LeasedJob,
  owner: string,
  now: Date = new Date(),
): Promise<boolean> {
  const sql = sqlOf(db);
  if (await completeLease(sql, job, owner, now)) return true;
  return (await settleRerunRow(sql, job, owner, { lastError: null }, new Date())) !== null;
}

/**
 * Marks the attempt successful inside the caller's transaction, with the work it
 * commits: true when done; false when the job was re-enqueued meanwhile or the
 * lease was lost (nothing changed: the worker settles it as usual after the handler).
 */
export const completeJobIn = (tx: Sql, job: LeasedJob, owner: string, now: Date = new Date()): Promise<boolean> =>
  completeLease(tx, job, owner, now);

/** completeJobIn as a statement for a batch of writes (Sql.batch): done when it changed one row. */
export const completionItem = (job: LeasedJob, owner: string, now: Date = new Date()): BatchItem =>
  completionStatement(job, owner, now);

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
  db: SqlSource,
  job: LeasedJob,
  owner: string,
  error: unknown,
  options: FailOptions,
): Promise<Settled | false> {
  const lastError = errorMessage(error);
  const dead = options.permanent === true || job.attempts >= job.maxAttempts;
  const data: SettleData = dead
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
  db: SqlSource,
  job: LeasedJob,
  owner: string,
  options: RescheduleOptions,
): Promise<Settled | false> {
  const reason = errorMessage(options.reason);
  if (options.countAttempt && job.attempts >= job.maxAttempts) {
    return settle(db, job, owner, { state: "dead", lastError: reason }, { lastError: reason, runAt: options.runAt });
  }
  return settle(
    db,
    job,
    owner,
    { state: "pending", runAt: options.runAt, lastError: reason, giveBackAttempt: !options.countAttempt },
    { lastError: reason, runAt: options.runAt },
  );
}

/** Pushes the lease end to now + leaseMs. False when the lease is no longer ours. */
export async function extendLease(
  db: SqlSource,
  job: LeasedJob,
  owner: string,
  options: { leaseMs: number; now: Date },
): Promise<boolean> {
  return extendLeaseRow(sqlOf(db), job, owner, new Date(options.now.getTime() + options.leaseMs), new Date());
}

const noLease = { leaseOwner: null, leaseExpiresAt: null } as const;

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
  const [row] = await db.job.updateManyAndReturn({
    where: { id, state: { in: RETRYABLE_STATES }, ...(options.shop !== undefined ? { shop: options.shop } : {}) },
    data: freshStart(options.now ?? new Date()),
    select: { shop: true },
  });
  if (!row) return false;
  await ensureTurn(db, row.shop);
  return true;
}

/** Retries every job in `state` (of `shop`, when given). Returns how many. */
export async function retryJobs(
  db: QueueDb,
  options: { shop?: string; state: "dead" | "failed"; now?: Date },
): Promise<number> {
  const { count } = await db.job.updateMany({
    where: { state: options.state, ...(options.shop !== undefined ? { shop: options.shop } : {}) },
    data: freshStart(options.now ?? new Date()),
  });
  if (count > 0) {
    if (options.shop !== undefined) await ensureTurn(db, options.shop);
    else await discoverTurns(db);
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
  const rows = await db.job.findMany({
    where: {
      ...(options.shop !== undefined ? { shop: options.shop } : {}),
      ...(options.states ? { state: { in: [...options.states] } } : {}),
      ...(options.kinds ? { kind: { in: [...options.kinds] } } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    ...(options.cursor ? { cursor: { id: options.cursor }, skip: 1 } : {}),
  });
  const jobs = rows.slice(0, limit);
  return { jobs, nextCursor: rows.length > limit ? jobs[jobs.length - 1].id : null };
}

/** How many jobs are in each state (every state present, zeros included). */
export async function countJobsByState(
  db: QueueDb,
  options: { shop?: string } = {},
): Promise<Record<JobState, number>> {
  const groups = await db.job.groupBy({
    by: ["state"],
    where: options.shop !== undefined ? { shop: options.shop } : {},
    _count: { _all: true },
  });
  const counts = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
  for (const group of groups) {
    if ((JOB_STATES as readonly string[]).includes(group.state)) counts[group.state as JobState] = group._count._all;
  }
  return counts;
}
