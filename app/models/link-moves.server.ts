/**
 * The one door through which an order link changes state. A move is checked
 * against the machine (order-link-state.ts), then written in the caller's
 * commit with everything that goes with it: the state, its reason and the
 * columns the move sets, its timeline rows, and its lead event. Lead events go
 * out one way: recorded in the outbox (PendingLeadEvent) in that commit and told
 * to their handlers by the worker (app/sync/lead-events.server.ts).
 *
 * The write is conditional on the state the caller read and checked, so the
 * check holds at the moment of the write: a link that moved meanwhile is left
 * to that move, and nothing of this one is written.
 *
 * A link is born here too (intake's insert, in `received`), its reason is
 * rewritten here where it stands (a recheck, an erasure), and the platform's
 * statuses are recorded here with their timeline rows and lead events.
 * eslint-rules/link-state-door.js keeps every other file from writing a link's state.
 */
import { Prisma, type OrderLink } from "@prisma/client";
import type { Db } from "../db.server";
import { newId, rowsOf, sqlOf, statement, statementsByCount, type BatchItem, type SqlSource } from "../db/sql";
import type { MessageRef } from "../i18n/message-ref";
import { sameSnapshot, snapshotOf, type LeadEvent, type LeadSnapshot } from "./lead-events";
import { assertMove, isPosted, type LinkState } from "./order-link-state";
import { reasonFields, timelineItems, timelineRow, type TimelineEntry, type TimelineRow } from "./timeline.server";

type Writer = Db | Prisma.TransactionClient;

// ---------------------------------------------------------------------------
// Birth

/** A link as intake stores it: born `received`. */
export interface NewLink {
  id: string;
  shop: string;
  orderId: string;
  orderName: string;
  payload: string;
  payloadAt: Date | null;
  customerId: string | null;
  externalRef: string;
  cancelledAt: Date | null;
  orderCreatedAt: Date | null;
  /** The order's date on every page: its arrival, or for an imported order the day it was placed. */
  createdAt: Date;
  /** Set for an import of past orders: when it was imported. */
  importedAt: Date | null;
}

/**
 * Inserts new links in `received`, one statement however many; a link whose
 * order the shop has already is left as it is (a redelivery, a duplicate).
 */
export function insertReceivedLinks(db: Writer, links: readonly NewLink[]): Prisma.PrismaPromise<number> {
  const values = links.map(
    (l) => Prisma.sql`(${l.id}, ${l.shop}, ${l.orderId}, ${l.orderName}, ${l.payload}, ${l.payloadAt}, ${l.customerId},
      ${l.externalRef}, 'received', ${l.cancelledAt}, ${l.orderCreatedAt}, ${l.createdAt}, ${l.importedAt},
      ${l.importedAt ?? l.createdAt})`,
  );
  return db.$executeRaw`INSERT INTO "OrderLink" ("id", "shop", "orderId", "orderName", "payload", "payloadAt", "customerId",
      "externalRef", "state", "cancelledAt", "orderCreatedAt", "createdAt", "importedAt", "updatedAt")
    VALUES ${Prisma.join(values)} ON CONFLICT ("shop", "orderId") DO NOTHING`;
}

/**
 * Links written as they stand, in any state, with no move and no event: a
 * fabricated history (the demo's past orders, the benchmarks' fixtures) whose
 * derived rows the caller rebuilds.
 */
export function insertLinksAsTheyStand(db: Writer, links: Prisma.OrderLinkCreateManyInput[]) {
  return db.orderLink.createMany({ data: links });
}

// ---------------------------------------------------------------------------
// Moves

/** The link kept moving while a change was being made to it: the change is to be tried again. */
export class LinkMovedError extends Error {
  constructor(readonly linkId: string) {
    super(`order link ${linkId} moved while it was being changed; try again`);
    this.name = "LinkMovedError";
  }
}

/** What the door reads of a link it rewrites: the state it was read in. */
type StandingLink = Pick<OrderLink, "id" | "shop" | "state">;

/** What the door reads of the link it moves: the state it was read in, and its snapshot. */
export type MovingLink = Pick<
  OrderLink,
  "id" | "shop" | "state" | "confirmationStatus" | "shippingStatus" | "sellerProfit"
>;

