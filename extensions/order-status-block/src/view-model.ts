/**
 * What the order-page block and action show, from the app's status answer:
 * badge tones, the state banner, finding lines, whether sending is offered.
 * Pure (no Preact, no `shopify` global) so it runs under vitest in Node; the
 * .tsx files only render it. Shared by the action extension. The link states,
 * the platform's statuses and the anomaly codes are the app's own (pure files,
 * bundled in).
 */
import { LINK_STATES, type LinkState } from "../../../app/models/order-link-state";
import { isKnownAnomaly } from "../../../app/models/anomaly-codes";
import { STAGES, STAGE_TONES, type Stage } from "../../../app/models/order-stage";
import { NEXT_ACTIONS, type NextActionKind } from "../../../app/models/next-action";
import { statusTone, type StatusField, type Tone } from "../../../app/vocabulary/platform-status";
import { createFormatter } from "../../../app/i18n/format";
import { FORMATS, type CurrencyLabel } from "../../../app/i18n/formats";
import { platformStatusEn } from "../../../app/i18n/platform-status.en";
import { platformStatusFr } from "../../../app/i18n/platform-status.fr";

export { LINK_STATES, type LinkState };

export type BadgeTone = "neutral" | "info" | "success" | "caution" | "warning" | "critical";
export type BannerTone = "info" | "success" | "warning" | "critical";
/** shopify.i18n.translate, narrowed to string replacements. */
export type Translate = (key: string, params?: Record<string, string | number>) => string;

// ---------------------------------------------------------------------------
// The app's answer (GET /api/orders/:orderId/status)

export interface StatusFinding {
  code: string;
  severity: "blocking" | "warning";
  message: string;
  params: Record<string, string | number>;
}

export interface StatusAnomaly {
  code: string;
  message: string;
}

export interface LinkStatus {
  state: LinkState;
  /** The app's reason in English (older apps only send this one). */
  reason: string | null;
  /** The same reason in the language the extension asked for. */
  reasonText: string | null;
  /** How the shop writes dirhams. */
  currency: CurrencyLabel;
  leadRef: string | null;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  trackingNumber: string | null;
  lastChangeAt: string;
  findings: StatusFinding[];
  anomalies: StatusAnomaly[];
  canSend: boolean;
  sendLabel: "send" | "resend" | null;
  fixUrl: string;
  /** The customer's delivery record (counts only); null without a valid phone or from an older app. */
  customer: CustomerStatus | null;
  /** Why the customer hold keeps the order back; null when it does not. */
  hold: CustomerHold | null;
  /** Where the order stands, as the app's pages say; null from an older app. */
  stage: Stage | null;
  /** What the order asks of the merchant now; null from an older app. */
  nextAction: NextActionKind | null;
}

export const OUTCOMES = ["delivered", "returned", "refused", "cancelled", "wrong_number", "in_progress"] as const;
export type Outcome = (typeof OUTCOMES)[number];
/** Failed deliveries, in the order the hold reason lists them. */
export const FAILED_OUTCOMES = ["refused", "returned", "cancelled", "wrong_number"] as const;
export const RISK_LEVELS = ["blocked", "trusted", "high", "medium", "low", "new"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export interface CustomerStatus {
  risk: RiskLevel;
  orders: number;
  counts: Record<Outcome, number>;
  lastOutcome: Outcome | null;
  lastOutcomeAt: string | null;
}

export interface CustomerHold {
  code: "customer_record" | "customer_blocked";
  counts: Partial<Record<(typeof FAILED_OUTCOMES)[number], number>>;
  days: number;
}

export type StatusPayload = LinkStatus | { state: "unknown" };

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const textOrNull = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

function parseParams(v: unknown): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (!isRecord(v)) return out;
  for (const [k, value] of Object.entries(v))
    if (typeof value === "string" || typeof value === "number") out[k] = value;
  return out;
}

const count = (v: unknown): number => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : 0);
const isOutcome = (v: unknown): v is Outcome => (OUTCOMES as readonly unknown[]).includes(v);

