/**
 * Home's to-do inbox: what waits for the merchant now, one group per cause
 * (models/attention), each with its count, the amount to collect at stake, its
 * oldest order's age, and the one link that opens the fix or the filtered list.
 * Sent orders that cost money (cancelled or changed in Shopify while the parcel
 * ships) come first, with the fees at stake (pages/mismatches.server.ts).
 *
 * Bounded at any size: the states' totals come from the (shop, state, updatedAt,
 * cancelledAt, createdAt, totalCents) index alone; the causes inside "held" and
 * "damaged" are read in SQL from the newest SCAN_PER_STATE orders of each; older
 * ones beyond it are one "more" line per state with exact totals.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { attentionCauseSql, CAUSES, NO_CAUSE, WAITING_STATES, type Cause } from "../models/attention";
import { customerHoldReasons } from "../customers/hold-reasons.server";
import { loadMismatches } from "./mismatches.server";

/** Held or damaged orders whose cause is read per request, newest change first. */
export const SCAN_PER_STATE = 2000;
/** Held orders without a finding looked up on the timeline (customer hold or not). */
export const READY_LOOKUP = 500;

export interface InboxTotals {
  count: number;
  amountCents: number;
  /** Of them, orders with no amount to collect in dirhams (paid in another currency): not in amountCents. */
  unknownAmounts?: number;
  /** Age of the oldest order, in minutes (computed on the server: the page shows it as is). */
  oldestMinutes: number;
}

export interface InboxGroup extends InboxTotals {
  cause: Cause;
  /** Where the merchant acts: the order itself when it is the only one, else the fix or the list. */
  href: string;
  /**
   * Sent orders that cost money ("mismatch"): what doing nothing costs instead of an amount to
   * collect (the customer will not pay): the known delivery fees, and how many fees are unknown.
   */
  fees?: { cents: number; unknown: number };
}

export interface InboxRemainder extends InboxTotals {
  state: "held" | "damaged";
  href: string;
}

export interface Inbox {
  groups: InboxGroup[];
  /** Older held or damaged orders beyond the scan, by state. */
  more: InboxRemainder[];
  total: { count: number; amountCents: number };
}

const num = (value: unknown): number =>
  typeof value === "bigint" ? Number(value) : typeof value === "number" ? value : Number(value ?? 0) || 0;
