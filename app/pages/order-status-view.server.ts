/**
 * What the order-page extensions see of an order's lead: its state, statuses,
 * findings and anomalies, and whether it can be sent from there. Scoped to the
 * shop. Never the API key, the lead JSON, the raw payload or the customer's
 * name / phone / address: finding params are whitelisted per code, and free
 * texts (reason, messages) have any personal value masked. The customer's
 * delivery record is given as counts, its risk and last outcome only.
 */
import type { CustomerRecord, OrderLink } from "@prisma/client";
import type { Db } from "../db.server";
import { OrderActionError, resendOrder, sendAnyway, type Actor } from "../sync/order-actions.server";
import { customerHoldReasons } from "../customers/hold-reasons.server";
import type { HoldReason, HoldReasonView } from "../customers/hold-reason";
import { DELIVERY_OUTCOMES, type DeliveryOutcome } from "../customers/outcome";
import { riskLevel, type RiskLevel } from "../customers/risk";
import { NOTHING_COUNTED } from "../customers/record";
import { isLinkState, type LinkState } from "../models/order-link-state";
import { stageOf, type Stage } from "../models/order-stage";
import { FLAG_DUPLICATE_KEPT, nextActionOf, type NextActionKind } from "../models/next-action";
import { readShopSettings } from "../models/shop-settings";
import { formatterFor, isMessageKey, t, type CurrencyLabel, type Locale } from "../i18n";
import { readMessageRef, renderMessage } from "../i18n/message-ref";

export interface OrderStatusFinding {
  code: string;
  severity: "blocking" | "warning";
  /** Plain English from the mapper, personal values masked. */
  message: string;
  /** Only the params the extension's translations use, never personal ones. */
  params: Record<string, string | number>;
}

export interface OrderStatusAnomaly {
  code: string;
  message: string;
}

export interface LinkStatusView {
  state: LinkState;
  /** Plain English, personal values masked. */
  reason: string | null;
  /** The same reason in the language the extension asked for (from the catalogue), when stored as a sentence. */
  reasonText: string | null;
  /** How the shop writes dirhams ("MAD" or "DH", Settings). */
  currency: CurrencyLabel;
  leadRef: string | null;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  trackingNumber: string | null;
  /** ISO time of the last step of the order's life (timeline), else of the link's last update. */
  lastChangeAt: string;
  findings: OrderStatusFinding[];
  anomalies: OrderStatusAnomaly[];
  canSend: boolean;
  sendLabel: "send" | "resend" | null;
  /** The app's page for this order, where findings are fixed. */
  fixUrl: string;
  /** The delivery record of the order's customer (counts only: never the phone); null without a valid phone. */
  customer: CustomerStatusView | null;
  /** Why the customer hold keeps the order back, as data the extension translates; null when it does not. */
  hold: HoldReason | null;
  /** Where the order stands and what it asks of the merchant, as the app's pages say (models/order-stage, models/next-action). */
  stage: Stage;
  nextAction: NextActionKind;
}

export interface CustomerStatusView {
  risk: RiskLevel;
  orders: number;
  counts: Record<DeliveryOutcome, number>;
  lastOutcome: DeliveryOutcome | null;
  lastOutcomeAt: string | null;
}

/** The app holds no link for this order: not COD, or received before the app was installed. */
export interface UnknownOrderView {
  state: "unknown";
}

export type OrderStatusView = LinkStatusView | UnknownOrderView;

/** Accepts the numeric order id or the admin's GraphQL id (gid://shopify/Order/<id>). */
export function parseOrderIdParam(value: string | undefined): string | null {
  if (!value) return null;
  const match = /^(?:gid:\/\/shopify\/Order\/)?(\d{1,20})$/.exec(value.trim());
  return match ? match[1] : null;
}

/**
 * The order page offers sending only where the merchant is expected to act:
 * a held order is sent for the first time, a refused or failed one again.
 * Anything else (in flight, created, skipped...) is done from the app.
 */
