/**
 * The "sync-statuses" job, per shop: page GET /v1/leads newest first down to
 * the oldest lead still in motion, and GET a lead's detail only when the list
 * lacks what the merchant needs (tracking number once shipped, seller profit
 * once delivered). Its cost follows what changed: the leads in motion are read
 * a page at a time with only the columns a cycle needs, only the leads whose
 * status moved are written, in short transactions that yield between them,
 * write-back is queued only when it is switched on, its calls give way to
 * posting in the key's budget (asPolling), and the next cycle comes later as
 * the leads in motion grow (platform events, when set up, are the primary
 * source: polling is then the safety net). Each cycle logs one report line.
 */
import type { OrderLink, Prisma, Shop } from "@prisma/client";
import type { ClaimedJob } from "../queue/types";
import { type SellerApiClient } from "../seller-api";
import { isFinalStatus, needsDetail, statusChanged, type LeadStatus } from "./lead-status";
import type { PipelineDeps } from "./pipeline-deps.server";
import { ShopNotConnectedError } from "./seller-connection.server";
import { asPolling } from "./db-rate-limiter.server";
import { pauseShop } from "./shop-pause.server";
import { scheduleNextSync } from "./sync-schedule.server";
import { jobErrorFor, sellerApiOutcome } from "../models/job-outcomes";
import { statusChangeItems, type LinkStatusChange } from "../models/link-moves.server";
import { asString, sqlDatabaseOf, statement, type Sql } from "../db/sql";
import { wakeJobs, type EnqueueJobInput } from "../queue/jobs.server";
import { readShopSettings } from "../models/shop-settings";
import type { LeadEvent } from "../models/lead-events";
import { writeBackWakes } from "./write-back-task.server";
import { log } from "../runtime/logger.server";
import { recordSyncCycle } from "../runtime/metrics.server";
import { statusChangedText } from "../models/order-texts";
import { POSTED_STATES } from "../models/order-link-state";

export interface SyncReport {
  tracked: number;
  listCalls: number;
  detailCalls: number;
  /** Links whose status changed (each written once, with its timeline row). */
  updated: number;
  /** Rows written to OrderLink: the leads that changed, nothing else. */
  rowsWritten: number;
  wallMs: number;
}

/** The columns a cycle needs: never the order payload, findings or lead JSON. */
const trackedSelect = {
  id: true,
  shop: true,
  orderId: true,
  leadRef: true,
  state: true,
  confirmationStatus: true,
  shippingStatus: true,
  trackingNumber: true,
  sellerProfit: true,
  statusFinal: true,
  // What its write-back would change.
  anomalies: true,
  writtenBack: true,
  postedAt: true,
  createdAt: true,
} satisfies Prisma.OrderLinkSelect;
export type TrackedLink = Prisma.OrderLinkGetPayload<{ select: typeof trackedSelect }>;

/** Rows read per query, a few milliseconds each, then the event loop runs. */
const READ_PAGE = 500;
/**
 * Leads written per transaction: an update per status reached, the timeline
 * rows, the lead events and the write-backs they wake, a few prepared statements
 * whatever the batch's size (the lead-events handlers run later, once for many
 * batches). Intake's writes to the same links wait for a batch's row locks, so
 * batches stay short and the event loop turns between them.
 */
export const WRITE_BATCH = 100;

/** Leads compared with what the list said between two turns of the event loop (a few ms). */
const COMPARE_CHUNK = 2000;

/** Detail GETs in flight at once (each still paced by the key's limiter). */
const DETAIL_CONCURRENCY = 4;

/** Lets timers, I/O and other requests run between chunks of background work. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

const statusOf = (link: Pick<OrderLink, keyof LeadStatus>): LeadStatus => ({
  confirmationStatus: link.confirmationStatus,
  shippingStatus: link.shippingStatus,
  trackingNumber: link.trackingNumber,
  sellerProfit: link.sellerProfit,
});

/**
 * The shop's leads still in motion, a page at a time, only the columns a cycle
 * reads. The keyset is (leadRef, id), the order of the (shop, statusFinal,
 * leadRef) index, so each page reads its own rows: a keyset on id alone made
 * every page sort all the tracked leads (10,000 leads: 20 pages of 10,000).
 */
export async function loadTrackedLinks(db: PipelineDeps["db"], shop: string): Promise<TrackedLink[]> {
  const tracked: TrackedLink[] = [];
  let after: { leadRef: string; id: string } | undefined;
  for (;;) {
    const page = await db.orderLink.findMany({
      where: {
        shop,
        statusFinal: false,
        state: { in: ["created", "damaged"] },
        ...(after
          ? { leadRef: { gte: after.leadRef }, OR: [{ leadRef: { gt: after.leadRef } }, { id: { gt: after.id } }] }
          : { leadRef: { not: null } }),
      },
      select: trackedSelect,
      orderBy: [{ leadRef: "asc" }, { id: "asc" }],
      take: READ_PAGE,
    });
    tracked.push(...page);
    if (page.length < READ_PAGE) return tracked;
    const last = page[page.length - 1];
    after = { leadRef: last.leadRef!, id: last.id };
    await yieldToEventLoop();
  }
}

