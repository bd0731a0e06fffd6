import type { Prisma } from "@prisma/client";
import type { Db } from "../db.server";

type Writer = Db | Prisma.TransactionClient;

export type TimelineKind =
  | "received"
  | "updated"
  | "mapped"
  | "held"
  | "skipped"
  | "posted"
  | "answered"
  | "retrying"
  | "failed"
  | "status_changed"
  | "written_back"
  | "flow"
  | "cancelled"
  | "resend"
  | "fixed"
  | "redacted"
  | "customer_hold"
  | "send_anyway"
  | "customer_standing"
  | "rechecked"
  | "resend_second_lead"
  | "duplicate_kept"
  | "cancelled_in_shopify"
  // The reconciliation took in an order whose webhook never came, or applied a change it missed.
  | "recovered"
  | "reconciled";

export interface TimelineEntry {
  kind: TimelineKind;
  message: string;
  data?: unknown;
  at?: Date;
}

/** One row per step of an order's life, with its exact time. */
export async function addTimeline(db: Writer, shop: string, linkId: string, entry: TimelineEntry): Promise<void> {
  await db.timelineEvent.create({
    data: {
      shop,
      linkId,
      kind: entry.kind,
      message: entry.message,
      data: entry.data === undefined ? null : JSON.stringify(entry.data),
      at: entry.at ?? new Date(),
    },
  });
}

export async function listTimeline(db: Db, shop: string, linkId: string) {
  const rows = await db.timelineEvent.findMany({ where: { shop, linkId }, orderBy: [{ at: "asc" }, { id: "asc" }] });
  return rows.map((row) => ({ ...row, data: row.data ? (JSON.parse(row.data) as unknown) : undefined }));
}