function parseCustomer(v: unknown): CustomerStatus | null {
  if (!isRecord(v) || !(RISK_LEVELS as readonly unknown[]).includes(v.risk)) return null;
  const counts = isRecord(v.counts) ? v.counts : {};
  return {
    risk: v.risk as RiskLevel,
    orders: count(v.orders),
    counts: Object.fromEntries(OUTCOMES.map((o) => [o, count(counts[o])])) as Record<Outcome, number>,
    lastOutcome: isOutcome(v.lastOutcome) ? v.lastOutcome : null,
    lastOutcomeAt: textOrNull(v.lastOutcomeAt),
  };
}

function parseHold(v: unknown): CustomerHold | null {
  if (!isRecord(v) || (v.code !== "customer_record" && v.code !== "customer_blocked")) return null;
  const counts = isRecord(v.counts) ? v.counts : {};
  const kept: CustomerHold["counts"] = {};
  for (const o of FAILED_OUTCOMES) if (count(counts[o]) > 0) kept[o] = count(counts[o]);
  return { code: v.code, counts: kept, days: count(v.days) };
}

/** Reads the app's answer; null when it is not one (an error body, an HTML page...). */
export function parseStatusPayload(json: unknown): StatusPayload | null {
  if (!isRecord(json) || typeof json.state !== "string") return null;
  if (json.state === "unknown") return { state: "unknown" };
  if (!(LINK_STATES as readonly string[]).includes(json.state)) return null;
  const findings = Array.isArray(json.findings) ? json.findings.filter(isRecord) : [];
  const anomalies = Array.isArray(json.anomalies) ? json.anomalies.filter(isRecord) : [];
  const sendLabel = json.sendLabel === "send" || json.sendLabel === "resend" ? json.sendLabel : null;
  return {
    state: json.state as LinkState,
    reason: textOrNull(json.reason),
    reasonText: textOrNull(json.reasonText),
    currency: json.currency === "DH" ? "DH" : "MAD",
    leadRef: textOrNull(json.leadRef),
    confirmationStatus: textOrNull(json.confirmationStatus),
    shippingStatus: textOrNull(json.shippingStatus),
    trackingNumber: textOrNull(json.trackingNumber),
    lastChangeAt: typeof json.lastChangeAt === "string" ? json.lastChangeAt : "",
    findings: findings.map((f) => ({
      code: String(f.code ?? "unspecified"),
      severity: f.severity === "blocking" ? "blocking" : "warning",
      message: typeof f.message === "string" ? f.message : String(f.code ?? ""),
      params: parseParams(f.params),
    })),
    anomalies: anomalies.map((a) => ({
      code: String(a.code ?? "unspecified"),
      message: typeof a.message === "string" ? a.message : String(a.code ?? ""),
    })),
    canSend: json.canSend === true && sendLabel !== null,
    sendLabel,
    fixUrl: typeof json.fixUrl === "string" ? json.fixUrl : "",
    customer: parseCustomer(json.customer),
    hold: parseHold(json.hold),
    stage: (STAGES as readonly unknown[]).includes(json.stage) ? (json.stage as Stage) : null,
    nextAction: (NEXT_ACTIONS as readonly unknown[]).includes(json.nextAction)
      ? (json.nextAction as NextActionKind)
      : null,
  };
}

// ---------------------------------------------------------------------------
// Calling the app

/** The numeric order id from the admin's selection (gid://shopify/Order/<id>). */
export function orderIdFromSelection(selected: readonly { id: string }[] | undefined): string | null {
  const id = selected?.[0]?.id;
  const match = id ? /^(?:gid:\/\/shopify\/Order\/)?(\d+)$/.exec(id) : null;
  return match ? match[1] : null;
}

// Relative: the admin resolves it against the app's URL and adds the session token.
/** The status of an order, its stored sentences in `locale` (the extension's: its locale file names it). */
export const statusPath = (orderId: string, locale?: string) =>
  `/api/orders/${orderId}/status${locale ? `?locale=${encodeURIComponent(locale)}` : ""}`;