/** A lead's new status, decided in memory; written by writeStatusChanges. */
export interface StatusChange {
  link: TrackedLink;
  next: LeadStatus;
  final: boolean;
}

/** Null when nothing the app stores would change (no row is written then). */
export function statusChangeFor(link: TrackedLink, next: LeadStatus): StatusChange | null {
  const final = isFinalStatus(next) && !needsDetail(next);
  if (!statusChanged(statusOf(link), next) && final === link.statusFinal) return null;
  return { link, next, final };
}

/** One cycle for one shop. Pure of scheduling: runSyncStatusesJob wraps it. */
export async function syncShopStatuses(deps: PipelineDeps, shop: Shop, client: SellerApiClient): Promise<SyncReport> {
  const started = performance.now();
  const { db } = deps;
  const tracked = await loadTrackedLinks(db, shop.domain);
  const report: SyncReport = {
    tracked: tracked.length,
    listCalls: 0,
    detailCalls: 0,
    updated: 0,
    rowsWritten: 0,
    wallMs: 0,
  };
  if (tracked.length === 0) return finish(report, started);

  // Polling gives way to posting in the key's budget (see asPolling).
  await asPolling(async () => {
    const byRef = new Map(tracked.map((l) => [l.leadRef!, l]));
    let oldest = Infinity;
    for (const l of tracked) oldest = Math.min(oldest, (l.postedAt ?? l.createdAt).getTime());
    // A day of margin: `since` is a calendar day in the platform's time zone.
    const since = new Date(oldest - 24 * 3600 * 1000).toISOString().slice(0, 10);
    const seen = new Map<string, Partial<LeadStatus>>();
    for await (const page of client.listLeads({ since, limit: 100 }).pages()) {
      report.listCalls++;
      for (const lead of page.leads) {
        if (byRef.has(lead.ref))
          seen.set(lead.ref, { confirmationStatus: lead.confirmation_status, shippingStatus: lead.shipping_status });
      }
      if (seen.size === byRef.size) break;
    }

    const changes: StatusChange[] = [];
    const needDetail: { link: TrackedLink; next: LeadStatus }[] = [];
    let compared = 0;
    for (const [ref, link] of byRef) {
      const next: LeadStatus = { ...statusOf(link), ...(seen.get(ref) ?? {}) };
      if (needsDetail(next)) needDetail.push({ link, next });
      else {
        const change = statusChangeFor(link, next);
        if (change) changes.push(change);
      }
      // 50,000 leads compared in one go held the event loop ~100 ms.
      if (++compared % COMPARE_CHUNK === 0) await yieldToEventLoop();
    }
    let cursor = 0;
    const lane = async () => {
      while (cursor < needDetail.length) {
        const { link, next } = needDetail[cursor++];
        const detail = await client.getLead(link.leadRef!);
        report.detailCalls++;
        const read: LeadStatus = detail
          ? {
              confirmationStatus: detail.confirmation_status,
              shippingStatus: detail.shipping_status,
              trackingNumber: detail.tracking_number ?? null,
              sellerProfit: detail.seller_profit ?? null,
            }
          : next;
        const change = statusChangeFor(link, read);
        if (change) changes.push(change);
      }
    };
    await Promise.all(Array.from({ length: Math.min(DETAIL_CONCURRENCY, needDetail.length) }, lane));

    const written = await writeStatusChanges(deps, changes);
    report.updated = written.changed;
    report.rowsWritten = written.rows;
  });
  return finish(report, started);
}

function finish(report: SyncReport, started: number): SyncReport {
  report.wallMs = Math.round(performance.now() - started);
  return report;
}

// Only while the lead stands posted: a resend that reopened the order since the read keeps none of the old lead's statuses.
const SET_STATUS = statement(
  `UPDATE "OrderLink" SET "confirmationStatus" = ?, "shippingStatus" = ?, "trackingNumber" = ?, "sellerProfit" = ?, "statusFinal" = ?,
    "statusCheckedAt" = ?, "updatedAt" = ? WHERE "id" = ANY(?) AND "state" = ANY(?) RETURNING "id"`,
);

/**
 * Writes the changed leads in short transactions of WRITE_BATCH, yielding
 * between them: per batch one update per status reached, the timeline rows,
 * the lead events (told to their handlers later, in a batch of their own:
 * lead-events.server.ts) and the write-backs the moved leads wake.
 */
