/**
 * The Orders page's query: one page of a shop's order links, by date (newest
 * first by default) or by amount to collect, with filters, a search and keyset
 * pagination on (createdAt, id) or (totalCents, id).
 *
 * Built to answer in a few milliseconds at 100,000 links per shop (scripts/dev/bench/admin.ts):
 * - every query starts from an index with `shop` in front: (shop, createdAt) or
 *   (shop, totalCents, id) for the list, (shop, orderName) / (shop, leadRef) /
 *   (shop, phone) for a search, and (shop, state, updatedAt) for a state with few orders;
 * - filters no index holds (statuses, problems) walk at most SCAN_WINDOW orders per
 *   request, so a rare filter answers a short page with a cursor to look further;
 * - the page's 50 rows are then read by primary key, with the lead (not the
 *   payload: only rows without a lead read theirs, when it is of a usual size).
 */
import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { normalizeMoroccanPhone } from "../leads/phone";
import { addDays, DEFAULT_TIME_ZONE, startOfLocalDay } from "../analytics/days";
import { LINK_STATES, type LinkState, FLAG_DUPLICATE_AFTER_NETWORK_FAILURE } from "../models/order-link-state";
import { zonedTime } from "../time-zone";
import { RISK_FILTERS, type RiskFilter, type RiskLevel } from "../customers/risk";
import { risksOfPhones } from "../customers/records.server";
import { oddsOfLinks, type OddsView } from "../customers/delivery-odds.server";
import { oddsStandingOf, type OddsStanding } from "../odds/standing";
import type { HoldReasonView } from "../customers/hold-reason";
import { customerHoldReasons } from "../customers/hold-reasons.server";
import { anomalyCodesOf, type IssueFamily } from "../models/anomaly-codes";
import { shopifyStopOf, stageOf, type ShopifyStop, type Stage } from "../models/order-stage";
import { CONFIRMATION_STATUSES, SHIPPING_STATUSES } from "../vocabulary/platform-status";
import { FLAG_DUPLICATE_KEPT } from "../models/next-action";
import { refusalOfData, type Refusal } from "../models/refusal";
import type { CatalogueProduct, City } from "../leads/types";
import {
  attentionOf,
  hasUnnamedItems,
  nameUnnamed,
  parseJson as parseJsonValue,
  referenceNames,
  summaryFromLead,
  summaryFromPayload,
  type Attention,
  type ReferenceNames,
  type RowSummary,
} from "./order-row";

export const ORDERS_PAGE_SIZE = 50;

/** Problem families the merchant filters on: the mapper's finding codes and the platform's anomaly codes. */
export const ISSUE_KINDS = {
  sku: { findings: ["sku_unmatched", "sku_missing"], anomalies: anomalyCodesOf("sku") },
  stock: { findings: ["item_out_of_stock"], anomalies: anomalyCodesOf("stock") },
  city: {
    findings: ["city_missing", "city_unmatched", "city_fuzzy", "city_from_address"],
    anomalies: anomalyCodesOf("city"),
  },
  phone: {
    findings: ["phone_missing", "phone_invalid", "phone_landline", "phone_foreign", "phone_unverified"],
    anomalies: anomalyCodesOf("phone"),
  },
  total: { findings: ["total_below_cost", "total_invalid", "currency_not_mad"], anomalies: anomalyCodesOf("total") },
  duplicate: { findings: ["possible_duplicate"], anomalies: anomalyCodesOf("duplicate") },
} as const satisfies Record<IssueFamily, { findings: readonly string[]; anomalies: readonly string[] }>;
export type IssueKind = keyof typeof ISSUE_KINDS;
export const ISSUE_KIND_NAMES = Object.keys(ISSUE_KINDS) as IssueKind[];

export interface OrdersFilter {
  states: LinkState[];
  confirmation: string[];
  shipping: string[];
  issues: IssueKind[];
  /** Local calendar days (YYYY-MM-DD) in the shop's time zone, inclusive. */
  from?: string;
  to?: string;
  /** Order name, phone or lead reference. */
  query?: string;
  /** Customers' risk levels (app/customers/risk.ts): orders whose phone's record has one of them. */
  risk?: RiskFilter[];
  /**
   * Also (or only, without states) the sent orders that cost money: cancelled, refunded or
   * edited in Shopify while their lead goes on. The "To do" tab is the waiting states and these.
   */
  mismatch?: boolean;
}

/** How the list is ordered: by the order's date or by the amount to collect. */
export const ORDER_SORTS = ["date-desc", "date-asc", "amount-desc", "amount-asc"] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];
export const DEFAULT_SORT: OrderSort = "date-desc";

export interface OrdersPageRequest extends OrdersFilter {
  sort?: OrderSort;
  /** Cursor of the last row of the previous page: the page after it. */
  after?: string;
  /** Cursor of the first row of the next page: the page before it. */
  before?: string;
  limit?: number;
}

