/**
 * What a merchant can do to an order from the admin or the order page:
 * resend after a fix (a second lead only when confirmed), override a field for
 * this order, send despite the customer hold, block or trust the customer, and
 * decide about a lead the platform flagged as a duplicate. Fixes that free many
 * orders at once live in release-held.server.ts. Every call is scoped to the
 * shop; a link of another shop is "not found".
 */
import type { OrderLink } from "@prisma/client";
import type { Db } from "../db.server";
import { enqueueJob } from "../queue/jobs.server";
import { MAX_FIELD_CHARS } from "../leads/field-limits";
import { MAX_PHONE_CHARS } from "../leads/phone";
import { addTimeline, type TimelineEntry } from "../models/timeline.server";
import { moveLink } from "../models/link-moves.server";
import {
  cancelledAsDuplicateText,
  correctedText,
  duplicateKeptText,
  resentSecondLeadText,
  resentText,
  settledText,
  staleSentText,
} from "../models/order-texts";
import { ageInDays, FLAG_STALE_APPROVED, STALE_REASON_PREFIX } from "../models/stale-order";
import { sentAnywayText, standingText } from "../customers/hold-reason";
import { isLinkState, type LinkState } from "../models/order-link-state";
import { setStanding } from "../customers/records.server";
import { customerHoldReasons } from "../customers/hold-reasons.server";
import { releaseOddsHold } from "../customers/delivery-odds.server";
import { FLAG_CUSTOMER_HOLD_WAIVED, type Standing } from "../customers/risk";
import { postLeadJobFor } from "../models/job-kinds";
import { FLAG_DUPLICATE_KEPT } from "../models/next-action";
import { ANOMALY_CODES, isKnownAnomaly } from "../models/anomaly-codes";
import { ORDER_CANCEL } from "../shopify/documents";
import { PAGE_CALL, runAdminGraphql, type AdminGraphqlClient } from "../shopify/admin-graphql.server";

export class OrderActionError extends Error {
  constructor(
    readonly status: 404 | 409 | 422,
    message: string,
  ) {
    super(message);
    this.name = "OrderActionError";
  }
}

/** A corrected field longer than any real one: refused, never cut or parsed. */
export class FieldTooLongError extends OrderActionError {
  constructor(
    readonly field: string,
    readonly max: number,
  ) {
    super(422, `${field} is longer than ${max} characters`);
    this.name = "FieldTooLongError";
  }
}

/** States from which a merchant may send (again). In flight ("posting") is not one of them. */
const RESENDABLE: readonly LinkState[] = [
  "received",
  "held",
  "invalid",
  "failed",
  "skipped",
  "retrying",
  "created",
  "damaged",
];

export interface Actor {
  /** Who asked (staff email or "merchant"), recorded with the resend. */
  by: string;
  now?: Date;
  /**
   * The merchant confirmed that sending an order whose lead exists makes a second
   * lead on the platform (the API can neither edit nor cancel the first one).
   */
  secondLead?: boolean;
  /**
   * The merchant confirmed sending it although it was placed longer ago than the shop's
   * limit, in a confirmation that said how old it is (models/stale-order.ts).
   */
  sendStale?: boolean;
}

/** Sending again would make a second lead, and the merchant did not confirm it. */
export class SecondLeadError extends OrderActionError {
  constructor(readonly leadRef: string) {
    super(409, `lead ${leadRef} exists on the platform: sending again makes a second lead`);
    this.name = "SecondLeadError";
  }
}

/** The order's lead exists on the platform (created, or stored as damaged). */
const hasLead = (link: Pick<OrderLink, "state" | "leadRef">) =>
  link.leadRef !== null && (link.state === "created" || link.state === "damaged");

async function linkOf(db: Db, shop: string, linkId: string): Promise<OrderLink> {
  const link = await db.orderLink.findFirst({ where: { id: linkId, shop } });
  if (!link) throw new OrderActionError(404, "order not found");
  return link;
}