const date = (value: unknown): Date | null => {
  if (value instanceof Date) return value;
  if (typeof value === "string" || typeof value === "number") {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  return null;
};

/** Where a cause's group is fixed: Anomalies shows each cause with its fix. */
export function causeHref(cause: Cause, onlyOrderId: string | null): string {
  if (cause === "mismatch")
    return onlyOrderId ? `/app/orders/${encodeURIComponent(onlyOrderId)}` : "/app/anomalies?cause=mismatch";
  if (onlyOrderId && cause !== "product" && cause !== "city") return `/app/orders/${encodeURIComponent(onlyOrderId)}`;
  return `/app/anomalies?cause=${cause}`;
}

interface Acc {
  count: number;
  amountCents: number;
  unknown: number;
  oldest: Date | null;
  /** One of its orders (the only one when count is 1). */
  anyId: string | null;
}

const emptyAcc = (): Acc => ({ count: 0, amountCents: 0, unknown: 0, oldest: null, anyId: null });
function add(
  acc: Acc,
  count: number,
  amountCents: number,
  oldest: Date | null,
  anyId: string | null = null,
  unknown = 0,
) {
  acc.count += count;
  acc.amountCents += amountCents;
  acc.unknown += unknown;
  if (oldest && (!acc.oldest || oldest < acc.oldest)) acc.oldest = oldest;
  acc.anyId ??= anyId;
}

export async function loadInbox(
  db: Db,
  shop: string,
  options: { now?: Date; scanPerState?: number } = {},
): Promise<Inbox> {
  const now = options.now ?? new Date();
  const scan = options.scanPerState ?? SCAN_PER_STATE;
  const cause = Prisma.raw(attentionCauseSql());
  const newest = (state: string) => Prisma.sql`
    SELECT "id", ${cause} AS "cause", "totalCents", "totalClient", "createdAt" FROM "OrderLink"
    WHERE "shop" = ${shop} AND "state" = ${state} AND "cancelledAt" IS NULL
    ORDER BY "updatedAt" DESC LIMIT ${scan}`;
  const [totals, scanned, mismatches] = await Promise.all([
    // From the index alone: count, amount and oldest order of each waiting state.
    db.orderLink.groupBy({
      by: ["state"],
      where: { shop, state: { in: [...WAITING_STATES] }, cancelledAt: null },
      _count: { _all: true },
      _sum: { totalCents: true },
      _min: { createdAt: true },
    }),
    db.$queryRaw<
      { cause: string; n: unknown; cents: unknown; unknown: unknown; oldest: unknown; state: string; anyId: string }[]
    >`
      SELECT "cause", "state", COUNT(*) AS "n", SUM("totalCents") AS "cents",
        SUM(CASE WHEN "totalClient" IS NULL THEN 1 ELSE 0 END) AS "unknown", MIN("createdAt") AS "oldest", MIN("id") AS "anyId" FROM (
        SELECT 'held' AS "state", "id", "cause", "totalCents", "totalClient", "createdAt" FROM (${newest("held")}) AS "h"
        UNION ALL
        SELECT 'damaged' AS "state", "id", "cause", "totalCents", "totalClient", "createdAt" FROM (${newest("damaged")}) AS "d"
      ) AS "waiting" GROUP BY "cause", "state"`,
    loadMismatches(db, shop),
  ]);

  const byCause = new Map<Cause, Acc>(CAUSES.map((c) => [c, emptyAcc()]));
  const seen = { held: emptyAcc(), damaged: emptyAcc() };
  for (const row of scanned) {
    // Read, but waiting for nobody (a kept duplicate): not a line of its own, not "more" either.
    if (row.state === "held" || row.state === "damaged")
      add(seen[row.state], num(row.n), num(row.cents), date(row.oldest));
    if (row.cause === NO_CAUSE) continue;
    const c = (CAUSES as readonly string[]).includes(row.cause) ? (row.cause as Cause) : "other";
    add(byCause.get(c)!, num(row.n), num(row.cents), date(row.oldest), row.anyId, num(row.unknown));
  }
  const stateTotal = new Map(
    totals.map((t) => [
      t.state,
      { count: t._count._all, amountCents: t._sum.totalCents ?? 0, oldest: t._min.createdAt },
    ]),
  );
  for (const state of ["invalid", "failed"] as const) {
    const t = stateTotal.get(state);
    if (!t) continue;
    const only =
      t.count === 1
        ? await db.orderLink.findFirst({ where: { shop, state, cancelledAt: null }, select: { id: true } })
        : null;
    add(byCause.get(state === "invalid" ? "refused" : "failed")!, t.count, t.amountCents, t.oldest, only?.id ?? null);
  }

  // Held without a finding: the customer hold says so on the timeline.
  const ready = byCause.get("ready")!;
  if (ready.count > 0) {
    const rows = await db.$queryRaw<{ id: string; totalCents: unknown; createdAt: unknown }[]>`
      SELECT "id", "totalCents", "createdAt" FROM "OrderLink"
      WHERE "shop" = ${shop} AND "state" = 'held' AND "cancelledAt" IS NULL AND "findings" NOT LIKE '%"severity":"blocking"%'
      ORDER BY "updatedAt" DESC LIMIT ${Math.min(READY_LOOKUP, ready.count)}`;
    const holds = await customerHoldReasons(
      db,
      shop,
      rows.map((r) => r.id),
    );
    const customer = byCause.get("customer")!;
    const rest = emptyAcc();
    for (const row of rows) {
      if (holds.has(row.id)) add(customer, 1, num(row.totalCents), date(row.createdAt), row.id);
      else rest.anyId ??= row.id;
    }
    // What stays "ready" is the scanned total less the customer holds found.
    add(rest, ready.count - customer.count, ready.amountCents - customer.amountCents, ready.oldest);
    byCause.set("ready", rest);
  }

  const minutes = (oldest: Date | null) =>
    oldest ? Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 60_000)) : 0;
  // First of all: parcels that ship although the order was cancelled, refunded or changed.
  const costing: InboxGroup[] =
    mismatches.count > 0
      ? [
          {
            cause: "mismatch",
            count: mismatches.count,
            amountCents: 0,
            fees: { cents: mismatches.feesCents, unknown: mismatches.unknownFees },
            oldestMinutes: minutes(mismatches.oldest),
            href: causeHref("mismatch", mismatches.count === 1 ? mismatches.orders[0].id : null),
          },
        ]
      : [];
  const groups: InboxGroup[] = CAUSES.flatMap((c) => {
    if (c === "mismatch") return costing;
    const acc = byCause.get(c)!;
    return acc.count > 0
      ? [
          {
            cause: c,
            count: acc.count,
            amountCents: acc.amountCents,
            ...(acc.unknown > 0 ? { unknownAmounts: acc.unknown } : {}),
            oldestMinutes: minutes(acc.oldest),
            href: causeHref(c, acc.count === 1 ? acc.anyId : null),
          },
        ]
      : [];
  });
  const more: InboxRemainder[] = (["held", "damaged"] as const).flatMap((state) => {
    const t = stateTotal.get(state);
    if (!t || t.count <= seen[state].count) return [];
    // The state's oldest order: the scan reads the newest changes, so it is usually among those left.
    return [
      {
        state,
        count: t.count - seen[state].count,
        amountCents: t.amountCents - seen[state].amountCents,
        oldestMinutes: minutes(t.oldest),
        href: `/app/orders?state=${state}`,
      },
    ];
  });
  const all = [...groups, ...more];
  return {
    groups,
    more,
    total: { count: all.reduce((s, g) => s + g.count, 0), amountCents: all.reduce((s, g) => s + g.amountCents, 0) },
  };
}