export async function writeStatusChanges(
  deps: PipelineDeps,
  changes: readonly StatusChange[],
): Promise<{ rows: number; changed: number }> {
  const now = deps.now();
  const database = sqlDatabaseOf(deps.db);
  let rows = 0;
  let changed = 0;
  for (let i = 0; i < changes.length; i += WRITE_BATCH) {
    const batch = changes.slice(i, i + WRITE_BATCH);
    const moves: LinkStatusChange[] = [];
    // Leads moving to the same status are written by one statement (most moves share one).
    const groups = new Map<string, { data: LeadStatus & { statusFinal: boolean }; ids: string[] }>();
    for (const { link, next, final } of batch) {
      const data = { ...next, statusFinal: final };
      const key = JSON.stringify(data);
      const group = groups.get(key) ?? groups.set(key, { data, ids: [] }).get(key)!;
      group.ids.push(link.id);
      const before = statusOf(link);
      if (statusChanged(before, next))
        moves.push({
          link,
          next,
          timeline: { kind: "status_changed", text: statusChangedText(link.leadRef, before, next), data: next },
        });
    }
    const written = await database.transaction(async (tx) => {
      const ids = new Set<string>();
      for (const group of groups.values()) {
        const { data } = group;
        const updated = await tx.all(SET_STATUS, [
          data.confirmationStatus,
          data.shippingStatus,
          data.trackingNumber,
          data.sellerProfit,
          data.statusFinal,
          now,
          now,
          group.ids,
          POSTED_STATES,
        ]);
        for (const row of updated) ids.add(String(row.id));
      }
      // The timeline rows and events of the statuses written, not of a lead reopened meanwhile.
      const kept = moves.filter((m) => ids.has(m.link.id));
      const recorded = statusChangeItems(kept, now);
      for (const item of recorded.items) await tx.run(item.statement, item.params);
      await wakeJobs(tx, await writeBacksOf(tx, batch, recorded.events, now));
      return { rows: ids.size, changed: kept.length };
    });
    rows += written.rows;
    changed += written.changed;
    await yieldToEventLoop();
  }
  return { rows, changed };
}

const SHOP_SETTINGS = statement(`SELECT "domain", "settings" FROM "Shop" WHERE "domain" = ANY(?)`);

/** The write-backs the moved leads wake, in the commit that records them (each shop's toggles read once). */
async function writeBacksOf(
  tx: Sql,
  batch: readonly StatusChange[],
  events: readonly LeadEvent[],
  at: Date,
): Promise<EnqueueJobInput[]> {
  if (events.length === 0) return [];
  const moved = new Set(events.map((e) => e.linkId));
  const after = batch.filter((c) => moved.has(c.link.id)).map(({ link, next }) => ({ ...link, ...next }));
  const shops = await tx.all(SHOP_SETTINGS, [[...new Set(after.map((l) => l.shop))]]);
  return shops.flatMap((row) =>
    writeBackWakes(
      readShopSettings(asString(row.settings)),
      after.filter((l) => l.shop === row.domain),
      at,
    ),
  );
}

/** Stores one lead's new status (a platform event's re-read); true when something changed. */
export async function applyStatus(deps: PipelineDeps, link: OrderLink, next: LeadStatus): Promise<boolean> {
  const change = statusChangeFor(link, next);
  if (!change) return false;
  const { changed } = await writeStatusChanges(deps, [change]);
  return changed > 0;
}

async function withShopClient<T>(
  deps: PipelineDeps,
  domain: string,
  work: (shop: Shop, client: SellerApiClient) => Promise<T>,
): Promise<T | undefined> {
  const shop = await deps.db.shop.findUnique({ where: { domain } });
  if (!shop || shop.uninstalledAt) return undefined;
  let client: SellerApiClient;
  try {
    client = deps.connect(shop).client;
  } catch (error) {
    if (error instanceof ShopNotConnectedError) return undefined;
    throw error;
  }
  try {
    return await work(shop, client);
  } catch (error) {
    const outcome = sellerApiOutcome(error, deps.now());
    if (outcome.kind === "pause-shop") {
      await pauseShop(deps.db, shop, deps.now());
      return undefined;
    }
    // A refused read is retried with the queue's backoff, as any other failure.
    throw outcome.kind === "later" ? jobErrorFor(outcome, error) : error;
  }
}

export async function runSyncStatusesJob(deps: PipelineDeps, job: ClaimedJob): Promise<void> {
  const domain = job.shop;
  if (!domain) return;
  let tracked: number | undefined;
  try {
    await withShopClient(deps, domain, async (shop, client) => {
      const report = await syncShopStatuses(deps, shop, client);
      tracked = report.tracked;
      await deps.db.shop.update({ where: { id: shop.id }, data: { lastStatusSyncAt: deps.now() } });
      // One line per cycle: what polling cost and what it found.
      log.info("status-sync cycle", { shop: domain, ...report });
      recordSyncCycle(report);
    });
  } finally {
    await scheduleNextSync(deps, domain, tracked);
  }
}

/** "refresh-lead": a platform event said this lead changed; read it (never trust the event's payload). */
export async function runRefreshLeadJob(deps: PipelineDeps, job: ClaimedJob): Promise<void> {
  const ref = (job.payload as { ref?: unknown } | null)?.ref;
  if (!job.shop || typeof ref !== "string") return;
  await withShopClient(deps, job.shop, async (shop, client) => {
    const link = await deps.db.orderLink.findFirst({ where: { shop: shop.domain, leadRef: ref } });
    if (!link) return;
    const detail = await client.getLead(ref);
    if (!detail) return;
    await applyStatus(deps, link, {
      confirmationStatus: detail.confirmation_status,
      shippingStatus: detail.shipping_status,
      trackingNumber: detail.tracking_number ?? null,
      sellerProfit: detail.seller_profit ?? null,
    });
  });
}