/** Sends the order again after a fix: back to `received` and queued, recording who and when. */
export async function resendOrder(db: Db, shop: string, linkId: string, actor: Actor): Promise<OrderLink> {
  const link = await linkOf(db, shop, linkId);
  const state = isLinkState(link.state) ? link.state : "received";
  if (link.cancelledAt) throw new OrderActionError(409, "this order was cancelled in Shopify");
  if (!RESENDABLE.includes(state)) throw new OrderActionError(409, `this order cannot be sent while it is ${state}`);
  const secondLead = hasLead(link);
  if (secondLead && !actor.secondLead) throw new SecondLeadError(link.leadRef!);
  const now = actor.now ?? new Date();
  const heldAsStale = link.state === "held" && (link.reason ?? "").startsWith(STALE_REASON_PREFIX);
  const flags = new Set(parseFlags(link.flags));
  if (actor.sendStale) flags.add(FLAG_STALE_APPROVED);
  const timeline: TimelineEntry[] = [
    ...(actor.sendStale && heldAsStale
      ? [
          {
            kind: "send_anyway" as const,
            text: staleSentText(actor.by, ageInDays(link.orderCreatedAt ?? link.createdAt, now)),
            at: now,
          },
        ]
      : []),
    secondLead
      ? {
          kind: "resend_second_lead",
          text: resentSecondLeadText(actor.by, link.leadRef),
          data: { previousRef: link.leadRef },
          at: now,
        }
      : { kind: "resend", text: resentText(actor.by, link.leadRef), at: now },
  ];
  return db.$transaction(async (tx) => {
    const moved = await moveLink(tx, {
      link: { ...link, state },
      to: "received",
      reason: null,
      set: { resendBy: actor.by, resendAt: now, ...(actor.sendStale ? { flags: JSON.stringify([...flags]) } : {}) },
      timeline,
      at: new Date(),
      eventAt: now,
    });
    if (!moved) throw new OrderActionError(409, "this order changed meanwhile: look at it again");
    await enqueueJob(tx, postLeadJobFor(shop, link.orderId, link.id));
    return tx.orderLink.findUniqueOrThrow({ where: { id: link.id } });
  });
}

/**
 * "Send anyway": the merchant sends an order its customer's record held. The
 * waiver stays on this order only (a later order of the same customer is
 * checked again); recorded on the timeline with who decided.
 */
export async function sendAnyway(db: Db, shop: string, linkId: string, actor: Actor): Promise<OrderLink> {
  const link = await linkOf(db, shop, linkId);
  if (link.state !== "held") throw new OrderActionError(409, "only a held order can be sent anyway");
  const flags = new Set(parseFlags(link.flags));
  flags.add(FLAG_CUSTOMER_HOLD_WAIVED);
  await db.orderLink.update({ where: { id: link.id }, data: { flags: JSON.stringify([...flags]) } });
  const view = (await customerHoldReasons(db, shop, [link.id])).get(link.id);
  const reason = view && "reason" in view ? view.reason : null;
  await db.$transaction(async (tx) => {
    await addTimeline(tx, shop, link.id, {
      kind: "send_anyway",
      text: sentAnywayText(actor.by, reason),
      data: { reason },
      at: actor.now,
    });
    // Held for its odds: Shopify's risk card stops reading high now, whatever the sending does next.
    if (reason?.code === "delivery_odds") await releaseOddsHold(tx, shop, link, actor.now ?? new Date());
  });
  return resendOrder(db, shop, linkId, actor);
}

/**
 * The merchant stopped or corrected, in the platform's seller space, a lead that Shopify
 * cancelled, refunded or changed after sending: the disagreement is settled, recorded on
 * the order's timeline. Nothing is sent anywhere (the API can neither cancel nor edit a lead).
 */
export async function settleMismatch(db: Db, shop: string, linkId: string, actor: Actor): Promise<void> {
  const link = await linkOf(db, shop, linkId);
  if (link.mismatch === null) throw new OrderActionError(409, "Shopify and the platform agree about this order");
  await db.$transaction(async (tx) => {
    await tx.orderLink.update({ where: { id: link.id }, data: { mismatch: null } });
    await addTimeline(tx, shop, link.id, {
      kind: "fixed",
      text: settledText(actor.by, link.leadRef),
      data: { mismatch: link.mismatch },
      at: actor.now,
    });
  });
}

/**
 * Blocks, trusts or clears the phone of an order's customer (from its Customer
 * card); recorded on that order's timeline. A blocked phone holds its next orders
 * while the hold rule is on; a trusted one is never held.
 */
export async function setOrderCustomerStanding(
  db: Db,
  shop: string,
  linkId: string,
  standing: Standing | null,
  actor: Actor,
): Promise<void> {
  const link = await linkOf(db, shop, linkId);
  if (!link.phone) throw new OrderActionError(422, "this order has no valid phone number to block or trust");
  await setStanding(db, shop, link.phone, standing);
  await addTimeline(db, shop, link.id, {
    kind: "customer_standing",
    text: standingText(standing),
    data: { standing },
    at: actor.now,
  });
}

function parseFlags(json: string): string[] {
  try {
    const flags: unknown = JSON.parse(json);
    return Array.isArray(flags) ? flags.filter((f): f is string => typeof f === "string") : [];
  } catch {
    return [];
  }
}

export interface OrderOverrides {
  phone?: string;
  address?: string;
  city?: string;
  name?: string;
}

/** The longest text a merchant may type for each field of an order. */
export const MAX_OVERRIDE_CHARS: Readonly<Record<keyof OrderOverrides, number>> = {
  phone: MAX_PHONE_CHARS,
  address: MAX_FIELD_CHARS,
  city: MAX_FIELD_CHARS,
  name: MAX_FIELD_CHARS,
};

/** Throws FieldTooLongError for the first field over its bound (checked before any parsing). */
export function assertOverrideLengths(input: Partial<Record<keyof OrderOverrides, unknown>>): void {
  for (const field of Object.keys(MAX_OVERRIDE_CHARS) as (keyof OrderOverrides)[]) {
    const value = input[field];
    if (typeof value === "string" && value.length > MAX_OVERRIDE_CHARS[field])
      throw new FieldTooLongError(field, MAX_OVERRIDE_CHARS[field]);
  }
}

