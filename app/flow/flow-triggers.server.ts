/**
 * Firing the app's Flow triggers: the lead-events handler queues one "flow-trigger"
 * job per (order, event) inside the transaction that recorded the change, and the
 * worker sends it with the Admin API's flowTriggerReceive. Never on a webhook's
 * request path; retried through the queue like the write-back; throttling waits for
 * the cost Shopify returned.
 *
 * A trigger is queued when the shop's switch for it is on (Settings, on by default),
 * unless Flow's trigger lifecycle callback said that no enabled workflow uses it.
 */
import type { Prisma } from "@prisma/client";
import { z } from "zod";
import type { Db } from "../db.server";
import { shopLinksByIds } from "../models/links-by-id.server";
import { readShopSettings } from "../models/shop-settings";
import { addTimeline } from "../models/timeline.server";
import { flowRefusedText, flowSentText } from "../models/order-texts";
import { enqueueNewJobs, type EnqueueJobInput } from "../queue/jobs.server";
import { PermanentJobError, RetryLaterError } from "../queue/errors";
import type { ClaimedJob } from "../queue/types";
import { runAdminGraphql, throwIfUserErrors, type AdminFor } from "../shopify/admin-graphql.server";
import { FLOW_TRIGGER_RECEIVE } from "../shopify/documents";
import type { City } from "../leads";
import { FLOW_TRIGGER, mayFire, SWITCH_OF, triggerFiringsFor, type FlowLinkFacts, type FlowTriggerHandle } from "./triggers";
import { flowTriggerJobFor } from "../models/job-kinds";
import { type LeadEvent } from "../models/lead-events";
import { jobErrorFor, shopifyOutcome } from "../models/job-outcomes";

/** How long a firing waits while the app is uninstalled (a reinstall wakes it at once). */
const UNINSTALLED_WAIT_MS = 6 * 3600_000;

const HANDLES = new Set<string>(Object.values(FLOW_TRIGGER));

/** The triggers Flow said no enabled workflow of the shop uses (lifecycle callback). */
async function triggersUnused(tx: Prisma.TransactionClient, shop: string): Promise<Set<string>> {
  const rows = await tx.flowTriggerUsage.findMany({ where: { shop, hasEnabledFlow: false }, select: { handle: true } });
  return new Set(rows.map((r) => r.handle));
}

/** Lead-events handler: queues the triggers these events fire (see lead-events.server.ts). */
export async function queueFlowTriggers(tx: Prisma.TransactionClient, shop: string, allEvents: LeadEvent[]): Promise<void> {
  const events = allEvents.filter(mayFire);
  if (events.length === 0) return;
  // Settings alone: the city list is large and most batches need no trigger at all.
  const shopRow = await tx.shop.findUnique({ where: { domain: shop }, select: { settings: true } });
  if (!shopRow) return;
  const switches = readShopSettings(shopRow.settings).flowTriggers;
  if (!Object.values(switches).some(Boolean)) return;
  const unused = await triggersUnused(tx, shop);
  const wanted = (handle: FlowTriggerHandle) => switches[SWITCH_OF[handle]] && !unused.has(handle);

  const ids = [...new Set(events.map((e) => e.linkId))];
  // shopLinksByIds reads in pages under SQLite's 999 bound parameters per statement.
  const byId = new Map((await readLinkFacts(tx, shop, ids)).map((link) => [link.id, link]));
  const cityNames = new Map<number, string>();
  if ([...byId.values()].some((link) => link.cityId !== null)) {
    const cities = await tx.shop.findUnique({ where: { domain: shop }, select: { citiesJson: true } });
    for (const city of parseCities(cities?.citiesJson ?? null)) cityNames.set(city.id, city.name);
  }
  const cityName = (id: number | null): string => (id === null ? "" : (cityNames.get(id) ?? ""));

  const jobs: EnqueueJobInput[] = [];
  for (const event of events) {
    const link = byId.get(event.linkId);
    if (!link) continue;
    const facts: FlowLinkFacts = { ...link, cityName: cityName(link.cityId) };
    for (const firing of triggerFiringsFor(event, facts)) {
      if (!wanted(firing.handle)) continue;
      jobs.push(flowTriggerJobFor(shop, link.orderId, link.id, firing.handle, firing.eventKey, firing.payload));
    }
  }
  // One read and one insert for the whole batch (a sync batch carries hundreds of events).
  await enqueueNewJobs(tx, jobs);
}