/** The app's format table row for the extension's language (its locale file's "locale"), English when unknown. */
export function formatterOf(t: Translate, currency: CurrencyLabel = "MAD") {
  const language = t("locale");
  const row = Object.prototype.hasOwnProperty.call(FORMATS, language)
    ? FORMATS[language as keyof typeof FORMATS]
    : FORMATS.en;
  return createFormatter(row, { currency });
}
export const sendPath = (orderId: string) => `/api/orders/${orderId}/send`;

/** The app page as a link from an admin extension (`app:` resolves against the app's URL). */
export function appHref(path: string): string | null {
  return path ? `app:${path.replace(/^\/+/, "")}` : null;
}

// ---------------------------------------------------------------------------
// Badges

export const STATE_TONES: Record<LinkState, BadgeTone> = {
  received: "neutral",
  held: "caution",
  skipped: "neutral",
  posting: "info",
  created: "success",
  damaged: "warning",
  invalid: "critical",
  retrying: "info",
  failed: "critical",
  cancelled: "neutral",
};

export interface BadgeView {
  label: string;
  tone: BadgeTone;
}

export function stateBadge(state: LinkState, t: Translate): BadgeView {
  return { label: t(`state.${state}`), tone: STATE_TONES[state] };
}

/** The app's tones in the admin extensions' palette (attention reads as caution). */
const BADGE_TONES: Record<Tone, BadgeTone> = {
  neutral: "neutral",
  attention: "caution",
  critical: "critical",
  info: "info",
  success: "success",
  warning: "warning",
};

/** The order's one stage, as on the app's Orders list and order page. */
export function stageBadge(stage: Stage, t: Translate): BadgeView {
  return { label: t(`stage.${stage}`), tone: BADGE_TONES[STAGE_TONES[stage]] };
}

// The statuses' words are the app's own catalogue halves, bundled in: a status the platform
// adds is named once, in the app.
const STATUS_WORDS: Record<string, Readonly<Record<string, string>>> = { en: platformStatusEn, fr: platformStatusFr };

/** A platform status in the extension's language; one this extension does not know is shown verbatim, neutral. */
export function statusBadge(kind: StatusField, status: string | null, t: Translate): BadgeView | null {
  if (!status) return null;
  const tone = statusTone(kind, status);
  if (!tone) return { label: status, tone: "neutral" };
  const language = t("locale");
  const words = Object.prototype.hasOwnProperty.call(STATUS_WORDS, language) ? STATUS_WORDS[language] : STATUS_WORDS.en;
  return {
    label: t("labelled", { label: t(`field.${kind}`), value: words[`${kind}.${status}`] }),
    tone: BADGE_TONES[tone],
  };
}

// ---------------------------------------------------------------------------
// Findings and anomalies

/** Translation key of each finding variant, with the params its strings use. */
export const FINDING_KEYS: Record<string, readonly string[]> = {
  not_cod: ["gateways"],
  not_cod_paid: ["financialStatus"],
  not_cod_no_gateway: [],
  test_order: [],
  cancelled: [],
  no_shippable_items: [],
  too_many_items: [],
  phone_missing: [],
  phone_invalid: [],
  phone_landline: [],
  phone_foreign: [],
  phone_unverified: [],
  name_missing: [],
  city_missing: [],
  city_unmatched: ["input"],
  city_fuzzy: ["input", "city", "score"],
  city_from_address: ["city"],
  sku_missing: ["title"],
  sku_unmatched: ["sku", "title"],
  sku_unmatched_mapping: ["title", "unknown"],
  item_out_of_stock: ["name", "sku"],
  currency_not_mad: ["currency"],
  total_invalid: ["amount"],
  total_below_cost: ["total", "minimum"],
  possible_duplicate: ["otherOrder", "minutesAgo"],
};

