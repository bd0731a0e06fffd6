/**
 * Fixes release what waits on them. After a SKU mapping, a city alias or a
 * customer decision is saved (from any page), the held orders it may concern
 * are checked again with the shop's current rules: their findings are rewritten
 * at once (no page shows a finding the fix resolved), and the ones nothing holds
 * any more are named, to be sent with one confirmation (sendReleased).
 *
 * Bounded: at most RECHECK_LIMIT orders of the fix's family are read, newest
 * change first. Only orders that have no lead (held, refused, failed) are
 * released: a lead already on the platform is corrected in its seller space,
 * never sent twice by a fix.
 */
import type { OrderLink, Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { fromWebhookOrder, mapOrderToLead, type Finding } from "../leads";
import { rewordLink } from "../models/link-moves.server";
import { totalCentsOf } from "../models/order-amount";
import { FINDING_CAUSES } from "../models/attention";
import { cachedReferenceData } from "./reference-data.server";
import { loadShopRules, mappingContext } from "./mapping-context.server";
import { applyOverrides } from "./post-lead.server";
import { customerHoldReasons } from "../customers/hold-reasons.server";
import { OrderActionError, resendOrder, type Actor } from "./order-actions.server";
import { findingRef, oddsReleasedText, readyAfterFixText, recheckedText } from "../models/order-texts";
import { decideAgain, type OddsPolicy } from "../odds/decision";
import { oddsPolicyOf, releaseOddsHold } from "../customers/delivery-odds.server";
import { readShopSettings } from "../models/shop-settings";
import { FLAG_STALE_APPROVED, isStaleOrder } from "../models/stale-order";
import { formText } from "../http/form";

/** Orders checked again per fix. */
export const RECHECK_LIMIT = 500;
/** Orders without a lead that a fix may free: held, refused by the platform, or failed to send. */
const WAITING_WITHOUT_LEAD = ["held", "invalid", "failed"];

/** What a fix may resolve: product findings (a mapping), city findings (an alias), or one customer's hold (trusted). */
export type FixScope = { kind: "products" } | { kind: "cities" } | { kind: "customer"; phone: string };

export interface ReleasedOrder {
  id: string;
  orderName: string;
  /** The amount to collect, in cents (0 when unknown). */
  amountCents: number;
  /** When it was placed (ISO). */
  placedAt: string;
  /**
   * Placed longer ago than the shop's limit and not approved: sending it leaves it waiting for
   * the merchant's word (post-lead holds it), and the confirmation says so first.
   */
  olderThanLimit: boolean;
}

export interface Release {
  /** Held orders nothing holds any more: sendReleased sends them. */
  orders: ReleasedOrder[];
  /** Orders checked again that something else still holds. */
  stillHeld: number;
  /** The shop's limit, in days (Settings). */
  staleOrderDays: number;
}

type ReleasedRow = Pick<OrderLink, "id" | "orderName" | "createdAt" | "orderCreatedAt" | "flags">;

/** A freed order as the confirmation shows it. */
function releasedOrder(link: ReleasedRow, amountCents: number, now: Date, staleOrderDays: number): ReleasedOrder {
  const placed = link.orderCreatedAt ?? link.createdAt;
  return {
    id: link.id,
    orderName: link.orderName,
    amountCents,
    placedAt: placed.toISOString(),
    olderThanLimit: isStaleOrder(placed, now, staleOrderDays) && !parseFlags(link.flags).includes(FLAG_STALE_APPROVED),
  };
}

function parseFlags(json: string): string[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? value.filter((f): f is string => typeof f === "string") : [];
  } catch {
    return [];
  }
}

/** Findings the mapper cannot recompute without reading other orders: kept as they were. */
const KEPT_CODES = new Set(["possible_duplicate"]);

function parseFindings(json: string): Finding[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as Finding[]) : [];
  } catch {
    return [];
  }
}

const familyCodes = (cause: "product" | "city") => FINDING_CAUSES.find(([c]) => c === cause)![1];