export interface OrderRowFinding {
  code: string;
  severity: "blocking" | "warning";
}

/** What one row of the table shows; nothing else leaves the server. */
export interface OrderRow extends RowSummary {
  id: string;
  orderId: string;
  orderName: string;
  state: string;
  /** One word for where the order stands (models/order-stage). */
  stage: Stage;
  /** Cancelled or refunded in Shopify while its lead goes on: the badge leads with that. */
  shopifyStop: ShopifyStop | null;
  leadRef: string | null;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  totalClient: string | null;
  /** The amount to collect in cents; null while unknown. */
  amountCents: number | null;
  findings: OrderRowFinding[];
  /** Platform anomaly codes of a damaged lead. */
  anomalies: string[];
  possibleDuplicate: boolean;
  /** The customer's risk from the delivery record of the order's phone; null without a phone or record. */
  risk: RiskLevel | null;
  /** Why the customer hold keeps this order back; null when it does not. */
  holdReason: HoldReasonView | null;
  /** The order's delivery odds, scored before it was sent; null before (or without) a score. */
  odds: OddsView | null;
  /** What those odds can still say (nothing to gain once cancelled, an estimate once settled). */
  oddsStanding: OddsStanding;
  /** Why the order needs the merchant; null when it does not. */
  attention: Attention | null;
  /** The customer's mobile, only on held orders (to call them before sending); never for an erased customer. */
  phone: string | null;
  createdAt: string;
  /** Last change of the link (state, statuses, fixes). */
  updatedAt: string;
  /** Came in by an import of past orders: its date is the day it was placed. */
  imported: boolean;
  /** Both in the shop's time zone, "YYYY-MM-DD HH:MM:SS" (formatted here: server and browser agree). */
  createdLocal: string;
  updatedLocal: string;
}

export interface OrdersPage {
  rows: OrderRow[];
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: string | null;
  /** Pass as `before` for the previous page; null on the first page. */
  previousCursor: string | null;
  /**
   * The filters are read from the rows and this request walked its share of them
   * (SCAN_WINDOW): fewer rows than a full page, and the next page looks further.
   */
  partial: boolean;
}

// ---------------------------------------------------------------------------
// Pure parts: URL parameters, cursors, where clauses

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const list = (value: string | null) =>
  (value ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);

/** The page's URL parameters, cleaned: unknown values are dropped, never trusted. */
export function parseOrdersSearch(params: URLSearchParams): OrdersPageRequest {
  const oneOf = <T extends string>(values: readonly T[], name: string) =>
    [...new Set(list(params.get(name)))].filter((v): v is T => (values as readonly string[]).includes(v));
  const day = (name: string) => {
    const value = params.get(name)?.trim();
    return value && DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? value : undefined;
  };
  const query = params.get("q")?.trim().slice(0, 100);
  return {
    states: oneOf(LINK_STATES, "state"),
    confirmation: oneOf(CONFIRMATION_STATUSES, "confirmation"),
    shipping: oneOf(SHIPPING_STATUSES, "shipping"),
    issues: oneOf(ISSUE_KIND_NAMES, "issue"),
    from: day("from"),
    to: day("to"),
    query: query || undefined,
    risk: oneOf(RISK_FILTERS, "risk"),
    mismatch: params.get("mismatch") === "1",
    sort: oneOf(ORDER_SORTS, "sort")[0] ?? DEFAULT_SORT,
    after: params.get("after") || undefined,
    before: params.get("before") || undefined,
  };
}

/** A place in the list: the sort column's value (ms since epoch, or cents) and the row's id. */
export interface Cursor {
  value: number;
  /** "" stands before every id: a cursor at a bare value (the end of a scan window). */
  id: string;
}

export function encodeCursor(row: Cursor): string {
  return Buffer.from(`${row.value}:${row.id}`).toString("base64url");
}

/** Undefined for anything that is not a cursor this module wrote. */
export function decodeCursor(value: string | undefined): Cursor | undefined {
  if (!value || value.length > 200) return undefined;
  const match = /^(\d{1,15}):([A-Za-z0-9_-]{0,64})$/.exec(Buffer.from(value, "base64url").toString("utf8"));
  return match ? { value: Number(match[1]), id: match[2] } : undefined;
}

/** The column a sort walks, and how a row's value of it reads as a cursor number and back. */
interface SortColumn {
  name: "createdAt" | "totalCents";
  valueOf(row: { createdAt: Date; totalCents: number }): number;
  toDb(value: number): Date | number;
}

const SORT_COLUMNS: Record<"date" | "amount", SortColumn> = {
  date: { name: "createdAt", valueOf: (row) => row.createdAt.getTime(), toDb: (value) => new Date(value) },
  amount: { name: "totalCents", valueOf: (row) => row.totalCents, toDb: (value) => value },
};