type Settable = Omit<
  OrderLink,
  "id" | "shop" | "orderId" | "state" | "reason" | "reasonText" | "createdAt" | "updatedAt"
>;
/** Columns written with the state; a number column may be added to (`{ add: 1 }`). */
export type LinkColumns = {
  [K in keyof Settable]?: Settable[K] | (Settable[K] extends number ? { add: number } : never);
};

export interface LinkMove {
  link: MovingLink;
  to: LinkState;
  /** Why it stopped, as the merchant reads it; null clears the reason. */
  reason: MessageRef | null;
  /** Columns that go with the move (the mapping, the answer, who resent). */
  set?: LinkColumns;
  /** The move's timeline rows (each dated `at` unless it says otherwise). */
  timeline?: readonly TimelineEntry[];
  /** The moment of the move: the link's updatedAt, and its rows' and event's date by default. */
  at: Date;
  /** When the change happened, when not `at` (Shopify's cancellation time). */
  eventAt?: Date;
  /**
   * What the caller mapped the order from, when the move must also hold only while the link still has it:
   * a correction from Shopify, or a merchant's fix and resend, leaves a `received` link's state as it was.
   */
  asMapped?: MappingInputs;
}

/** A link's columns its mapping reads: Shopify's snapshot and the merchant's fixes and decisions. */
export type MappingInputs = Pick<OrderLink, "payloadAt" | "overrides" | "flags" | "resendAt">;
const MAPPING_INPUTS = [
  "payloadAt",
  "overrides",
  "flags",
  "resendAt",
] as const satisfies readonly (keyof MappingInputs)[];

/** The columns a mapping read, as they stood when it read them. */
export const mappingInputsOf = (link: MappingInputs): MappingInputs => ({
  payloadAt: link.payloadAt,
  overrides: link.overrides,
  flags: link.flags,
  resendAt: link.resendAt,
});

/** States an order passes through on its way to a lead: no derived row counts them. */
const IN_FLIGHT: ReadonlySet<LinkState> = new Set(["received", "posting", "retrying"]);

/**
 * The lead event a move makes, from the states alone: a lead answered, an order
 * stopped short of one, or one reopened to be checked and sent again. Moves
 * among the in-flight states (a wait, a retry, the mark before the POST) make none.
 */
export function eventKindOf(from: LinkState, to: LinkState): LeadEvent["kind"] | null {
  if (from === to) return null;
  if (isPosted(to)) return "answered";
  if (IN_FLIGHT.has(to)) return to === "received" && !IN_FLIGHT.has(from) ? "reopened" : null;
  return "stopped";
}

const isAddition = (value: unknown): value is { add: number } =>
  typeof value === "object" && value !== null && !(value instanceof Date) && "add" in value;

/** The move's UPDATE for one set of columns: written once per set. */
const moveStatements = new Map<string, ReturnType<typeof statement>>();
function moveStatement(columns: readonly [string, unknown][], asMapped: boolean): ReturnType<typeof statement> {
  const sets = columns.map(([c, v]) => (isAddition(v) ? `"${c}" = "${c}" + ?` : `"${c}" = ?`));
  const snapshot = asMapped ? MAPPING_INPUTS.map((c) => ` AND "${c}" IS NOT DISTINCT FROM ?`).join("") : "";
  const key = sets.join(", ") + snapshot;
  let s = moveStatements.get(key);
  if (!s) {
    s =
      statement(`UPDATE "OrderLink" SET "state" = ?, "reason" = ?, "reasonText" = ?${sets.map((x) => `, ${x}`).join("")},
      "updatedAt" = ? WHERE "id" = ? AND "state" = ?${snapshot}`);
    moveStatements.set(key, s);
  }
  return s;
}

/** Rows written only while the link stands in one of the given states. */
const WHILE_LINK_IN = `WHERE EXISTS (SELECT 1 FROM "OrderLink" WHERE "id" = ? AND "state" = ANY(?))`;
const INSERT_TIMELINE_ROW = statement(
  `INSERT INTO "TimelineEvent" ("id", "shop", "linkId", "kind", "message", "text", "data", "at")
    SELECT ?, ?, ?, ?, ?, ?, ?, ? ${WHILE_LINK_IN}`,
);
const INSERT_EVENT = statement(
  `INSERT INTO "PendingLeadEvent" ("id", "shop", "linkId", "event", "at") SELECT ?, ?, ?, ?, ? ${WHILE_LINK_IN}`,
);