function findingVariant(f: StatusFinding): string {
  if (f.code === "not_cod") {
    if (f.params.reason === "already_paid") return "not_cod_paid";
    if (f.params.reason === "no_gateway") return "not_cod_no_gateway";
  }
  if (f.code === "sku_unmatched" && f.params.via === "mapping") return "sku_unmatched_mapping";
  return f.code;
}

const MONEY_PARAMS = new Set(["total", "minimum"]);

function paramValue(
  name: string,
  value: string | number | undefined,
  money: (amount: string) => string,
): string | number {
  if (value === undefined) return "?";
  if (name === "score") return Math.round(Number(value) * 100);
  if (name === "financialStatus") return String(value).replace(/_/g, " ");
  if (MONEY_PARAMS.has(name)) return money(String(value));
  return value;
}

/** The finding in the admin's language; a code this extension does not know keeps the app's English message. */
export function findingText(f: StatusFinding, t: Translate, currency: CurrencyLabel = "MAD"): string {
  const variant = findingVariant(f);
  const names = FINDING_KEYS[variant];
  if (!names) return f.message;
  const format = formatterOf(t, currency);
  const params: Record<string, string | number> = {};
  for (const name of names) params[name] = paramValue(name, f.params[name], (amount) => format.moneyText(amount));
  return t(`finding.${variant}`, params);
}

export function anomalyText(a: StatusAnomaly, t: Translate): string {
  return isKnownAnomaly(a.code) ? t(`anomaly.${a.code}`) : a.message;
}

export interface FindingLine {
  code: string;
  blocking: boolean;
  tone: BadgeTone;
  severityLabel: string;
  text: string;
}

export function findingLine(f: StatusFinding, t: Translate, currency: CurrencyLabel = "MAD"): FindingLine {
  const blocking = f.severity === "blocking";
  return {
    code: f.code,
    blocking,
    tone: blocking ? "critical" : "caution",
    severityLabel: t(`severity.${f.severity}`),
    text: findingText(f, t, currency),
  };
}

// ---------------------------------------------------------------------------
// The state banner: "not sent yet", "held: why", "not COD: skipped", "sending failed: retrying"...

export interface BannerView {
  tone: BannerTone;
  title: string;
  body: string;
}

const BANNER_TONES: Record<LinkState | "unknown", BannerTone | null> = {
  unknown: "info",
  received: "info",
  posting: "info",
  held: "warning",
  skipped: "info",
  retrying: "warning",
  failed: "critical",
  invalid: "critical",
  damaged: "warning",
  cancelled: "info",
  created: null,
};

/** The finding that explains a held or skipped order, if there is one. */
function why(status: LinkStatus): StatusFinding | undefined {
  const blocking = status.findings.filter((f) => f.severity === "blocking");
  if (status.state === "skipped") return blocking.find((f) => f.code === "not_cod") ?? blocking[0];
  return blocking[0];
}

export function stateBanner(payload: StatusPayload, t: Translate): BannerView | null {
  const tone = BANNER_TONES[payload.state];
  if (!tone) return null;
  const title = t(`banner.${payload.state}.title`);
  if (payload.state === "unknown") return { tone, title, body: t("banner.unknown.body") };
  if (payload.state === "held" && payload.hold)
    return { tone, title: t("banner.heldByCustomer.title"), body: holdText(payload.hold, t) };
  const explanation = payload.state === "held" || payload.state === "skipped" ? why(payload) : undefined;
  const body = explanation ? findingText(explanation, t, payload.currency) : t(`banner.${payload.state}.body`);
  return { tone, title, body };
}

/** "2 refused and 1 returned in the last 90 days", in the admin's language. */
export function holdText(hold: CustomerHold, t: Translate): string {
  if (hold.code === "customer_blocked") return t("hold.blocked");
  const parts = FAILED_OUTCOMES.filter((o) => (hold.counts[o] ?? 0) > 0).map((o) =>
    t(`hold.count.${o}`, { count: hold.counts[o]! }),
  );
  const failures =
    parts.length <= 1
      ? (parts[0] ?? "")
      : t("hold.list", { items: parts.slice(0, -1).join(", "), last: parts.at(-1)! });
  return t("hold.record", { failures, count: hold.days });
}