const jsonCode = (code: string) => `"code":"${code}"`;

/** The date range as bounds on createdAt (what the (shop, createdAt) index answers alone). */
export function dateRange(
  filter: Pick<OrdersFilter, "from" | "to">,
  timeZone = DEFAULT_TIME_ZONE,
): Prisma.DateTimeFilter | undefined {
  if (!filter.from && !filter.to) return undefined;
  return {
    ...(filter.from ? { gte: startOfLocalDay(timeZone, filter.from) } : {}),
    ...(filter.to ? { lt: startOfLocalDay(timeZone, addDays(filter.to, 1)) } : {}),
  };
}

/** The filters read from each row (no index holds them in createdAt order); empty without any. */
export function rowFilters(filter: OrdersFilter): Prisma.OrderLinkWhereInput[] {
  const and: Prisma.OrderLinkWhereInput[] = [];
  if (filter.mismatch) and.push(filter.states.length ? { OR: [{ state: { in: filter.states } }, COSTING] } : COSTING);
  else if (filter.states.length) and.push({ state: { in: filter.states } });
  if (filter.confirmation.length) and.push({ confirmationStatus: { in: filter.confirmation } });
  if (filter.shipping.length) and.push({ shippingStatus: { in: filter.shipping } });
  if (filter.issues.length) {
    // Findings and anomalies are JSON text written by JSON.stringify: a code appears as "code":"x".
    const or: Prisma.OrderLinkWhereInput[] = [];
    for (const kind of filter.issues) {
      for (const code of ISSUE_KINDS[kind].findings) or.push({ findings: { contains: jsonCode(code) } });
      for (const code of ISSUE_KINDS[kind].anomalies) or.push({ anomalies: { contains: jsonCode(code) } });
    }
    and.push({ OR: or });
  }
  return and;
}

/** Rows strictly past the cursor when walking the column in `direction`, in (column, id) order. */
function keysetWhere(cursor: Cursor, direction: Direction, column: SortColumn): Prisma.OrderLinkWhereInput {
  const at = column.toDb(cursor.value);
  const past = direction === "desc" ? "lt" : "gt";
  if (cursor.id === "") return { [column.name]: { [past]: at } };
  // The plain range on the column comes first so the index range applies; the OR breaks ties on id.
  return {
    [column.name]: { [direction === "desc" ? "lte" : "gte"]: at },
    OR: [{ [column.name]: { [past]: at } }, { id: { [past]: cursor.id } }],
  };
}

/**
 * One way of narrowing the list that an index answers by itself: a reading of the
 * search, or one state. `orderBy` and `probe` follow that index, so telling a
 * sparse narrowing walks its first entries and stops (see isSparse).
 */
export interface Narrowing {
  where: Prisma.OrderLinkWhereInput;
  orderBy: Prisma.OrderLinkOrderByWithRelationInput[];
  /** A column of the index, so counting matches reads the index only. */
  probe: Prisma.OrderLinkSelect;
}

/**
 * Several narrowings (the readings of a search, the states filtered on) as one:
 * PostgreSQL reads each one's index and ORs what they found (a BitmapOr,
 * test/db/query-plans.test.ts). No order and no index to probe: isSparse counts.
 */
function anyOf(narrowings: readonly Narrowing[]): Narrowing {
  if (narrowings.length === 1) return narrowings[0];
  return { where: { OR: narrowings.map((n) => n.where) }, orderBy: [], probe: { id: true } };
}

/** Smallest string greater than every string starting with prefix (for index range scans). */
const prefixEnd = (prefix: string) => `${prefix}\uffff`;

/**
 * What a search matches, as separate index lookups: an order name (as typed, with
 * or without "#", by prefix), a lead reference (by prefix, upper case) or a phone
 * (normalised to 06/07, exact; or the start of one).
 */
export function searchTerms(query: string | undefined): Narrowing[] {
  const q = query?.trim();
  if (!q) return [];
  const terms: Narrowing[] = [];
  const names = new Set<string>([q]);
  if (/^\d+$/.test(q)) names.add(`#${q}`);
  for (const name of names) {
    terms.push({
      where: { orderName: { gte: name, lt: prefixEnd(name) } },
      orderBy: [{ orderName: "asc" }],
      probe: { orderName: true },
    });
  }
  if (!q.startsWith("#")) {
    const ref = q.toUpperCase();
    terms.push({
      where: { leadRef: { gte: ref, lt: prefixEnd(ref) } },
      orderBy: [{ leadRef: "asc" }],
      probe: { leadRef: true },
    });
  }
  const digits = q.replace(/[\s.\-()]/g, "");
  if (/^0[67]\d{2,7}$/.test(digits)) {
    terms.push({
      where: { phone: { gte: digits, lt: prefixEnd(digits) } },
      orderBy: [{ phone: "asc" }],
      probe: { phone: true },
    });
  } else {
    const phone = normalizeMoroccanPhone(q);
    if (phone.ok) terms.push({ where: { phone: phone.phone }, orderBy: [{ phone: "asc" }], probe: { phone: true } });
  }
  return terms;
}