/** The snapshot the link has after the move. */
function afterOf(move: LinkMove): LeadSnapshot {
  const { link, set = {} } = move;
  const pick = <K extends "confirmationStatus" | "shippingStatus" | "sellerProfit">(k: K) =>
    k in set ? (set[k] as string | null) : link[k];
  return {
    state: move.to,
    confirmationStatus: pick("confirmationStatus"),
    shippingStatus: pick("shippingStatus"),
    sellerProfit: pick("sellerProfit"),
  };
}

/** The lead event of a move, if it makes one. */
export function eventOf(move: LinkMove): LeadEvent | null {
  const kind = eventKindOf(move.link.state as LinkState, move.to);
  if (!kind) return null;
  const before = snapshotOf(move.link);
  return { linkId: move.link.id, kind, before, after: afterOf(move), at: move.eventAt ?? move.at };
}

/** The stored form of an event: no reason (it may quote the customer; a handler reads the link's, which erasure reaches). */
const storedEvent = (e: LeadEvent) => JSON.stringify({ kind: e.kind, before: e.before, after: e.after });

interface MoveWrites {
  update: BatchItem;
  /** The timeline rows and the event, each written only while the link stands in the move's from (or to). */
  rows: BatchItem[];
}

/** Rows written while the link stands as read (one statement's writes), or where the UPDATE left it (statement by statement). */
type RowsWhile = "from" | "to";

function writesOf(move: LinkMove, rowsWhile: RowsWhile): MoveWrites {
  assertMove(move.link.state as LinkState, move.to);
  return linkWrites(move, reasonFields(move.reason), eventOf(move), rowsWhile);
}

/** What a move or a rewording writes: the UPDATE (conditional on the state read), its timeline rows, its event. */
function linkWrites(
  change: Omit<LinkMove, "link" | "reason"> & { link: StandingLink },
  reason: ReturnType<typeof reasonFields>,
  event: LeadEvent | null,
  rowsWhile: RowsWhile,
): MoveWrites {
  const { link, to, at } = change;
  const from = link.state as LinkState;
  const columns = Object.entries(change.set ?? {}).filter(([, v]) => v !== undefined);
  const { asMapped } = change;
  const update: BatchItem = {
    statement: moveStatement(columns, asMapped !== undefined),
    params: [
      to,
      reason.reason,
      reason.reasonText,
      ...columns.map(([, v]) => (isAddition(v) ? v.add : v)),
      at,
      link.id,
      from,
      ...(asMapped ? MAPPING_INPUTS.map((c) => asMapped[c]) : []),
    ],
  };
  const rows = (change.timeline ?? []).map((entry) =>
    timelineRow(link.shop, link.id, { ...entry, at: entry.at ?? at }),
  );
  // One statement's writes all see the link as it was (from); statement by statement, the rows follow the UPDATE (to).
  const states = [rowsWhile === "from" ? from : to];
  return {
    update,
    rows: [
      ...rows.map((r) => ({
        statement: INSERT_TIMELINE_ROW,
        params: [newId(), r.shop, r.linkId, r.kind, r.message, r.text, r.data, r.at, link.id, states],
      })),
      ...(event
        ? [
            {
              statement: INSERT_EVENT,
              params: [newId(), link.shop, link.id, storedEvent(event), event.at, link.id, states],
            },
          ]
        : []),
    ],
  };
}

/**
 * The move as writes for one statement of a caller's batch (`Sql.batch`, whose
 * writes all see the link as it was): the UPDATE first (its count says whether
 * the link moved), then its rows, written only if the link stood in the state
 * the caller read when the statement began. A commit that moves the link while
 * the UPDATE waits for its row leaves the count at 0 and the rows written: the
 * caller runs the batch in a transaction and rolls it back when the count is not 1.
 * Throws IllegalLinkTransitionError for a move the machine forbids.
 */
export function moveItems(move: LinkMove): BatchItem[] {
  const writes = writesOf(move, "from");
  return [writes.update, ...writes.rows];
}

/**
 * Moves the link in the caller's transaction, statement by statement: false,
 * and nothing written, when it no longer stands in the state the caller read.
 * Throws IllegalLinkTransitionError for a move the machine forbids.
 */
