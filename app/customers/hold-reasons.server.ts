/**
 * Which orders the customer hold keeps back, and why: read from their timeline
 * (the hold's row carries the structured reason; a resend or "send anyway"
 * after it ends it). One indexed read per 500 links.
 */
import type { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { holdReasonOfData, type HoldReasonView } from "./hold-reason";

/** Steps that start or end a customer hold. */
const HOLD_STEPS = ["customer_hold", "send_anyway", "resend", "odds_released"];
const PAGE = 500;

/**
 * The hold reason of each link whose last hold step is a customer hold (the
 * caller checks the link is still held). Rows written before the reason was
 * stored as data give their English message.
 */
export async function customerHoldReasons(
  db: Db | Prisma.TransactionClient,
  shop: string,
  linkIds: readonly string[],
): Promise<Map<string, HoldReasonView>> {
  const last = new Map<string, { kind: string; message: string; data: string | null }>();
  for (let i = 0; i < linkIds.length; i += PAGE) {
    // Each link's few rows through (shop, linkId, at), sorted here.
    const rows = await db.timelineEvent.findMany({
      where: { shop, linkId: { in: linkIds.slice(i, i + PAGE) }, kind: { in: HOLD_STEPS } },
      select: { id: true, at: true, linkId: true, kind: true, message: true, data: true },
    });
    rows.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const row of rows) last.set(row.linkId, row);
  }
  const reasons = new Map<string, HoldReasonView>();
  for (const [linkId, row] of last) {
    if (row.kind !== "customer_hold") continue;
    const reason = holdReasonOfData(parseJson(row.data));
    reasons.set(linkId, reason ? { reason } : { text: row.message });
  }
  return reasons;
}

function parseJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