/** Sent orders that cost money (models/mismatch.ts costsMoney), as a where clause. */
const COSTING: Prisma.OrderLinkWhereInput = {
  mismatch: { not: null },
  statusFinal: false,
  state: { in: ["created", "damaged"] },
};

/** The sent orders that cost money, through the (shop, mismatch, statusFinal) index (few rows). */
export const COSTING_NARROWING: Narrowing = {
  where: COSTING,
  orderBy: [{ mismatch: "asc" }],
  probe: { mismatch: true },
};

/** One narrowing per state filtered on, each walking (shop, state, updatedAt). */
export function stateNarrowings(states: readonly string[]): Narrowing[] {
  return states.map((state) => ({ where: { state }, orderBy: [{ updatedAt: "desc" }], probe: { updatedAt: true } }));
}

const ROW_SELECT = {
  id: true,
  orderId: true,
  orderName: true,
  state: true,
  leadRef: true,
  confirmationStatus: true,
  shippingStatus: true,
  totalClient: true,
  findings: true,
  anomalies: true,
  flags: true,
  phone: true,
  reason: true,
  leadJson: true,
  totalCents: true,
  cancelledAt: true,
  createdAt: true,
  updatedAt: true,
  importedAt: true,
  mismatch: true,
  statusFinal: true,
} as const satisfies Prisma.OrderLinkSelect;

type SelectedRow = Prisma.OrderLinkGetPayload<{ select: typeof ROW_SELECT }>;

