/**
 * The "sync-statuses" job, per shop every few minutes: page GET /v1/leads
 * newest first down to the oldest lead still in motion, update what changed,
 * and GET a lead's detail only when the list lacks what the merchant needs
 * (tracking number once shipped, seller profit once delivered).
 */
import type { OrderLink, Prisma, Shop } from "@prisma/client";
import { enqueueJob, type EnqueueJobInput } from "../queue/jobs.server";
import { RetryLaterError } from "../queue/errors";
import type { ClaimedJob } from "../queue/types";
import { readShopSettings } from "../models/shop-settings";
import { addTimeline } from "../models/timeline.server";
import { AuthenticationError, RateLimitError, type SellerApiClient } from "../seller-api";
import { isFinalStatus, needsDetail, statusChanged, type LeadStatus } from "./lead-status";
import type { PipelineDeps } from "./pipeline-deps.server";
import { ShopNotConnectedError } from "./seller-connection.server";
import { RateLimitWaitError } from "./db-rate-limiter.server";
import { pauseShop } from "./shop-pause.server";
import { writeBackJobFor } from "./write-back-job.server";
import { ensureRetentionScheduled } from "./retention.server";

export const SYNC_STATUSES_JOB = "sync-statuses";
export const REFRESH_LEAD_JOB = "refresh-lead";

export function syncJobFor(shop: string, runAt: Date): EnqueueJobInput {
  return { kind: SYNC_STATUSES_JOB, key: `${SYNC_STATUSES_JOB}:${shop}`, shop, runAt, payload: {} };
}

export function refreshLeadJobFor(shop: string, ref: string): EnqueueJobInput {
  return { kind: REFRESH_LEAD_JOB, key: `${REFRESH_LEAD_JOB}:${shop}:${ref}`, shop, payload: { ref } };
}

export interface SyncReport {
  tracked: number;
  listCalls: number;
  detailCalls: number;
  updated: number;
}

const statusOf = (link: OrderLink): LeadStatus => ({
  confirmationStatus: link.confirmationStatus,
  shippingStatus: link.shippingStatus,
  trackingNumber: link.trackingNumber,
  sellerProfit: link.sellerProfit,
});

/** One sync cycle for one shop. Pure of scheduling: runSyncStatusesJob wraps it. */
export async function syncShopStatuses(deps: PipelineDeps, shop: Shop, client: SellerApiClient): Promise<SyncReport> {
  const { db } = deps;
  const tracked = await db.orderLink.findMany({
    where: { shop: shop.domain, statusFinal: false, leadRef: { not: null }, state: { in: ["created", "damaged"] } },
  });
  const report: SyncReport = { tracked: tracked.length, listCalls: 0, detailCalls: 0, updated: 0 };
  if (tracked.length === 0) return report;

  const byRef = new Map(tracked.map((l) => [l.leadRef!, l]));
  const oldest = tracked.reduce((min, l) => Math.min(min, (l.postedAt ?? l.createdAt).getTime()), Infinity);
  // A day of margin: `since` is a calendar day in the platform's time zone.
  const since = new Date(oldest - 24 * 3600 * 1000).toISOString().slice(0, 10);
  const seen = new Map<string, Partial<LeadStatus>>();
  for await (const page of client.listLeads({ since, limit: 100 }).pages()) {
    report.listCalls++;
    for (const lead of page.leads) {
      if (byRef.has(lead.ref)) {
        seen.set(lead.ref, { confirmationStatus: lead.confirmation_status, shippingStatus: lead.shipping_status });
      }
    }
    if (seen.size === byRef.size) break;
  }

  for (const [ref, link] of byRef) {
    let next: LeadStatus = { ...statusOf(link), ...(seen.get(ref) ?? {}) };
    if (needsDetail(next)) {
      const detail = await client.getLead(ref);
      report.detailCalls++;
      if (detail) {
        next = {
          confirmationStatus: detail.confirmation_status,
          shippingStatus: detail.shipping_status,
          trackingNumber: detail.tracking_number ?? null,
          sellerProfit: detail.seller_profit ?? null,
        };
      }
    }
    if (await applyStatus(deps, link, next)) report.updated++;
  }
  return report;
}