function readLinkFacts(tx: Prisma.TransactionClient, shop: string, ids: string[]) {
  return shopLinksByIds(tx, shop, ids, {
    id: true, orderId: true, orderName: true, leadRef: true, cityId: true, totalClient: true, reason: true, findings: true, anomalies: true, trackingNumber: true, sellerProfit: true,
  });
}

function parseCities(json: string | null): City[] {
  try {
    const list = json ? (JSON.parse(json) as unknown) : [];
    return Array.isArray(list) ? (list as City[]) : [];
  } catch {
    return [];
  }
}

const jobPayloadSchema = z.object({
  linkId: z.string().min(1),
  handle: z.string().refine((h) => HANDLES.has(h)),
  payload: z.record(z.union([z.string(), z.number()])),
});

interface FlowTriggerReceiveData {
  flowTriggerReceive: { userErrors: { field?: string[] | null; message: string }[] } | null;
}

/** The "flow-trigger" job: one flowTriggerReceive call, recorded on the order's timeline. */
export async function runFlowTriggerJob(deps: { db: Db; adminFor: AdminFor }, job: ClaimedJob): Promise<void> {
  const parsed = jobPayloadSchema.safeParse(job.payload);
  if (!parsed.success || !job.shop) throw new PermanentJobError("flow-trigger payload is not valid");
  const { linkId, handle, payload } = parsed.data;
  const shop = await deps.db.shop.findUnique({ where: { domain: job.shop }, select: { uninstalledAt: true } });
  if (!shop) return;
  if (shop.uninstalledAt) throw new RetryLaterError(UNINSTALLED_WAIT_MS, { countAttempt: false, reason: "The app is not installed: sent to Flow after a reinstall" });
  const admin = await deps.adminFor(job.shop);
  try {
    const data = await runAdminGraphql<FlowTriggerReceiveData>(admin, FLOW_TRIGGER_RECEIVE, { handle, payload });
    throwIfUserErrors("FlowTriggerReceive", "start the Flow trigger", data.flowTriggerReceive?.userErrors);
  } catch (error) {
    const outcome = shopifyOutcome(error);
    if (outcome.kind === "permanent") {
      await addTimeline(deps.db, job.shop, linkId, { kind: "flow", text: flowRefusedText(handle), data: { handle, detail: outcome.reason } });
    }
    throw jobErrorFor(outcome, error);
  }
  await addTimeline(deps.db, job.shop, linkId, { kind: "flow", text: flowSentText(handle), data: { handle, payload } });
}

/**
 * Flow's trigger lifecycle callback: whether the shop has an enabled workflow that
 * starts with one of our triggers (`flow_trigger_definition_id`, our handle). An id we
 * do not know applies to all of them; an older notification than the one kept is ignored.
 */
export const lifecyclePayloadSchema = z.object({
  shopify_domain: z.string().min(1),
  flow_trigger_definition_id: z.string().optional(),
  has_enabled_flow: z.boolean(),
  timestamp: z.string().datetime({ offset: true }).optional(),
});
export type LifecyclePayload = z.infer<typeof lifecyclePayloadSchema>;

export async function recordTriggerUsage(db: Db, shop: string, input: LifecyclePayload, now = new Date()): Promise<string[]> {
  const id = input.flow_trigger_definition_id;
  const handles = id && HANDLES.has(id) ? [id] : [...HANDLES];
  const notifiedAt = input.timestamp ? new Date(input.timestamp) : now;
  const recorded: string[] = [];
  for (const handle of handles) {
    const kept = await db.flowTriggerUsage.findUnique({ where: { shop_handle: { shop, handle } }, select: { notifiedAt: true } });
    if (kept && kept.notifiedAt > notifiedAt) continue;
    await db.flowTriggerUsage.upsert({
      where: { shop_handle: { shop, handle } },
      create: { shop, handle, hasEnabledFlow: input.has_enabled_flow, notifiedAt },
      update: { hasEnabledFlow: input.has_enabled_flow, notifiedAt },
    });
    recorded.push(handle);
  }
  return recorded;
}