function parseArray(json: string): unknown[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

const codeOf = (value: unknown): string | undefined =>
  value && typeof value === "object" && typeof (value as { code?: unknown }).code === "string"
    ? (value as { code: string }).code
    : typeof value === "string"
      ? value
      : undefined;

export interface RowContext {
  timeZone?: string;
  risk?: RiskLevel | null;
  holdReason?: HoldReasonView | null;
  odds?: OddsView | null;
  refusal?: Refusal | null;
  /** The row's summary when it has no lead (read from its Shopify order). */
  fromPayload?: RowSummary;
  names?: ReferenceNames;
}

const NO_NAMES: ReferenceNames = { bySku: new Map(), byProductId: new Map(), cities: new Map() };

export function toOrderRow(row: SelectedRow, context: RowContext = {}): OrderRow {
  const timeZone = context.timeZone ?? DEFAULT_TIME_ZONE;
  const findings: OrderRowFinding[] = [];
  for (const f of parseArray(row.findings)) {
    const code = codeOf(f);
    if (code)
      findings.push({ code, severity: (f as { severity?: string }).severity === "blocking" ? "blocking" : "warning" });
  }
  const anomalies = parseArray(row.anomalies).flatMap((a) => {
    const code = codeOf(a);
    if (!code) return [];
    const duplicateOf =
      a && typeof a === "object" && typeof (a as { duplicateOf?: unknown }).duplicateOf === "string"
        ? (a as { duplicateOf: string }).duplicateOf
        : null;
    return [{ code, duplicateOf }];
  });
  const flags = parseArray(row.flags);
  const possibleDuplicate = flags.includes(FLAG_DUPLICATE_AFTER_NETWORK_FAILURE);
  const holdReason = context.holdReason ?? null;
  const fromLead = summaryFromLead(row.leadJson, context.names ?? NO_NAMES);
  const summary = fromLead
    ? nameUnnamed(fromLead, context.fromPayload)
    : (context.fromPayload ?? summaryFromPayload(null));
  const cancelled = row.cancelledAt !== null;
  return {
    id: row.id,
    orderId: row.orderId,
    orderName: row.orderName,
    state: row.state,
    stage: stageOf({
      state: row.state,
      confirmationStatus: row.confirmationStatus,
      shippingStatus: row.shippingStatus,
      cancelled,
    }),
    shopifyStop: shopifyStopOf({
      state: row.state,
      confirmationStatus: row.confirmationStatus,
      shippingStatus: row.shippingStatus,
      cancelled,
      refunded: row.mismatch === "refunded",
    }),
    leadRef: row.leadRef,
    confirmationStatus: row.confirmationStatus,
    shippingStatus: row.shippingStatus,
    totalClient: row.totalClient,
    amountCents: row.totalClient === null ? null : row.totalCents,
    ...summary,
    findings,
    anomalies: anomalies.map((a) => a.code),
    possibleDuplicate,
    risk: context.risk ?? null,
    holdReason,
    odds: context.odds ?? null,
    oddsStanding: oddsStandingOf({
      state: row.state,
      confirmationStatus: row.confirmationStatus,
      shippingStatus: row.shippingStatus,
      cancelled,
      refunded: row.mismatch === "refunded",
    }),
    attention: attentionOf({
      state: row.state,
      reason: row.reason,
      findings,
      anomalies,
      possibleDuplicate,
      duplicateKept: flags.includes(FLAG_DUPLICATE_KEPT),
      cancelled,
      hold: holdReason,
      refusal: context.refusal ?? null,
      mismatch: row.mismatch,
      statusFinal: row.statusFinal,
    }),
    imported: row.importedAt !== null,
    phone: row.state === "held" && !summary.erased ? row.phone : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    createdLocal: zonedTime(row.createdAt, timeZone).local,
    updatedLocal: zonedTime(row.updatedAt, timeZone).local,
  };
}

// ---------------------------------------------------------------------------
// Query

/** The order the rows are walked in: down (descending) or up (ascending) the sort column. */
type Direction = "desc" | "asc";
const flip = (direction: Direction): Direction => (direction === "desc" ? "asc" : "desc");

/**
 * A narrowing with at most this many rows is sparse: all its matches are read
 * through its index and sorted here. Above it, walking the shop in the sort's
 * order finds a page sooner.
 */
export const SPARSE_LIMIT = 1000;
/**
 * Rows of the shop one request walks at most when filters are read from the rows.
 * A rare filter then answers with a short page and a cursor to look further,
 * instead of reading every order of the shop at once.
 */
export const SCAN_WINDOW = 5000;

/** Walk order; a bare-value cursor (id "") comes after every row of its value, as keysetWhere reads it. */
function compareKeys(direction: Direction) {
  return (a: Cursor, b: Cursor) => {
    const byValue = direction === "desc" ? b.value - a.value : a.value - b.value;
    if (byValue !== 0 || a.id === b.id) return byValue;
    if (a.id === "") return 1;
    if (b.id === "") return -1;
    return a.id < b.id === (direction === "asc") ? -1 : 1;
  };
}

interface PageScope {
  shop: string;
  column: SortColumn;
  /** shop, date range and keyset: the range the walk covers. */
  range: Prisma.OrderLinkWhereInput[];
  /** Read from each row. */
  filters: Prisma.OrderLinkWhereInput[];
  /** Customer risk levels: read from the records of each candidate row's phone (see keepRisky). */
  risk?: readonly RiskFilter[];
  direction: Direction;
  limit: number;
  sparseLimit: number;
  scanWindow: number;
}

interface Keys {
  keys: Cursor[];
  /** Where a scan window stopped short of a full page: the next page starts there. */
  windowEnd?: Cursor;
}

async function isSparse(db: Db, shop: string, narrowing: Narrowing, sparseLimit: number): Promise<boolean> {
  if (narrowing.orderBy.length === 0) {
    // Several indexes ORed: counting at most SPARSE_LIMIT + 1 matches leaves PostgreSQL its BitmapOr. A skip
    // would order them by id, and the planner then walked the primary key past every other order of the
    // shop (77 ms for held, invalid and failed at 100,000 orders; scripts/dev/bench/admin.ts).
    const matches = await db.orderLink.count({ where: { shop, ...narrowing.where }, take: sparseLimit + 1 });
    return matches <= sparseLimit;
  }
  // Skipping SPARSE_LIMIT entries of the narrowing's index, selecting an indexed column: no row is read.
  const beyond = await db.orderLink.findMany({
    where: { shop, ...narrowing.where },
    orderBy: narrowing.orderBy,
    skip: sparseLimit,
    take: 1,
    select: narrowing.probe,
  });
  return beyond.length === 0;
}

/** The keys (column value, id) of the next limit + 1 rows of the page, in page order. */
async function pageKeys(db: Db, scope: PageScope, narrowing?: Narrowing): Promise<Keys> {
  const { shop, range, filters, direction, limit, sparseLimit, scanWindow, risk, column } = scope;
  const keyOf = (row: { id: string; createdAt: Date; totalCents: number }): Cursor => ({
    value: column.valueOf(row),
    id: row.id,
  });
  if (narrowing && (await isSparse(db, shop, narrowing, sparseLimit))) {
    const matches = await db.orderLink.findMany({
      where: { AND: [...range, ...filters, narrowing.where] },
      orderBy: narrowing.orderBy,
      select: RISK_KEY_SELECT,
    });
    const kept = risk ? await keepRisky(db, shop, risk, matches) : matches;
    return {
      keys: kept
        .map(keyOf)
        .sort(compareKeys(direction))
        .slice(0, limit + 1),
    };
  }
  const rowFilters = narrowing ? [...filters, narrowing.where] : filters;
  let window: Prisma.OrderLinkWhereInput[] = [];
  let windowStart: number | undefined;
  if (rowFilters.length > 0 || risk) {
    // The column's value SCAN_WINDOW rows away, from the index alone (the column only: the other is not in it).
    const [edge] = (await db.orderLink.findMany({
      where: { AND: range },
      orderBy: [{ [column.name]: direction }],
      skip: scanWindow,
      take: 1,
      select: { [column.name]: true },
    })) as unknown as { createdAt: Date; totalCents: number }[];
    if (edge) {
      windowStart = column.valueOf(edge);
      const at = column.toDb(windowStart);
      window = [{ [column.name]: direction === "desc" ? { gte: at } : { lte: at } }];
    }
  }
  const where = [...range, ...window, ...rowFilters];
  const orderBy = [{ [column.name]: direction }, { id: direction }];
  let keys: Cursor[];
  if (!risk) {
    keys = (await db.orderLink.findMany({ where: { AND: where }, orderBy, take: limit + 1, select: KEY_SELECT })).map(
      keyOf,
    );
  } else {
    // The risk lives on the phone's record: candidates are read in batches and
    // kept by their records (bounded by the window, never one `phone IN` of every risky phone).
    keys = [];
    let from: Cursor | undefined;
    for (;;) {
      const batch = await db.orderLink.findMany({
        where: { AND: from ? [...where, keysetWhere(from, direction, column)] : where },
        orderBy,
        take: RISK_BATCH,
        select: RISK_KEY_SELECT,
      });
      keys.push(...(await keepRisky(db, shop, risk, batch)).map(keyOf));
      if (keys.length > limit || batch.length < RISK_BATCH) break;
      from = keyOf(batch.at(-1)!);
    }
    keys = keys.slice(0, limit + 1);
  }
  // Every row at the window's edge value was read: the next page starts just past it.
  const windowEnd = windowStart !== undefined && keys.length <= limit ? { value: windowStart, id: "" } : undefined;
  return { keys, windowEnd };
}

/**
 * Candidate rows read per statement when filtering on risk: one statement finds a page where one
 * order in 20 is risky (their phones are then one array parameter).
 */
export const RISK_BATCH = 1000;
/** Risky phones looked up through the (shop, phone) index at most: one `IN` of this many parameters. */
export const RISK_PHONES = 500;
const KEY_SELECT = { id: true, createdAt: true, totalCents: true } as const;
const RISK_KEY_SELECT = { id: true, createdAt: true, totalCents: true, phone: true } as const;
type RiskKey = { id: string; phone: string | null };

/**
 * The rows whose phone's record has one of the levels. Only the risky phones come back: most
 * candidates' phones have a record (the risk column reads whole records, for 50 rows only).
 */
async function keepRisky<T extends RiskKey>(
  db: Db,
  shop: string,
  levels: readonly RiskFilter[],
  rows: readonly T[],
): Promise<T[]> {
  const phones = [...new Set(rows.flatMap((r) => (r.phone ? [r.phone] : [])))];
  if (phones.length === 0) return [];
  const risky = await db.$queryRaw<{ phoneKey: string }[]>`SELECT "phoneKey" FROM "CustomerRecord"
    WHERE "shop" = ${shop} AND "phoneKey" = ANY(${phones}) AND (${riskCondition(levels)})`;
  const kept = new Set(risky.map((r) => r.phoneKey));
  return rows.filter((r) => r.phone !== null && kept.has(r.phone));
}

/** One page of the shop's orders. Scoped to shop whatever the request says. */
export async function queryOrders(
  db: Db,
  shop: string,
  request: OrdersPageRequest,
  options: { timeZone?: string; sparseLimit?: number; scanWindow?: number } = {},
): Promise<OrdersPage> {
  const limit = Math.min(200, Math.max(1, Math.floor(request.limit ?? ORDERS_PAGE_SIZE)));
  const sort = request.sort ?? DEFAULT_SORT;
  const column = SORT_COLUMNS[sort.startsWith("amount") ? "amount" : "date"];
  // "Next" walks the sort's way; "previous" walks back and turns the page round.
  const forward: Direction = sort.endsWith("asc") ? "asc" : "desc";
  const after = decodeCursor(request.after);
  const before = after ? undefined : decodeCursor(request.before);
  const direction: Direction = before ? flip(forward) : forward;
  const dates = dateRange(request, options.timeZone);
  const cursor = after ?? before;
  const scope: PageScope = {
    shop,
    column,
    range: [
      { shop },
      ...(dates ? [{ createdAt: dates }] : []),
      ...(cursor ? [keysetWhere(cursor, direction, column)] : []),
    ],
    filters: rowFilters(request),
    direction,
    limit,
    sparseLimit: options.sparseLimit ?? SPARSE_LIMIT,
    scanWindow: options.scanWindow ?? SCAN_WINDOW,
  };

  let riskNarrowing: Narrowing | undefined;
  if (request.risk?.length) {
    // A rare level (blocked, or few risky customers): its phones, at most RISK_PHONES, are
    // looked up through the (shop, phone) index. Otherwise candidates are kept by their records.
    const phones = await riskyPhones(db, shop, request.risk, RISK_PHONES + 1);
    if (phones.length <= RISK_PHONES) {
      riskNarrowing = { where: { phone: { in: phones } }, orderBy: [{ phone: "asc" }], probe: { phone: true } };
    } else {
      scope.risk = request.risk;
    }
  }
  const terms = searchTerms(request.query);
  const byIndex =
    terms.length > 0 ? terms : [...stateNarrowings(request.states), ...(request.mismatch ? [COSTING_NARROWING] : [])];
  // The phones narrow by themselves, or filter the rows another narrowing finds (once either way: at most RISK_PHONES parameters).
  if (riskNarrowing && byIndex.length > 0) scope.filters.push(riskNarrowing.where);
  const narrowings = byIndex.length === 0 && riskNarrowing ? [riskNarrowing] : byIndex;
  const result: Keys =
    request.query && terms.length === 0
      ? { keys: [] }
      : await pageKeys(db, scope, narrowings.length > 0 ? anyOf(narrowings) : undefined);

  const more = result.keys.length > limit;
  const pageKeyList = result.keys.slice(0, limit);
  if (before) pageKeyList.reverse();
  // By primary key alone: the keys came from shop-scoped queries.
  const rows = pageKeyList.length
    ? await db.orderLink.findMany({ where: { id: { in: pageKeyList.map((k) => k.id) } }, select: ROW_SELECT })
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const page = pageKeyList.flatMap((k) => byId.get(k.id) ?? []);
  const first = pageKeyList[0];
  const last = pageKeyList[pageKeyList.length - 1];
  // A window end is where the walk stopped: the page on that side starts there.
  const nextFrom = before ? (last ?? before) : more ? last : result.windowEnd;
  const previousFrom = before ? (more ? first : result.windowEnd) : after ? (first ?? after) : undefined;
  const [risks, holds, refusals, payloads, names, odds] = await Promise.all([
    risksOfPhones(
      db,
      shop,
      page.flatMap((r) => (r.phone ? [r.phone] : [])),
    ),
    customerHoldReasons(
      db,
      shop,
      page.flatMap((r) => (r.state === "held" ? [r.id] : [])),
    ),
    lastRefusals(
      db,
      shop,
      page.flatMap((r) => (r.state === "invalid" ? [r.id] : [])),
    ),
    payloadSummaries(
      db,
      page.flatMap((r) => (r.leadJson ? [] : [r.id])),
    ),
    page.some((r) => r.leadJson) ? shopNames(db, shop) : Promise.resolve(undefined),
    oddsOfLinks(
      db,
      shop,
      page.map((r) => r.id),
    ),
  ]);
  // A lead item the catalogue cannot name (an unknown SKU on a flagged lead) is named by its Shopify order.
  const unnamed = names
    ? page.filter((r) => r.leadJson && hasUnnamedItems(summaryFromLead(r.leadJson, names))).map((r) => r.id)
    : [];
  if (unnamed.length > 0) for (const [id, summary] of await payloadSummaries(db, unnamed)) payloads.set(id, summary);
  return {
    rows: page.map((row) =>
      toOrderRow(row, {
        timeZone: options.timeZone,
        risk: row.phone ? (risks.get(row.phone) ?? null) : null,
        holdReason: holds.get(row.id) ?? null,
        odds: odds.get(row.id) ?? null,
        refusal: refusals.get(row.id) ?? null,
        fromPayload: payloads.get(row.id),
        names,
      }),
    ),
    nextCursor: nextFrom ? encodeCursor(nextFrom) : null,
    previousCursor: previousFrom ? encodeCursor(previousFrom) : null,
    partial: Boolean(result.windowEnd),
  };
}

/**
 * The payload of a row without a lead is read only when of a usual size: a huge
 * order (held for its size) is shown from its name alone.
 */
const MAX_ROW_PAYLOAD_BYTES = 200_000;

async function payloadSummaries(db: Db, ids: string[]): Promise<Map<string, RowSummary>> {
  if (ids.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: string; payload: string | null }[]>`
    SELECT "id", CASE WHEN octet_length("payload") <= ${MAX_ROW_PAYLOAD_BYTES} THEN "payload" END AS "payload" FROM "OrderLink" WHERE "id" IN (${Prisma.join(ids)})`;
  return new Map(rows.map((r) => [r.id, summaryFromPayload(r.payload)]));
}

/** The platform's refusal of each refused order, from its last answer on the timeline. */
export async function lastRefusals(db: Db, shop: string, linkIds: string[]): Promise<Map<string, Refusal>> {
  if (linkIds.length === 0) return new Map();
  const rows = await db.timelineEvent.findMany({
    where: { shop, linkId: { in: linkIds }, kind: "answered" },
    select: { linkId: true, at: true, id: true, data: true },
  });
  rows.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : 1));
  const found = new Map<string, Refusal>();
  for (const row of rows) {
    const refusal = refusalOfData(parseJsonValue(row.data));
    if (refusal) found.set(row.linkId, refusal);
    else found.delete(row.linkId);
  }
  return found;
}