export function sendLabelFor(state: LinkState, cancelled: boolean): "send" | "resend" | null {
  if (cancelled) return null;
  if (state === "held") return "send";
  if (state === "invalid" || state === "failed") return "resend";
  return null;
}

// Params each finding's translation may show. Product, city and amount facts
// only: the raw phone, the fallback customer name and address text stay out.
const PUBLIC_PARAMS: Record<string, readonly string[]> = {
  not_cod: ["reason", "gateways", "financialStatus"],
  city_unmatched: ["input"],
  city_fuzzy: ["input", "city", "score"],
  city_from_address: ["city"],
  sku_missing: ["title"],
  sku_unmatched: ["sku", "title", "unknown", "via"],
  item_out_of_stock: ["name", "sku"],
  currency_not_mad: ["currency"],
  total_invalid: ["amount"],
  total_below_cost: ["total", "minimum"],
  possible_duplicate: ["otherOrder", "minutesAgo"],
};

// Finding params that hold what the customer typed about themselves.
const PERSONAL_PARAMS = ["raw", "phone", "name", "cityField"] as const;
const PERSONAL_PARAM_CODES = /^(phone_|name_missing|city_from_address)/;

const MASK = "•••";
// Phone-shaped runs (+212..., 00212..., 06...): a backstop for numbers typed in other forms.
const PHONE_SHAPE = /(?:\+|\b0)\d(?:[\s.\-()]*\d){8,13}/g;

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function parseJson(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function strings(record: unknown, keys: readonly string[]): string[] {
  if (!isRecord(record)) return [];
  return keys.map((k) => record[k]).filter((v): v is string => typeof v === "string");
}

interface StoredFinding {
  code?: unknown;
  severity?: unknown;
  message?: unknown;
  params?: unknown;
}

/** Every personal value the link holds, to be masked wherever a free text repeats it. */
export function personalValues(link: Pick<OrderLink, "phone" | "leadJson" | "payload" | "findings">): string[] {
  const names: string[] = [];
  const others: string[] = [];
  if (link.phone) others.push(link.phone);
  const lead = parseJson(link.leadJson);
  names.push(...strings(lead, ["customer_name"]));
  others.push(...strings(lead, ["customer_phone", "address"]));
  const payload = parseJson(link.payload);
  if (isRecord(payload)) {
    others.push(...strings(payload, ["email", "phone", "contact_email"]));
    names.push(...strings(payload.customer, ["first_name", "last_name"]));
    others.push(...strings(payload.customer, ["email", "phone"]));
    for (const place of [payload.shipping_address, payload.billing_address]) {
      names.push(...strings(place, ["name", "first_name", "last_name"]));
      others.push(...strings(place, ["phone", "address1", "address2", "company"]));
    }
  }
  const findings = parseJson(link.findings);
  if (Array.isArray(findings)) {
    for (const f of findings as StoredFinding[]) {
      if (typeof f.code === "string" && PERSONAL_PARAM_CODES.test(f.code))
        others.push(...strings(f.params, PERSONAL_PARAMS));
    }
  }
  // A message may name a person by one part of the name only.
  const nameParts = names.flatMap((n) => n.split(/\s+/));
  const all = [...names, ...nameParts, ...others].map((v) => v.trim()).filter((v) => v.length >= 3);
  // Longest first, so a full name is masked before its parts.
  return [...new Set(all)].sort((a, b) => b.length - a.length);
}

/**
 * Every occurrence of `value` in `text`, any case, replaced by the mask. Plain
 * string search: a RegExp built from a customer's value threw past ~50 KB
 * ("regular expression too large") and turned the order page into a 500.
 */
function maskAll(text: string, value: string): string {
  if (value === "") return text;
  const lowerText = text.toLowerCase();
  const lowerValue = value.toLowerCase();
  // Lower-casing that changes lengths (rare letters such as "İ") breaks the index
  // correspondence: fall back to the exact spelling.
  if (lowerText.length !== text.length || lowerValue.length !== value.length) return text.replaceAll(value, MASK);
  let out = "";
  let from = 0;
  for (let at = lowerText.indexOf(lowerValue); at >= 0; at = lowerText.indexOf(lowerValue, from)) {
    out += text.slice(from, at) + MASK;
    from = at + value.length;
  }
  return from === 0 ? text : out + text.slice(from);
}

export function maskPersonal(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of values) if (value.length <= out.length) out = maskAll(out, value);
  return out.replace(PHONE_SHAPE, MASK);
}

