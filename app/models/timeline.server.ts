import type { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { english, isMessageKey } from "../i18n";
import { readMessageRef, type MessageRef } from "../i18n/message-ref";
import { newId, sqlOf, rowsOf, statementsByCount, type BatchItem, type SqlSource } from "../db/sql";

type Writer = Db | Prisma.TransactionClient;

/** Every step an order's timeline records; each is named by `timeline.<kind>` in the catalogues. */
export const TIMELINE_KINDS = [
  "received",
  // An imported order: when it was placed in Shopify, then when an import of past orders took it in.
  "placed",
  "imported",
  "updated",
  "mapped",
  "held",
  "skipped",
  "posted",
  "answered",
  "retrying",
  "failed",
  "status_changed",
  "written_back",
  "flow",
  "cancelled",
  "resend",
  "fixed",
  "redacted",
  "customer_hold",
  "send_anyway",
  // The shop's delivery-odds policy changed and no longer holds the order: its hold ends, unsent.
  "odds_released",
  "customer_standing",
  "rechecked",
  "resend_second_lead",
  "duplicate_kept",
  "cancelled_in_shopify",
  // The reconciliation took in an order whose webhook never came, or applied a change it missed.
  "recovered",
  "reconciled",
  // The order's delivery odds written to its Shopify risk card.
  "risk_assessed",
  // The conversion feed told an ad platform of the order's outcome, or the platform refused it.
  "ad_feed",
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export interface TimelineEntry {
  kind: TimelineKind;
  /** What happened, as a catalogue reference (app/models/order-texts.ts); its English is stored beside it. */
  text: MessageRef;
  data?: unknown;
  at?: Date;
}

/** The row of one step, for a create, a createMany or the prepared inserts below. */
export function timelineRow(shop: string, linkId: string, entry: TimelineEntry): TimelineRow {
  return {
    shop,
    linkId,
    kind: entry.kind,
    message: english(entry.text),
    text: JSON.stringify(entry.text),
    data: entry.data === undefined ? null : JSON.stringify(entry.data),
    at: entry.at ?? new Date(),
  };
}

/** One row per step of an order's life, with its exact time. */
export async function addTimeline(db: Writer, shop: string, linkId: string, entry: TimelineEntry): Promise<void> {
  await db.timelineEvent.create({ data: timelineRow(shop, linkId, entry) });
}

/** An order's reason for stopping, as the link stores it: English, and the reference pages render. */
export function reasonFields(reason: MessageRef | null): { reason: string | null; reasonText: string | null } {
  return reason ? { reason: english(reason), reasonText: JSON.stringify(reason) } : { reason: null, reasonText: null };
}

export interface TimelineRow {
  shop: string;
  linkId: string;
  kind: TimelineKind;
  /** The English of `text`. */
  message: string;
  /** The sentence as a catalogue reference (JSON of a MessageRef). */
  text: string | null;
  /** JSON text, or null. */
  data: string | null;
  at: Date;
}

const ROWS_PER_INSERT = 100;
const insertRows = statementsByCount(
  (count) =>
    `INSERT INTO "TimelineEvent" ("id", "shop", "linkId", "kind", "message", "text", "data", "at") VALUES ${rowsOf("(?, ?, ?, ?, ?, ?, ?, ?)", count)}`,
);

/** The inserts of these rows, one prepared statement per 100, for a caller's batch of writes. */
export function timelineItems(rows: readonly TimelineRow[]): BatchItem[] {
  const items: BatchItem[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const page = rows.slice(i, i + ROWS_PER_INSERT);
    items.push({
      statement: insertRows(page.length),
      params: page.flatMap((r) => [newId(), r.shop, r.linkId, r.kind, r.message, r.text, r.data, r.at]),
    });
  }
  return items;
}

/** Many rows in one prepared statement per 100 (the pipeline's hot paths), in the caller's transaction when given one. */
export async function addTimelineRows(db: SqlSource, rows: readonly TimelineRow[]): Promise<void> {
  const sql = sqlOf(db);
  for (const item of timelineItems(rows)) await sql.run(item.statement, item.params);
}

export async function listTimeline(db: Db, shop: string, linkId: string) {
  const rows = await db.timelineEvent.findMany({ where: { shop, linkId }, orderBy: [{ at: "asc" }, { id: "asc" }] });
  return rows.map((row) => ({
    ...row,
    data: row.data ? (JSON.parse(row.data) as unknown) : undefined,
    // Rows written before references, or naming a key this build lacks, show their stored English.
    text: readMessageRef(row.text, isMessageKey),
  }));
}