/** Product and city names of the shop's cached platform lists, parsed once per list version. */
const namesCache = new Map<string, { key: string; names: ReferenceNames }>();
const NAMES_CACHE_SHOPS = 200;

async function shopNames(db: Db, shop: string): Promise<ReferenceNames> {
  const stamp = await db.shop.findUnique({
    where: { domain: shop },
    select: { catalogueFetchedAt: true, citiesFetchedAt: true },
  });
  const key = `${stamp?.catalogueFetchedAt?.getTime() ?? 0}:${stamp?.citiesFetchedAt?.getTime() ?? 0}`;
  const cached = namesCache.get(shop);
  if (cached && cached.key === key) return cached.names;
  const row = await db.shop.findUnique({ where: { domain: shop }, select: { catalogueJson: true, citiesJson: true } });
  const list = <T>(json: string | null | undefined): T[] => {
    const value = parseJsonValue(json);
    return Array.isArray(value) ? (value as T[]) : [];
  };
  const names = referenceNames(list<CatalogueProduct>(row?.catalogueJson), list<City>(row?.citiesJson));
  if (namesCache.size >= NAMES_CACHE_SHOPS) namesCache.delete(namesCache.keys().next().value!);
  namesCache.set(shop, { key, names });
  return names;
}

/**
 * A customer record having one of the levels, in SQL, with the same rules as riskLevel
 * (app/customers/risk.ts; the risk filter's test holds the two together).
 */
