/**
 * What a merchant can do to an order from the admin or the order page:
 * resend after a fix, override a field for this order, and fix a cause once
 * for every order it blocks (SKU mapping, city alias). Every call is scoped to
 * the shop; a link of another shop is "not found".
 */
import type { OrderLink } from "@prisma/client";
import type { Db } from "../db.server";
import { enqueueJob } from "../queue/jobs.server";
import { normalizeCityKey, normalizeSku, type Finding, type SkuMappingTarget } from "../leads";
import { MAX_FIELD_CHARS } from "../leads/field-limits";
import { MAX_PHONE_CHARS } from "../leads/phone";
import { saveCityAlias } from "../models/city-alias.server";
import { upsertSkuMapping } from "../models/sku-mapping.server";
import { addTimeline, reasonFields } from "../models/timeline.server";
import { correctedText, resentText } from "../models/order-texts";
import { sentAnywayText, standingText } from "../customers/hold-reason";
import { isLinkState, type LinkState } from "../models/order-link-state";
import { applyLeadEvents } from "./lead-events.server";
import { setStanding } from "../customers/records.server";
import { customerHoldReasons } from "../customers/hold-reasons.server";
import { FLAG_CUSTOMER_HOLD_WAIVED, type Standing } from "../customers/risk";
import { postLeadJobKey, POST_LEAD_JOB } from "../models/job-kinds";
import { snapshotOf } from "../models/lead-events";

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
const RESENDABLE: readonly LinkState[] = ["received", "held", "invalid", "failed", "skipped", "retrying", "created", "damaged"];

export interface Actor {
  /** Who asked (staff email or "merchant"), recorded with the resend. */
  by: string;
  now?: Date;
}

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
  const now = actor.now ?? new Date();
  return db.$transaction(async (tx) => {
    const updated = await tx.orderLink.update({
      where: { id: link.id },
      data: { state: "received", ...reasonFields(null), resendBy: actor.by, resendAt: now },
    });
    await applyLeadEvents(tx, shop, [{ linkId: link.id, kind: "reopened", before: snapshotOf(link), after: { ...snapshotOf(link), state: "received" }, at: now }]);
    await enqueueJob(tx, { kind: POST_LEAD_JOB, key: postLeadJobKey(shop, link.orderId), shop, payload: { linkId: link.id } });
    await addTimeline(tx, shop, link.id, { kind: "resend", text: resentText(actor.by, link.leadRef), at: now });
    return updated;
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
  await addTimeline(db, shop, link.id, { kind: "send_anyway", text: sentAnywayText(actor.by, reason), data: { reason }, at: actor.now });
  return resendOrder(db, shop, linkId, actor);
}

/**
 * Blocks, trusts or clears the phone of an order's customer (from its Customer
 * card); recorded on that order's timeline. A blocked phone holds its next orders
 * while the hold rule is on; a trusted one is never held.
 */
export async function setOrderCustomerStanding(db: Db, shop: string, linkId: string, standing: Standing | null, actor: Actor): Promise<void> {
  const link = await linkOf(db, shop, linkId);
  if (!link.phone) throw new OrderActionError(422, "this order has no valid phone number to block or trust");
  await setStanding(db, shop, link.phone, standing);
  await addTimeline(db, shop, link.id, { kind: "customer_standing", text: standingText(standing), data: { standing }, at: actor.now });
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
    if (typeof value === "string" && value.length > MAX_OVERRIDE_CHARS[field]) throw new FieldTooLongError(field, MAX_OVERRIDE_CHARS[field]);
  }
}

/** Overrides fields for this order only (the Shopify order is not changed); the caller may then resend. */
export async function setOrderOverrides(db: Db, shop: string, linkId: string, overrides: OrderOverrides, actor: Actor): Promise<OrderLink> {
  assertOverrideLengths(overrides);
  const link = await linkOf(db, shop, linkId);
  const clean = Object.fromEntries(
    Object.entries(overrides).filter(([, v]) => typeof v === "string" && v.trim() !== "").map(([k, v]) => [k, (v as string).trim()]),
  );
  const merged = { ...(JSON.parse(link.overrides) as OrderOverrides), ...clean };
  const updated = await db.orderLink.update({ where: { id: link.id }, data: { overrides: JSON.stringify(merged) } });
  await addTimeline(db, shop, link.id, { kind: "fixed", text: correctedText(actor.by, Object.keys(clean)) });
  return updated;
}

const BLOCKED_STATES: LinkState[] = ["held", "invalid", "failed", "damaged"];

function findingsOf(link: OrderLink): Finding[] {
  try {
    return JSON.parse(link.findings) as Finding[];
  } catch {
    return [];
  }
}

/** Orders held, refused or damaged because of this Shopify SKU. */
export async function ordersBlockedBySku(db: Db, shop: string, sku: string): Promise<OrderLink[]> {
  const key = normalizeSku(sku);
  const links = await db.orderLink.findMany({ where: { shop, state: { in: BLOCKED_STATES }, cancelledAt: null } });
  return links.filter((l) =>
    findingsOf(l).some((f) => (f.code === "sku_unmatched" || f.code === "sku_missing") && typeof f.params.sku === "string" && normalizeSku(f.params.sku) === key),
  );
}

/** Orders held, refused or damaged because this city spelling was not recognised. */
export async function ordersBlockedByCity(db: Db, shop: string, spelling: string): Promise<OrderLink[]> {
  const key = normalizeCityKey(spelling);
  const links = await db.orderLink.findMany({ where: { shop, state: { in: BLOCKED_STATES }, cancelledAt: null } });
  return links.filter((l) =>
    findingsOf(l).some((f) => (f.code === "city_unmatched" || f.code === "city_missing") && typeof f.params.input === "string" && normalizeCityKey(f.params.input) === key),
  );
}

/** One fix for a group: map the Shopify SKU to platform items, then resend every order it unblocks. */
export async function fixUnknownSku(
  db: Db,
  shop: string,
  input: { sku: string; targets: SkuMappingTarget[]; label?: string },
  actor: Actor,
): Promise<{ resent: number }> {
  await upsertSkuMapping(db, shop, { sourceKind: "sku", sourceKey: input.sku, targets: input.targets, label: input.label });
  const blocked = await ordersBlockedBySku(db, shop, input.sku);
  for (const link of blocked) await resendOrder(db, shop, link.id, actor);
  return { resent: blocked.length };
}

/** One fix for a group: learn the spelling as the shop's alias of a city, then resend every order it unblocks. */
export async function fixUnknownCity(
  db: Db,
  shop: string,
  input: { spelling: string; cityId: number },
  actor: Actor,
): Promise<{ resent: number }> {
  await saveCityAlias(db, shop, { alias: input.spelling, cityId: input.cityId, source: "learned" });
  const blocked = await ordersBlockedByCity(db, shop, input.spelling);
  for (const link of blocked) await resendOrder(db, shop, link.id, actor);
  return { resent: blocked.length };
}