/** Checks the scope's held orders again, rewrites their findings, and names those now free to go. */
export async function recheckHeldOrders(
  db: Db,
  shop: string,
  scope: FixScope,
  options: { now?: Date } = {},
): Promise<Release> {
  const now = options.now ?? new Date();
  const shopRow = await db.shop.findUnique({ where: { domain: shop } });
  const staleOrderDays = readShopSettings(shopRow?.settings).staleOrderDays;
  if (scope.kind === "customer") return releaseCustomer(db, shop, scope.phone, now, staleOrderDays);
  if (!shopRow) return { orders: [], stillHeld: 0, staleOrderDays };
  const codes = familyCodes(scope.kind === "products" ? "product" : "city");
  const links = await db.orderLink.findMany({
    where: {
      shop,
      state: { in: WAITING_WITHOUT_LEAD },
      cancelledAt: null,
      OR: codes.map((code) => ({ findings: { contains: `"code":"${code}"` } })),
    },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: RECHECK_LIMIT,
    select: {
      id: true,
      orderName: true,
      payload: true,
      overrides: true,
      findings: true,
      state: true,
      createdAt: true,
      orderCreatedAt: true,
      flags: true,
    },
  });
  if (links.length === 0) return { orders: [], stillHeld: 0, staleOrderDays };
  const references = cachedReferenceData(shopRow);
  const rules = await loadShopRules(db, shopRow);
  const released: ReleasedOrder[] = [];
  let stillHeld = 0;
  for (const link of links) {
    let result;
    try {
      const order = applyOverrides(fromWebhookOrder(JSON.parse(link.payload)), JSON.parse(link.overrides || "{}"));
      result = mapOrderToLead(order, mappingContext(references, rules, { now, currency: order.currency }));
    } catch {
      // An order the mapper cannot read now was held for it before: left as it is.
      stillHeld++;
      continue;
    }
    const kept = parseFindings(link.findings).filter((f) => f && KEPT_CODES.has(f.code));
    const findings = [...result.findings.filter((f) => !KEPT_CODES.has(f.code)), ...kept];
    const blocked = result.decision !== "send" || kept.some((f) => f.severity === "blocking");
    const json = JSON.stringify(findings);
    if (json !== link.findings) {
      const firstBlocking = findings.find((f) => f.severity === "blocking");
      const blocking = findings.filter((f) => f.severity === "blocking").map((f) => f.code);
      const reworded = await rewordLink(db, {
        link: { id: link.id, shop, state: link.state },
        reason: (firstBlocking && findingRef(firstBlocking)) ?? readyAfterFixText(),
        set: {
          findings: json,
          leadJson: result.lead ? JSON.stringify(result.lead) : null,
          phone: result.phone ?? null,
          cityId: result.city?.id ?? null,
          totalClient: result.totalClient ?? null,
          totalCents: totalCentsOf(result.totalClient),
          productKeys: JSON.stringify(result.productKeys),
        },
        timeline: [
          {
            kind: "rechecked",
            text: recheckedText(blocking),
            data: { findings: findings.map((f) => f.code), blocking },
          },
        ],
        at: now,
      });
      // Moved meanwhile (sent, cancelled): left to that move, neither freed nor still held here.
      if (!reworded) continue;
    }
    if (blocked || result.decision === "skip") stillHeld++;
    else released.push(releasedOrder(link, totalCentsOf(result.totalClient), now, staleOrderDays));
  }
  return { orders: released, stillHeld, staleOrderDays };
}

const hasBlocking = (findings: string) => parseFindings(findings).some((f) => f?.severity === "blocking");

/** The shop's held orders `where` names (newest change first), with the reason of each the customer hold keeps. */
async function heldWithHolds(db: Db, shop: string, where: Prisma.OrderLinkWhereInput) {
  const held = await db.orderLink.findMany({
    where: { ...where, shop, state: "held", cancelledAt: null },
    orderBy: [{ updatedAt: "desc" }],
    take: RECHECK_LIMIT,
    select: {
      id: true,
      orderId: true,
      orderName: true,
      findings: true,
      totalCents: true,
      state: true,
      createdAt: true,
      orderCreatedAt: true,
      flags: true,
    },
  });
  const holds = await customerHoldReasons(
    db,
    shop,
    held.map((l) => l.id),
  );
  return { held, holds };
}

/** A trusted customer: their orders the customer hold kept back, and nothing else holds. */
async function releaseCustomer(
  db: Db,
  shop: string,
  phone: string,
  now: Date,
  staleOrderDays: number,
): Promise<Release> {
  const { held, holds } = await heldWithHolds(db, shop, { phone });
  const orders: ReleasedOrder[] = [];
  let stillHeld = 0;
  for (const link of held) {
    const blocking = hasBlocking(link.findings);
    if (holds.has(link.id) && !blocking) orders.push(releasedOrder(link, link.totalCents, now, staleOrderDays));
    else stillHeld++;
  }
  return { orders, stillHeld, staleOrderDays };
}

