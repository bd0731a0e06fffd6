/**
 * The backfill's state, kept in its Job row's payload so the page (and a reload of
 * it) reads the progress of a run that the worker advances page by page. Pure.
 */
import { z } from "zod";
import type { MappingResult } from "../../leads/types";
import { addDays } from "../../analytics/days";

/** ORDERS_PAGE costs about 310 points per order: 3 stay under Shopify's 1000-point query limit. */
export const ORDERS_PER_PAGE = 3;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What the dry run and the run count. */
export const backfillCountsSchema = z.object({
  /** Orders read from Shopify in the range. */
  scanned: z.number().int().default(0),
  /** Mapped to a lead that would be sent now. */
  wouldSend: z.number().int().default(0),
  /**
   * Would be sent, but placed longer ago than the shop's limit (Settings): it waits, flagged,
   * for the merchant's word (models/stale-order.ts).
   */
  wouldWait: z.number().int().default(0),
  /** Mapped, but held for the merchant by the shop's rules. */
  wouldHold: z.number().int().default(0),
  /** The amount to collect of each of those three, in cents. */
  wouldSendCents: z.number().int().default(0),
  wouldWaitCents: z.number().int().default(0),
  wouldHoldCents: z.number().int().default(0),
  /** Not paid in cash on delivery. */
  notCod: z.number().int().default(0),
  /** Skipped for another reason (cancelled, test order, nothing to ship). */
  skipped: z.number().int().default(0),
  /** A lead exists for it already. */
  alreadySent: z.number().int().default(0),
  /** The app knows the order already (received by webhook, held, failed...). */
  alreadyInApp: z.number().int().default(0),
  /** Links created by the run (always 0 in a dry run). */
  created: z.number().int().default(0),
});
export type BackfillCounts = z.infer<typeof backfillCountsSchema>;

/**
 * How far a scan of Shopify's orders got, saved in its job's payload after every page so a
 * reload, a crash or a throttle resumes where it stopped: the backfill's and the
 * reconciliation's (app/sync/reconcile/) alike.
 */
export const scanProgressShape = {
  /** endCursor of the last page done; null before the first. */
  cursor: z.string().nullable().default(null),
  pages: z.number().int().default(0),
  counts: backfillCountsSchema.default({}),
  /** createdAt (backfill) or updatedAt (reconciliation) of the last order read, for the progress estimate. */
  lastOrderAt: z.string().nullable().default(null),
  /** When the oldest order read was placed: how old the import's orders are. */
  oldestOrderAt: z.string().nullable().default(null),
  startedAt: z.string(),
  finishedAt: z.string().nullable().default(null),
  /** Set while the job waits for Shopify's throttle to pass. */
  throttledUntil: z.string().nullable().default(null),
  /** What failed when the last attempt's Shopify call failed (ShopifyFailureKind); cleared by the next page read. */
  shopifyFailure: z.string().nullable().default(null),
};
export type ScanProgress = z.infer<z.ZodObject<typeof scanProgressShape>>;

export const backfillPayloadSchema = z.object({
  from: z.string().regex(DAY),
  to: z.string().regex(DAY),
  dryRun: z.boolean(),
  /** The dry run's total for the same range, when the run follows one. */
  expectedTotal: z.number().int().nullable().default(null),
  ...scanProgressShape,
});
export type BackfillPayload = z.infer<typeof backfillPayloadSchema>;

export type BackfillRangeError = "from_invalid" | "to_invalid" | "range_reversed" | "in_future";

/** A real calendar day, "YYYY-MM-DD". */
export function isDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export function validateRange(from: string, to: string, today: string): BackfillRangeError | null {
  if (!isDay(from)) return "from_invalid";
  if (!isDay(to)) return "to_invalid";
  if (from > to) return "range_reversed";
  if (from > today) return "in_future";
  return null;
}

/**
 * Shopify's search for the days from..to, both included. Shopify reads a bare date as
 * that day's midnight in the shop's time zone, so the end is "before the next day"
 * (`<=to` would leave out most of the last day).
 */
export function ordersQuery(from: string, to: string): string {
  return `created_at:>=${from} created_at:<${addDays(to, 1)}`;
}

export function initialPayload(input: {
  from: string;
  to: string;
  dryRun: boolean;
  expectedTotal?: number | null;
  now: Date;
}): BackfillPayload {
  return backfillPayloadSchema.parse({
    from: input.from,
    to: input.to,
    dryRun: input.dryRun,
    expectedTotal: input.expectedTotal ?? null,
    startedAt: input.now.toISOString(),
  });
}

/** The count of an outcome's amount to collect, when it has one. */
export const CENTS_OF: Partial<Record<OrderOutcome, "wouldSendCents" | "wouldWaitCents" | "wouldHoldCents">> = {
  wouldSend: "wouldSendCents",
  wouldWait: "wouldWaitCents",
  wouldHold: "wouldHoldCents",
};

/** The stored payload, or null when it is not a backfill's. */
export function parsePayload(value: unknown): BackfillPayload | null {
  const parsed = backfillPayloadSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export type OrderOutcome = "wouldSend" | "wouldWait" | "wouldHold" | "notCod" | "skipped";

/** Which count a mapped order adds to; `stale`: placed longer ago than the shop's limit. */
export function outcomeOf(result: Pick<MappingResult, "decision" | "findings">, stale = false): OrderOutcome {
  if (result.decision === "send") return stale ? "wouldWait" : "wouldSend";
  if (result.decision === "hold") return "wouldHold";
  return result.findings.some((f) => f.code === "not_cod") ? "notCod" : "skipped";
}

/**
 * 0..1. With a dry run's total, orders read over that total; otherwise how far the
 * last order read is into the date range (Shopify returns orders oldest first).
 */
export function progressOf(payload: BackfillPayload): number {
  if (payload.finishedAt) return 1;
  const { scanned } = payload.counts;
  if (payload.expectedTotal && payload.expectedTotal > 0) return Math.min(0.99, scanned / payload.expectedTotal);
  if (!payload.lastOrderAt) return 0;
  const start = Date.parse(`${payload.from}T00:00:00Z`);
  const end = Date.parse(`${addDays(payload.to, 1)}T00:00:00Z`);
  const at = Date.parse(payload.lastOrderAt);
  if (!Number.isFinite(at) || end <= start) return 0;
  return Math.min(0.99, Math.max(0, (at - start) / (end - start)));
}
