/**
 * The Activity page: every call the app made to the Seller Order API (newest first,
 * filtered by status class, keyset pagination over the (shop, at) index) and the
 * shop's job queue with its counts and retry actions. Scoped to one shop throughout.
 */
import type { Job, Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { shopLinksByIds } from "../models/links-by-id.server";
import { countJobsByState, listJobs, retryDeadJob, retryJobs } from "../queue/jobs.server";
import type { JobState } from "../queue/types";
import type { CallRow } from "../sync/call-log.server";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { localTime } from "../time-zone";

export const STATUS_CLASSES = ["all", "success", "client", "rate_limited", "server", "no_answer"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];
export const CALLS_PER_PAGE = 50;
export const JOBS_PER_PAGE = 25;
/** The states a merchant acts on; done jobs are history, not shown. */
export const VISIBLE_JOB_STATES = ["pending", "running", "failed", "dead"] as const satisfies readonly JobState[];
export type VisibleJobState = (typeof VISIBLE_JOB_STATES)[number];

export function isStatusClass(value: string | null): value is StatusClass {
  return value !== null && (STATUS_CLASSES as readonly string[]).includes(value);
}

export function isVisibleJobState(value: string | null): value is VisibleJobState {
  return value !== null && (VISIBLE_JOB_STATES as readonly string[]).includes(value);
}

const STATUS_WHERE: Record<StatusClass, Prisma.ApiCallWhereInput> = {
  all: {},
  success: { status: { gte: 200, lt: 300 } },
  client: { OR: [{ status: { gte: 400, lt: 429 } }, { status: { gt: 429, lt: 500 } }] },
  rate_limited: { status: 429 },
  server: { status: { gte: 500 } },
  no_answer: { status: 0 },
};

/** "2026-03-10T12:55:31.042Z" -> "2026-03-10 13:55:31", the shop's wall clock (the page writes it in the reader's format). */
export function formatSeconds(iso: string): string {
  return localTime(iso, DEFAULT_TIME_ZONE);
}

/** UTC to the millisecond, as the platform's support needs it to find a failed call in its logs. */
export function formatExact(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)} UTC`;
}

/** A logged call as the page shows it (status 0: no answer, a timeout or a refused or reset connection). */
export interface ApiCallView extends Omit<CallRow, "shop" | "at"> {
  id: string;
  at: string;
  time: string;
  /** Set for 5xx answers only. */
  exactTime: string | null;
}

/** Cursor of a page's last row: its instant in ms and its id (rows of one millisecond stay ordered). */
export function encodeCallCursor(at: Date, id: string): string {
  return `${at.getTime()}_${id}`;
}

export function decodeCallCursor(cursor: string | null | undefined): { at: Date; id: string } | null {
  const match = /^(\d{1,15})_([A-Za-z0-9]+)$/.exec(cursor ?? "");
  return match ? { at: new Date(Number(match[1])), id: match[2] } : null;
}

export async function listApiCalls(
  db: Db,
  shop: string,
  options: { statusClass?: StatusClass; cursor?: string | null; limit?: number } = {},
): Promise<{ calls: ApiCallView[]; nextCursor: string | null }> {
  const limit = Math.min(200, Math.max(1, Math.floor(options.limit ?? CALLS_PER_PAGE)));
  const after = decodeCallCursor(options.cursor);
  const rows = await db.apiCall.findMany({
    where: {
      shop,
      AND: [
        STATUS_WHERE[options.statusClass ?? "all"],
        after ? { OR: [{ at: { lt: after.at } }, { at: after.at, id: { lt: after.id } }] } : {},
      ],
    },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    calls: page.map((row) => {
      const at = row.at.toISOString();
      return {
        id: row.id,
        method: row.method,
        path: row.path,
        status: row.status,
        durationMs: row.durationMs,
        attempt: row.attempt,
        apiVersion: row.apiVersion,
        at,
        time: formatSeconds(at),
        exactTime: row.status >= 500 ? formatExact(at) : null,
      };
    }),
    nextCursor: rows.length > limit && last ? encodeCallCursor(last.at, last.id) : null,
  };
}

// ---------------------------------------------------------------- jobs

/** A job id the shop does not have (another shop's, or none): the route answers 404. */
export class JobNotFoundError extends Error {
  constructor(readonly id: string) {
    super(`job ${id} not found`);
    this.name = "JobNotFoundError";
  }
}

export interface JobView {
  id: string;
  kind: string;
  state: JobState;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  runAt: string;
  updatedAt: string;
  /** The Shopify order the job works for, when it works for one. */
  orderName: string | null;
  retryable: boolean;
}

function linkIdOf(job: Job): string | null {
  try {
    const payload = JSON.parse(job.payload) as { linkId?: unknown };
    return typeof payload?.linkId === "string" ? payload.linkId : null;
  } catch {
    return null;
  }
}

export async function listShopJobs(
  db: Db,
  shop: string,
  options: { state?: VisibleJobState | null; cursor?: string | null; limit?: number } = {},
): Promise<{ jobs: JobView[]; nextCursor: string | null; counts: Record<JobState, number> }> {
  const cursor =
    options.cursor && (await db.job.findFirst({ where: { id: options.cursor, shop }, select: { id: true } }))
      ? options.cursor
      : undefined;
  const [{ jobs, nextCursor }, counts] = await Promise.all([
    listJobs(db, {
      shop,
      states: options.state ? [options.state] : VISIBLE_JOB_STATES,
      limit: options.limit ?? JOBS_PER_PAGE,
      cursor,
    }),
    countJobsByState(db, { shop }),
  ]);
  const linkIds = [...new Set(jobs.map(linkIdOf).filter((id): id is string => id !== null))];
  const links = linkIds.length ? await shopLinksByIds(db, shop, linkIds, { id: true, orderName: true }) : [];
  const names = new Map(links.map((l) => [l.id, l.orderName]));
  return {
    jobs: jobs.map((job) => {
      const linkId = linkIdOf(job);
      const state = job.state as JobState;
      return {
        id: job.id,
        kind: job.kind,
        state,
        attempts: job.attempts,
        maxAttempts: job.maxAttempts,
        lastError: job.lastError,
        runAt: formatSeconds(job.runAt.toISOString()),
        updatedAt: formatSeconds(job.updatedAt.toISOString()),
        orderName: linkId ? (names.get(linkId) ?? null) : null,
        retryable: state === "dead" || state === "failed",
      };
    }),
    nextCursor,
    counts,
  };
}

/** Runs one dead or failed job of the shop again now. JobNotFoundError for another shop's job. */
export async function retryShopJob(db: Db, shop: string, id: string, now = new Date()): Promise<boolean> {
  const job = await db.job.findFirst({ where: { id, shop }, select: { id: true } });
  if (!job) throw new JobNotFoundError(id);
  return retryDeadJob(db, id, { shop, now });
}

/** Runs every dead job of the shop again; how many. */
export async function retryAllDeadJobs(db: Db, shop: string, now = new Date()): Promise<number> {
  return retryJobs(db, { shop, state: "dead", now });
}
