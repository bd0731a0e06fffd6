/**
 * When a shop's status sync runs next: its interval (the shop's setting,
 * stretched by its leads in motion and its key's rate) and keeping one sync job
 * per connected shop. Apart from the sync itself, so that the lead-events
 * handlers and the shop's lifecycle can start it without depending on it.
 */
import type { Prisma } from "@prisma/client";
import { enqueueJob, wakeJob } from "../queue/jobs.server";
import { readShopSettings } from "../models/shop-settings";
import { syncJobFor } from "../models/job-kinds";
import type { PipelineDeps } from "./pipeline-deps.server";
import { ensureRetentionScheduled } from "./retention.server";
import { ensureReconcileScheduled } from "./reconcile/schedule.server";
import { ensureOddsFitScheduled } from "../customers/odds-fit.server";

/** Share of a key's calls that polling may plan on: posting comes first. */
const POLLING_SHARE = 0.25;
/** Leads in motion per extra minute between cycles, whatever the key's rate. */
const LEADS_PER_MINUTE_OF_INTERVAL = 5000;
/** With platform events set up, polling is the safety net: this many times rarer. */
const EVENTS_STRETCH = 6;

/**
 * Minutes until the next cycle: the shop's setting, stretched so a cycle's list
 * calls (one per 100 leads in motion) fit in POLLING_SHARE of the key's rate,
 * and with the number of leads in motion; much rarer when events are the
 * primary source. Pure.
 */
export function nextSyncMinutes(input: {
  settingMinutes: number;
  tracked: number;
  ratePerMinute: number | null;
  eventsConfigured: boolean;
}): number {
  const listCalls = Math.ceil(input.tracked / 100);
  const rate = input.ratePerMinute && input.ratePerMinute > 0 ? input.ratePerMinute : 60;
  const byBudget = listCalls / (rate * POLLING_SHARE);
  const byVolume = input.tracked / LEADS_PER_MINUTE_OF_INTERVAL;
  let minutes = Math.max(input.settingMinutes, Math.ceil(Math.max(byBudget, byVolume)));
  if (input.eventsConfigured) minutes *= EVENTS_STRETCH;
  return Math.min(minutes, 24 * 60);
}

/** Keeps one sync job per connected shop, due every statusSyncMinutes (stretched, see nextSyncMinutes). */
export async function scheduleNextSync(deps: PipelineDeps, domain: string, tracked = 0): Promise<void> {
  const shop = await deps.db.shop.findUnique({ where: { domain } });
  if (!shop || shop.uninstalledAt || !shop.sellerApiKeyCipher) return;
  const minutes = nextSyncMinutes({
    settingMinutes: readShopSettings(shop.settings).statusSyncMinutes,
    tracked,
    ratePerMinute: shop.rateLimitPerMinute,
    eventsConfigured: shop.eventsSecretCipher !== null,
  });
  await enqueueJob(deps.db, syncJobFor(domain, new Date(deps.now().getTime() + minutes * 60_000)));
  // Every connected shop also gets its daily clean-up by its retention setting, its reconciliation with Shopify
  // and its daily delivery-odds fit.
  await ensureRetentionScheduled(deps.db, domain, deps.now());
  await ensureReconcileScheduled(deps.db, domain, deps.now());
  await ensureOddsFitScheduled(deps.db, domain, deps.now());
}

/**
 * Makes sure the shop has a sync job coming (first lead created, key verified)
 * without pushing back one already planned.
 */
export async function ensureSyncScheduled(
  db: PipelineDeps["db"] | Prisma.TransactionClient,
  domain: string,
  now: Date,
): Promise<void> {
  // A shop that starts syncing statuses (key verified, first lead) starts its reconciliation with Shopify too.
  await ensureReconcileScheduled(db, domain, now);
  const shop = await db.shop.findUnique({ where: { domain }, select: { settings: true } });
  const minutes = readShopSettings(shop?.settings).statusSyncMinutes;
  await wakeJob(db, syncJobFor(domain, new Date(now.getTime() + minutes * 60_000)));
}