export const RISK_TONES: Record<RiskLevel, BadgeTone> = {
  blocked: "critical",
  trusted: "success",
  high: "critical",
  medium: "warning",
  low: "success",
  new: "neutral",
};

export interface CustomerView {
  risk: BadgeView;
  orders: string;
  /** One line per outcome the customer has, "Refused: 2". */
  counts: string[];
  /** "Last outcome: Refused, <date>"; null before any. */
  lastOutcome: string | null;
}

export function customerView(customer: CustomerStatus, t: Translate, formatDate: (date: Date) => string): CustomerView {
  const at = customer.lastOutcomeAt ? new Date(customer.lastOutcomeAt) : null;
  const outcome = customer.lastOutcome ? t(`customer.outcome.${customer.lastOutcome}`) : null;
  return {
    risk: { label: t(`customer.risk.${customer.risk}`), tone: RISK_TONES[customer.risk] },
    orders: t("customer.orders", { count: customer.orders }),
    counts: OUTCOMES.filter((o) => customer.counts[o] > 0).map((o) =>
      t("customer.count", { outcome: t(`customer.outcome.${o}`), count: customer.counts[o] }),
    ),
    lastOutcome:
      outcome === null
        ? null
        : at && !Number.isNaN(at.getTime())
          ? t("customer.lastOutcomeAt", { outcome, date: formatDate(at) })
          : t("customer.lastOutcome", { outcome }),
  };
}

/**
 * The app's reason (English, personal values masked), shown when no translated
 * finding already says it: a network error, a rejected key, "automatic sending is off".
 */
function reasonToShow(status: LinkStatus): string | null {
  if (!status.reason || status.hold) return null;
  if (status.findings.some((f) => f.message === status.reason)) return null;
  return status.reasonText ?? status.reason;
}

// ---------------------------------------------------------------------------
// The block

export type Loadable = { status: "loading" } | { status: "error" } | { status: "ready"; payload: StatusPayload };

export interface DetailLine {
  label: string;
  value: string;
}

export interface BlockView {
  loading: boolean;
  error: string | null;
  summary: string;
  banner: BannerView | null;
  badges: BadgeView[];
  details: DetailLine[];
  findings: FindingLine[];
  anomalies: string[];
  fixHref: string | null;
  fixLabel: string;
  /** Label of the button that opens the send action; null when the page offers no sending. */
  sendLabel: string | null;
  /** The customer's delivery record; null when the order has none to show. */
  customer: CustomerView | null;
  /** What the order asks of the merchant now, as the app's order page says; null when nothing. */
  next: string | null;
}

const emptyBlock = (t: Translate): BlockView => ({
  loading: false,
  error: null,
  summary: "",
  banner: null,
  badges: [],
  details: [],
  findings: [],
  anomalies: [],
  fixHref: null,
  fixLabel: t("fix.open"),
  sendLabel: null,
  customer: null,
  next: null,
});