/** Stores a lead's new status; true when something changed (then write-back is queued). */
export async function applyStatus(deps: PipelineDeps, link: OrderLink, next: LeadStatus): Promise<boolean> {
  const before = statusOf(link);
  const now = deps.now();
  const final = isFinalStatus(next) && !needsDetail(next);
  if (!statusChanged(before, next)) {
    await deps.db.orderLink.update({ where: { id: link.id }, data: { statusCheckedAt: now, statusFinal: final } });
    return false;
  }
  await deps.db.$transaction(async (tx) => {
    await tx.orderLink.update({ where: { id: link.id }, data: { ...next, statusCheckedAt: now, statusFinal: final } });
    const parts = [
      next.confirmationStatus !== before.confirmationStatus ? `confirmation ${before.confirmationStatus ?? "-"} → ${next.confirmationStatus}` : null,
      next.shippingStatus !== before.shippingStatus ? `shipping ${before.shippingStatus ?? "-"} → ${next.shippingStatus}` : null,
      next.trackingNumber && next.trackingNumber !== before.trackingNumber ? `tracking number ${next.trackingNumber}` : null,
      next.sellerProfit && next.sellerProfit !== before.sellerProfit ? `seller profit ${next.sellerProfit} MAD` : null,
    ].filter(Boolean);
    await addTimeline(tx, link.shop, link.id, {
      kind: "status_changed",
      message: `Lead ${link.leadRef}: ${parts.join(", ")}`,
      data: next,
      at: now,
    });
    await enqueueJob(tx, writeBackJobFor(link.shop, link.orderId, link.id));
  });
  return true;
}

async function withShopClient<T>(deps: PipelineDeps, domain: string, work: (shop: Shop, client: SellerApiClient) => Promise<T>): Promise<T | undefined> {
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
    if (error instanceof AuthenticationError) {
      await pauseShop(deps.db, shop, deps.now());
      return undefined;
    }
    if (error instanceof RateLimitError) {
      throw new RetryLaterError(error.retryAfterMs, { countAttempt: false, reason: "rate limit reached" });
    }
    if (error instanceof RateLimitWaitError) {
      throw new RetryLaterError(new Date(error.untilMs), { countAttempt: false, reason: "rate limit reached" });
    }
    throw error;
  }
}

export async function runSyncStatusesJob(deps: PipelineDeps, job: ClaimedJob): Promise<void> {
  const domain = job.shop;
  if (!domain) return;
  try {
    await withShopClient(deps, domain, async (shop, client) => {
      await syncShopStatuses(deps, shop, client);
      await deps.db.shop.update({ where: { id: shop.id }, data: { lastStatusSyncAt: deps.now() } });
    });
  } finally {
    await scheduleNextSync(deps, domain);
  }
}

/** Keeps one sync job per connected shop, due every statusSyncMinutes. */
export async function scheduleNextSync(deps: PipelineDeps, domain: string): Promise<void> {
  const shop = await deps.db.shop.findUnique({ where: { domain } });
  if (!shop || shop.uninstalledAt || !shop.sellerApiKeyCipher) return;
  const minutes = readShopSettings(shop.settings).statusSyncMinutes;
  await enqueueJob(deps.db, syncJobFor(domain, new Date(deps.now().getTime() + minutes * 60_000)));
  // Every connected shop also gets its daily clean-up by its retention setting.
  await ensureRetentionScheduled(deps.db, domain, deps.now());
}

/**
 * Makes sure the shop has a sync job coming (first lead created, key verified)
 * without pushing back one already planned.
 */
export async function ensureSyncScheduled(db: PipelineDeps["db"] | Prisma.TransactionClient, domain: string, now: Date): Promise<void> {
  const existing = await db.job.findUnique({ where: { key: `${SYNC_STATUSES_JOB}:${domain}` }, select: { state: true } });
  if (existing && existing.state !== "done" && existing.state !== "dead") return;
  const shop = await db.shop.findUnique({ where: { domain }, select: { settings: true } });
  const minutes = readShopSettings(shop?.settings).statusSyncMinutes;
  await enqueueJob(db, syncJobFor(domain, new Date(now.getTime() + minutes * 60_000)));
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