/**
 * After the shop's delivery-odds policy changed (Settings): the orders held for their
 * odds alone that the new policy would send, judged on their stored score with the new
 * policy. Their hold ends (a timeline row says so, their reason reads ready to send) and
 * they are named, to be sent on the merchant's confirmation: a setting sends nothing by
 * itself. Orders a finding holds too, or that the new policy still holds, stay as they are.
 */
export async function recheckOddsHolds(
  db: Db,
  shop: string,
  previous: OddsPolicy,
  options: { now?: Date } = {},
): Promise<Release> {
  const now = options.now ?? new Date();
  const shopRow = await db.shop.findUnique({ where: { domain: shop }, select: { settings: true } });
  const settings = readShopSettings(shopRow?.settings);
  const policy = oddsPolicyOf(settings);
  const scores = await db.orderOdds.findMany({
    where: { shop, held: true },
    orderBy: { scoredAt: "desc" },
    take: RECHECK_LIMIT,
    select: { linkId: true, probability: true, marginCents: true, lossCents: true },
  });
  const { held: links, holds } = await heldWithHolds(db, shop, { id: { in: scores.map((o) => o.linkId) } });
  const scoreOf = new Map(scores.map((o) => [o.linkId, o]));
  const orders: ReleasedOrder[] = [];
  let stillHeld = 0;
  for (const link of links) {
    const hold = holds.get(link.id);
    const score = scoreOf.get(link.id)!;
    const byOdds = hold !== undefined && "reason" in hold && hold.reason.code === "delivery_odds";
    if (!byOdds || hasBlocking(link.findings) || decideAgain(score, previous, policy).hold) {
      stillHeld++;
      continue;
    }
    const text = oddsReleasedText(Math.round(score.probability * 100));
    const released = await db.$transaction(async (tx: Prisma.TransactionClient) => {
      const reworded = await rewordLink(tx, {
        link: { id: link.id, shop, state: link.state },
        reason: text,
        timeline: [{ kind: "odds_released", text, data: { policy: policy.policy } }],
        at: now,
      });
      if (reworded) await releaseOddsHold(tx, shop, link, now);
      return reworded;
    });
    // Moved meanwhile: left to that move.
    if (!released) continue;
    orders.push(releasedOrder(link, link.totalCents, now, settings.staleOrderDays));
  }
  return { orders, stillHeld, staleOrderDays: settings.staleOrderDays };
}

/** What a release's confirmation posts: the freed orders' ids and the count it stated. */
export function confirmedRelease(form: FormData): { ids: string[]; count: number | undefined } {
  const field = (name: string) => formText(form, name) ?? "";
  const count = Number(field("count"));
  return {
    ids: field("ids").split(",").filter(Boolean),
    count: Number.isInteger(count) && count > 0 ? count : undefined,
  };
}

/** More than one freed order, and the confirmation that states how many, how old and how much did not come with them. */
export class ReleaseNotConfirmedError extends OrderActionError {
  constructor(readonly count: number) {
    super(409, `${count} freed orders are sent only on the confirmation that states them`);
    this.name = "ReleaseNotConfirmedError";
  }
}

/**
 * Sends the released orders the merchant confirmed: those still waiting without a lead (none of
 * another shop); the rest are counted as skipped. More than one goes only with `confirmedCount`,
 * the count the confirmation stated; those older than the shop's limit are then held for the
 * merchant's word (post-lead), as the confirmation said.
 */
export async function sendReleased(
  db: Db,
  shop: string,
  linkIds: readonly string[],
  actor: Actor,
  confirmedCount?: number,
): Promise<{ sent: number; skipped: number }> {
  const ids = [...new Set(linkIds)].slice(0, RECHECK_LIMIT);
  if (ids.length > 1 && confirmedCount !== ids.length) throw new ReleaseNotConfirmedError(ids.length);
  const held = await db.orderLink.findMany({
    where: { shop, id: { in: ids }, state: { in: WAITING_WITHOUT_LEAD }, cancelledAt: null },
    select: { id: true },
  });
  let sent = 0;
  for (const { id } of held) {
    try {
      await resendOrder(db, shop, id, actor);
      sent++;
    } catch (error) {
      if (!(error instanceof OrderActionError)) throw error;
    }
  }
  return { sent, skipped: ids.length - sent };
}