export async function moveLink(db: SqlSource, move: LinkMove): Promise<boolean> {
  return runWrites(db, writesOf(move, "to"));
}

async function runWrites(db: SqlSource, writes: MoveWrites): Promise<boolean> {
  const sql = sqlOf(db);
  if ((await sql.run(writes.update.statement, writes.update.params)) === 0) return false;
  for (const item of writes.rows) await sql.run(item.statement, item.params);
  return true;
}

// ---------------------------------------------------------------------------
// Rewordings

/** A reason erased where it stood (a customer's erasure): the stored English replaced, its reference dropped. */
export interface ErasedReason {
  erased: string;
}

/** A link's reason rewritten where it stands, with no move (a recheck after a fix, an erasure). */
export interface LinkRewording {
  link: StandingLink;
  /** The reason now; null clears it. */
  reason: MessageRef | null | ErasedReason;
  /** Columns that go with the new reason (the findings and mapping a recheck found, what an erasure blanks). */
  set?: LinkColumns;
  timeline?: readonly TimelineEntry[];
  /** The moment of the rewording: the link's updatedAt, and its rows' date by default. */
  at: Date;
}

const isErased = (reason: LinkRewording["reason"]): reason is ErasedReason => reason !== null && "erased" in reason;

/**
 * Rewrites the link's reason in the caller's transaction, statement by statement,
 * with the columns and timeline rows that go with it, as a move does but with no
 * move: its state stays, so it makes no lead event. False, and nothing written,
 * when the link no longer stands in the state the caller read.
 */
export async function rewordLink(db: SqlSource, rewording: LinkRewording): Promise<boolean> {
  const { reason } = rewording;
  const fields = isErased(reason) ? { reason: reason.erased, reasonText: null } : reasonFields(reason);
  return runWrites(db, linkWrites({ ...rewording, to: rewording.link.state as LinkState }, fields, null, "to"));
}

// ---------------------------------------------------------------------------
// The platform's statuses

/** A lead whose platform statuses moved (the caller writes the status columns). */
export interface LinkStatusChange {
  link: MovingLink;
  /** The statuses now. */
  next: Pick<LeadSnapshot, "confirmationStatus" | "shippingStatus" | "sellerProfit">;
  timeline: TimelineEntry;
}

/**
 * The timeline rows and lead events of status changes, for the caller's commit
 * (one statement per 100 of each), and the events: a change of what no derived
 * row reads (a tracking number alone) has its row but no event.
 */
export function statusChangeItems(
  changes: readonly LinkStatusChange[],
  at: Date,
): { items: BatchItem[]; events: LeadEvent[] } {
  const rows: TimelineRow[] = [];
  const events: { shop: string; event: LeadEvent }[] = [];
  for (const { link, next, timeline } of changes) {
    rows.push(timelineRow(link.shop, link.id, { ...timeline, at: timeline.at ?? at }));
    const before = snapshotOf(link);
    const after = snapshotOf({ ...link, ...pickStatuses(next) });
    if (!sameSnapshot(before, after))
      events.push({ shop: link.shop, event: { linkId: link.id, kind: "status", before, after, at } });
  }
  return { items: [...timelineItems(rows), ...eventItems(events)], events: events.map((e) => e.event) };
}

const pickStatuses = ({ confirmationStatus, shippingStatus, sellerProfit }: LinkStatusChange["next"]) => ({
  confirmationStatus,
  shippingStatus,
  sellerProfit,
});

const EVENTS_PER_INSERT = 100;
const insertEvents = statementsByCount(
  (count) =>
    `INSERT INTO "PendingLeadEvent" ("id", "shop", "linkId", "event", "at") VALUES ${rowsOf("(?, ?, ?, ?, ?)", count)}`,
);

function eventItems(events: readonly { shop: string; event: LeadEvent }[]): BatchItem[] {
  const items: BatchItem[] = [];
  for (let i = 0; i < events.length; i += EVENTS_PER_INSERT) {
    const page = events.slice(i, i + EVENTS_PER_INSERT);
    items.push({
      statement: insertEvents(page.length),
      params: page.flatMap(({ shop, event: e }) => [newId(), shop, e.linkId, storedEvent(e), e.at]),
    });
  }
  return items;
}