function publicParams(code: string, params: unknown): Record<string, string | number> {
  const allowed = PUBLIC_PARAMS[code] ?? [];
  const out: Record<string, string | number> = {};
  if (!isRecord(params)) return out;
  for (const key of allowed) {
    const v = params[key];
    if (typeof v === "string" || typeof v === "number") out[key] = v;
  }
  return out;
}

function publicFindings(link: OrderLink, mask: (s: string) => string): OrderStatusFinding[] {
  const stored = parseJson(link.findings);
  if (!Array.isArray(stored)) return [];
  return (stored as StoredFinding[])
    .filter((f) => typeof f.code === "string")
    .map((f) => {
      const code = f.code as string;
      return {
        code,
        severity: f.severity === "blocking" ? "blocking" : "warning",
        message: mask(typeof f.message === "string" ? f.message : code),
        params: publicParams(code, f.params),
      };
    });
}

function publicAnomalies(link: OrderLink, mask: (s: string) => string): OrderStatusAnomaly[] {
  const stored = parseJson(link.anomalies);
  if (!Array.isArray(stored)) return [];
  return stored.filter(isRecord).map((a) => {
    const code = typeof a.code === "string" ? a.code : "unspecified";
    return { code, message: mask(typeof a.message === "string" ? a.message : code) };
  });
}

// Timeline kinds that are not a change of the lead's status.
const NOT_STATUS_CHANGES = ["written_back", "flow", "fixed", "redacted", "updated"];

/** The reader's language and the shop's way of writing dirhams, for the sentences the view renders. */
export interface StatusViewLanguage {
  locale: Locale;
  currency: CurrencyLabel;
}

const ENGLISH: StatusViewLanguage = { locale: "en", currency: "MAD" };

function renderReason(link: OrderLink, language: StatusViewLanguage, mask: (s: string) => string): string | null {
  const ref = link.reason ? readMessageRef(link.reasonText, isMessageKey) : null;
  if (!ref) return null;
  const rendered = renderMessage(ref, {
    t: (key, params) => t(language.locale, key, params),
    format: formatterFor(language.locale, { currency: language.currency }),
  });
  return mask(rendered);
}

export function toLinkStatusView(
  link: OrderLink,
  lastChangeAt: Date | null,
  customer: { record: CustomerRecord | null; hold: HoldReason | null } = { record: null, hold: null },
  language: StatusViewLanguage = ENGLISH,
): LinkStatusView {
  const state: LinkState = isLinkState(link.state) ? link.state : "received";
  const values = personalValues(link);
  const mask = (text: string) => maskPersonal(text, values);
  const sendLabel = sendLabelFor(state, link.cancelledAt !== null);
  const findings = publicFindings(link, mask);
  const anomalies = publicAnomalies(link, mask);
  const flags = parseJson(link.flags);
  return {
    state,
    reason: link.reason ? mask(link.reason) : null,
    reasonText: renderReason(link, language, mask),
    currency: language.currency,
    leadRef: link.leadRef,
    confirmationStatus: link.confirmationStatus,
    shippingStatus: link.shippingStatus,
    trackingNumber: link.trackingNumber,
    lastChangeAt: (lastChangeAt ?? link.updatedAt).toISOString(),
    findings,
    anomalies,
    canSend: sendLabel !== null,
    sendLabel,
    fixUrl: `/app/orders/${encodeURIComponent(link.id)}`,
    customer: link.phone ? customerStatusOf(customer.record) : null,
    hold: state === "held" ? customer.hold : null,
    stage: stageOf({
      state,
      confirmationStatus: link.confirmationStatus,
      shippingStatus: link.shippingStatus,
      cancelled: link.cancelledAt !== null,
    }),
    nextAction: nextActionOf({
      state,
      cancelled: link.cancelledAt !== null,
      leadRef: link.leadRef,
      blocking: findings.filter((f) => f.severity === "blocking").map((f) => f.code),
      anomalies: anomalies.map((a) => a.code),
      heldByCustomer: state === "held" && customer.hold !== null,
      confirmationStatus: link.confirmationStatus,
      duplicateKept: Array.isArray(flags) && flags.includes(FLAG_DUPLICATE_KEPT),
    }).kind,
  };
}