export function blockView(load: Loadable, t: Translate, formatDate: (date: Date) => string): BlockView {
  const view = emptyBlock(t);
  if (load.status === "loading") return { ...view, loading: true, summary: t("loading") };
  if (load.status === "error") return { ...view, error: t("loadError"), summary: t("loadError") };
  const payload = load.payload;
  const banner = stateBanner(payload, t);
  if (payload.state === "unknown") return { ...view, banner, summary: t("state.unknown") };

  const state = payload.stage ? stageBadge(payload.stage, t) : stateBadge(payload.state, t);
  const badges = [
    state,
    statusBadge("confirmation", payload.confirmationStatus, t),
    statusBadge("shipping", payload.shippingStatus, t),
  ].filter((b): b is BadgeView => b !== null);

  const details: DetailLine[] = [];
  if (payload.leadRef) details.push({ label: t("field.leadRef"), value: payload.leadRef });
  if (payload.trackingNumber) details.push({ label: t("field.tracking"), value: payload.trackingNumber });
  const reason = reasonToShow(payload);
  if (reason && banner?.body !== reason) details.push({ label: t("field.reason"), value: reason });
  const changed = payload.lastChangeAt ? new Date(payload.lastChangeAt) : null;
  if (changed && !Number.isNaN(changed.getTime()))
    details.push({ label: t("field.lastChange"), value: formatDate(changed) });

  const findings = payload.findings.map((f) => findingLine(f, t, payload.currency));
  const needsFix = findings.length > 0 || payload.anomalies.length > 0;
  return {
    ...view,
    summary: badges.map((b) => b.label).join(" · "),
    banner,
    badges,
    details,
    findings,
    anomalies: payload.anomalies.map((a) => anomalyText(a, t)),
    fixHref: appHref(payload.fixUrl),
    fixLabel: t(needsFix ? "fix.fix" : "fix.open"),
    sendLabel: payload.canSend && payload.sendLabel ? t(`send.${payload.sendLabel}`) : null,
    customer: payload.customer ? customerView(payload.customer, t, formatDate) : null,
    next:
      payload.nextAction && payload.nextAction !== "none" && payload.nextAction !== "wait"
        ? t(`next.${payload.nextAction}`)
        : null,
  };
}

// ---------------------------------------------------------------------------
// The action ("Send to COD platform" / "Resend")

export type SendOutcome =
  { status: "idle" } | { status: "sending" } | { status: "sent" } | { status: "failed"; httpStatus: number };

export interface ActionView {
  loading: boolean;
  heading: string;
  banner: BannerView | null;
  /** Findings still on the order: shown before the merchant confirms. */
  blocking: FindingLine[];
  warnings: FindingLine[];
  /** Why blocking findings matter now; null without any. */
  blockingNote: string | null;
  confirmLabel: string | null;
  sending: boolean;
  done: boolean;
}

export function sendErrorMessage(httpStatus: number, t: Translate): string {
  if (httpStatus === 404) return t("action.error.notFound");
  if (httpStatus === 409) return t("action.error.conflict");
  if (httpStatus === 401 || httpStatus === 403) return t("action.error.auth");
  return t("action.error.other");
}

export function actionView(load: Loadable, outcome: SendOutcome, t: Translate): ActionView {
  const view: ActionView = {
    loading: false,
    heading: t("action.heading.send"),
    banner: null,
    blocking: [],
    warnings: [],
    blockingNote: null,
    confirmLabel: null,
    sending: outcome.status === "sending",
    done: outcome.status === "sent",
  };
  if (load.status === "loading") return { ...view, loading: true };
  if (load.status === "error") return { ...view, banner: { tone: "critical", title: t("loadError"), body: "" } };
  const payload = load.payload;
  if (outcome.status === "sent") {
    return { ...view, banner: { tone: "success", title: t("action.sent.title"), body: t("action.sent.body") } };
  }
  if (payload.state === "unknown" || !payload.canSend || !payload.sendLabel) {
    const key = payload.state === "unknown" ? "unknown" : payload.state;
    return {
      ...view,
      banner: { tone: "info", title: t("action.notAllowed.title"), body: t(`action.notAllowed.${key}`) },
    };
  }
  const lines = payload.findings.map((f) => findingLine(f, t, payload.currency));
  const blocking = lines.filter((l) => l.blocking);
  return {
    ...view,
    heading: t(`action.heading.${payload.sendLabel}`),
    banner:
      outcome.status === "failed"
        ? { tone: "critical", title: t("action.error.title"), body: sendErrorMessage(outcome.httpStatus, t) }
        : null,
    blocking,
    warnings: lines.filter((l) => !l.blocking),
    blockingNote: blocking.length > 0 ? t("action.blockingNote") : null,
    confirmLabel: t(`send.${payload.sendLabel}`),
  };
}