function riskCondition(levels: readonly RiskFilter[]): Prisma.Sql {
  const failed = Prisma.sql`("returned" + "refused" + "cancelled" + "wrongNumber")`;
  const high = Prisma.sql`("standing" IS NULL AND ${failed} >= 2 AND ${failed} > "delivered")`;
  const when: Record<RiskFilter, Prisma.Sql> = {
    blocked: Prisma.sql`"standing" = 'blocked'`,
    high,
    medium: Prisma.sql`("standing" IS NULL AND ${failed} > 0 AND NOT ${high})`,
  };
  return Prisma.join(
    levels.map((l) => when[l]),
    " OR ",
  );
}

/** Up to `limit` phones whose record has one of the levels. */
export async function riskyPhones(
  db: Db,
  shop: string,
  levels: readonly RiskFilter[],
  limit: number,
): Promise<string[]> {
  const rows = await db.$queryRaw<{ phoneKey: string }[]>`SELECT "phoneKey" FROM "CustomerRecord"
    WHERE "shop" = ${shop} AND (${riskCondition(levels)}) LIMIT ${limit}`;
  return rows.map((r) => r.phoneKey);
}

/** The orders sending gave up on, as "retry every failed order" states them first: how many, how much, how old. */
export interface FailedOrders {
  count: number;
  amountCents: number;
  /** When the oldest was placed (ISO); null without any. */
  oldestAt: string | null;
  /** When the oldest placed since `staleBefore` was: the oldest a retry sends. */
  oldestWithinLimitAt: string | null;
  /** Of them, placed before `staleBefore`: they wait for the merchant's word instead. */
  older: { count: number; amountCents: number };
}