function customerStatusOf(record: CustomerRecord | null): CustomerStatusView {
  const r = record ?? { standing: null, ...NOTHING_COUNTED };
  return {
    risk: riskLevel(r),
    orders: r.orders,
    counts: {
      delivered: r.delivered,
      returned: r.returned,
      refused: r.refused,
      cancelled: r.cancelled,
      wrong_number: r.wrongNumber,
      in_progress: r.inProgress,
    },
    lastOutcome: (DELIVERY_OUTCOMES as readonly string[]).includes(r.lastOutcome ?? "")
      ? (r.lastOutcome as DeliveryOutcome)
      : null,
    lastOutcomeAt: r.lastOutcomeAt?.toISOString() ?? null,
  };
}

async function findLink(db: Db, shop: string, orderId: string): Promise<OrderLink | null> {
  return db.orderLink.findUnique({ where: { shop_orderId: { shop, orderId } } });
}

async function viewOf(db: Db, link: OrderLink, locale: Locale = "en"): Promise<LinkStatusView> {
  const [last, record, holds, shop] = await Promise.all([
    db.timelineEvent.findFirst({
      where: { shop: link.shop, linkId: link.id, kind: { notIn: NOT_STATUS_CHANGES } },
      orderBy: [{ at: "desc" }, { id: "desc" }],
      select: { at: true },
    }),
    link.phone
      ? db.customerRecord.findUnique({ where: { shop_phoneKey: { shop: link.shop, phoneKey: link.phone } } })
      : null,
    link.state === "held" ? customerHoldReasons(db, link.shop, [link.id]) : new Map<string, HoldReasonView>(),
    db.shop.findUnique({ where: { domain: link.shop }, select: { settings: true } }),
  ]);
  const hold = holds.get(link.id);
  const language = { locale, currency: readShopSettings(shop?.settings).currencyLabel };
  return toLinkStatusView(
    link,
    last?.at ?? null,
    { record, hold: hold && "reason" in hold ? hold.reason : null },
    language,
  );
}

/** The order's status for the order page, its sentences in `locale`; another shop's order is simply unknown here. */
export async function orderStatusView(
  db: Db,
  shop: string,
  orderId: string,
  locale: Locale = "en",
): Promise<OrderStatusView> {
  const link = await findLink(db, shop, orderId);
  return link ? viewOf(db, link, locale) : { state: "unknown" };
}

/**
 * "Send to COD platform" / "Resend" from the order page: only where the page
 * offers it (see sendLabelFor), then the same resend as the app's order page.
 */
export async function sendFromOrderPage(db: Db, shop: string, orderId: string, actor: Actor): Promise<LinkStatusView> {
  const link = await findLink(db, shop, orderId);
  if (!link) throw new OrderActionError(404, "order not found");
  const state = isLinkState(link.state) ? link.state : "received";
  if (!sendLabelFor(state, link.cancelledAt !== null)) {
    throw new OrderActionError(
      409,
      link.cancelledAt ? "this order was cancelled in Shopify" : `this order cannot be sent while it is ${state}`,
    );
  }
  // Held because of the customer's record: sending it from Shopify's order page is "send anyway" (else the rule holds it again).
  const heldByCustomer = state === "held" && (await customerHoldReasons(db, shop, [link.id])).has(link.id);
  const updated = heldByCustomer
    ? await sendAnyway(db, shop, link.id, actor)
    : await resendOrder(db, shop, link.id, actor);
  return viewOf(db, updated);
}