/** Overrides fields for this order only (the Shopify order is not changed); the caller may then resend. */
export async function setOrderOverrides(
  db: Db,
  shop: string,
  linkId: string,
  overrides: OrderOverrides,
  actor: Actor,
): Promise<OrderLink> {
  assertOverrideLengths(overrides);
  const link = await linkOf(db, shop, linkId);
  const clean = Object.fromEntries(
    Object.entries(overrides)
      .filter(([, v]) => typeof v === "string" && v.trim() !== "")
      .map(([k, v]) => [k, (v as string).trim()]),
  );
  const merged = { ...(JSON.parse(link.overrides) as OrderOverrides), ...clean };
  const updated = await db.orderLink.update({ where: { id: link.id }, data: { overrides: JSON.stringify(merged) } });
  await addTimeline(db, shop, link.id, { kind: "fixed", text: correctedText(actor.by, Object.keys(clean)) });
  return updated;
}

/** A stored lead's anomaly codes. */
function anomalyCodes(json: string): string[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value)
      ? value.flatMap((a) => (typeof a === "string" ? [a] : a && typeof a.code === "string" ? [a.code] : []))
      : [];
  } catch {
    return [];
  }
}

const isDuplicateLead = (link: OrderLink) =>
  link.state === "damaged" &&
  anomalyCodes(link.anomalies).some((code) => isKnownAnomaly(code) && ANOMALY_CODES[code].fix === "decideDuplicate");

/**
 * "Keep both": the merchant decided a lead the platform flagged as a recent
 * duplicate is a real second order. It leaves the to-do list; the platform may
 * still wait for the same answer in its seller space.
 */
export async function keepDuplicate(db: Db, shop: string, linkId: string, actor: Actor): Promise<void> {
  const link = await linkOf(db, shop, linkId);
  if (!isDuplicateLead(link))
    throw new OrderActionError(409, "only a lead the platform flagged as a duplicate can be kept as it is");
  const flags = new Set(parseFlags(link.flags));
  flags.add(FLAG_DUPLICATE_KEPT);
  await db.$transaction(async (tx) => {
    await tx.orderLink.update({ where: { id: link.id }, data: { flags: JSON.stringify([...flags]) } });
    await addTimeline(tx, shop, link.id, { kind: "duplicate_kept", text: duplicateKeptText(actor.by), at: actor.now });
  });
}

/**
 * "Cancel this one in Shopify": cancels the duplicate order in Shopify (restocked,
 * not refunded: nothing was paid, customer not notified). Its lead stays on the
 * platform: only the seller space can cancel a lead.
 */
export async function cancelDuplicateInShopify(
  db: Db,
  admin: AdminGraphqlClient,
  shop: string,
  linkId: string,
  actor: Actor,
): Promise<void> {
  const link = await linkOf(db, shop, linkId);
  if (!isDuplicateLead(link))
    throw new OrderActionError(409, "only a lead the platform flagged as a duplicate is cancelled from here");
  if (link.cancelledAt) throw new OrderActionError(409, "this order was cancelled in Shopify already");
  const data = await runAdminGraphql<{ orderCancel: { orderCancelUserErrors: { message: string }[] } | null }>(
    admin,
    ORDER_CANCEL,
    {
      orderId: `gid://shopify/Order/${link.orderId}`,
      reason: "OTHER",
      restock: true,
      refundMethod: { originalPaymentMethodsRefund: false },
      notifyCustomer: false,
      staffNote: `Duplicate of lead ${duplicateOfRef(link) ?? "on the COD platform"} (COD Lead Sync)`,
    },
    PAGE_CALL,
  );
  const refused = data.orderCancel?.orderCancelUserErrors ?? [];
  if (refused.length > 0)
    throw new OrderActionError(422, `Shopify refused to cancel the order: ${refused.map((e) => e.message).join("; ")}`);
  const now = actor.now ?? new Date();
  await db.$transaction(async (tx) => {
    await tx.orderLink.update({ where: { id: link.id }, data: { cancelledAt: now } });
    await addTimeline(tx, shop, link.id, {
      kind: "cancelled_in_shopify",
      text: cancelledAsDuplicateText(actor.by, link.leadRef),
      data: { leadRef: link.leadRef, duplicateOf: duplicateOfRef(link) },
      at: now,
    });
  });
}

/** The earlier lead a recent duplicate repeats, when the platform named it. */
export function duplicateOfRef(link: Pick<OrderLink, "anomalies">): string | null {
  try {
    const value = JSON.parse(link.anomalies) as unknown;
    if (!Array.isArray(value)) return null;
    for (const a of value) if (a && typeof a.duplicateOf === "string" && a.duplicateOf) return a.duplicateOf;
  } catch {
    // unreadable anomalies name nothing
  }
  return null;
}