/** Links the merchant can retry, from the (shop, state, ..., createdAt, totalCents) index alone, in one statement. */
export async function failedOrders(db: Db, shop: string, staleBefore: Date): Promise<FailedOrders> {
  const [row] = await db.$queryRaw<
    {
      count: bigint;
      amount: bigint | null;
      oldest: Date | null;
      oldestWithin: Date | null;
      olderCount: bigint;
      olderAmount: bigint | null;
    }[]
  >`SELECT count(*) AS "count", sum("totalCents") AS "amount", min("createdAt") AS "oldest",
      min("createdAt") FILTER (WHERE "createdAt" >= ${staleBefore}) AS "oldestWithin",
      count(*) FILTER (WHERE "createdAt" < ${staleBefore}) AS "olderCount",
      sum("totalCents") FILTER (WHERE "createdAt" < ${staleBefore}) AS "olderAmount"
    FROM "OrderLink" WHERE "shop" = ${shop} AND "state" = 'failed' AND "cancelledAt" IS NULL`;
  return {
    count: Number(row.count),
    amountCents: Number(row.amount ?? 0),
    oldestAt: row.oldest?.toISOString() ?? null,
    oldestWithinLimitAt: row.oldestWithin?.toISOString() ?? null,
    older: { count: Number(row.olderCount), amountCents: Number(row.olderAmount ?? 0) },
  };
}
