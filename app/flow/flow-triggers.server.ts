/**
 * Firing the app's Flow triggers: the lead-events handler queues "flow-trigger"
 * jobs for the events of a batch, and the worker sends each with the Admin
 * API's flowTriggerReceive. Never on a webhook's request path; retried through
 * the queue like the write-back; throttling waits for the cost Shopify returned.
 *
 * A trigger is sent only to a shop whose Flow said, through the trigger
 * lifecycle callback, that an enabled workflow uses it (Shopify's guidance:
 * nothing is sent until then), and only while the shop's switch for it is on
 * (Settings). "Lead status changed" is one firing per lead at a time: moves
 * that come while it waits join it (previous status of the first, the latest
 * status), so a burst of moves is one call.
 */
import type { Prisma } from "@prisma/client";
import { z } from "zod";
import type { Db } from "../db.server";
import { shopLinksByIds } from "../models/links-by-id.server";
import { readShopSettings } from "../models/shop-settings";
import { addTimelineRows, timelineRow, type TimelineRow } from "../models/timeline.server";
import { flowRefusedText, flowSentText } from "../models/order-texts";
import { enqueueJobs, enqueueNewJobs, type EnqueueJobInput } from "../queue/jobs.server";
import { ensureTurn } from "../queue/turns.server";
import { PermanentJobError, RetryLaterError } from "../queue/errors";
import type { BatchJobContext, ClaimedJob } from "../queue/types";
import { runAdminGraphql, throwIfUserErrors, type AdminFor } from "../shopify/admin-graphql.server";
import { flowTriggerReceiveMany, flowTriggerReceiveManyVariables } from "../shopify/batched-documents";
import type { City } from "../leads";
import {
  FLOW_TRIGGER,
  mayFire,
  SWITCH_OF,
  triggerFiringsFor,
  type FlowLinkFacts,
  type FlowTriggerHandle,
} from "./triggers";
import { flowStatusTriggerJobFor, flowTriggerJobFor } from "../models/job-kinds";
import { type LeadEvent } from "../models/lead-events";
import { jobErrorFor, shopifyOutcome, throttledInLine, waitForShopifyPoints } from "../models/job-outcomes";
import { asDate, sqlDatabaseOf, sqlOf, statement } from "../db/sql";
import { triggersInUse } from "./trigger-usage.server";
import { ShopifyThrottledError } from "../shopify/errors";
import type { ShopifyBudget } from "../shopify/points-budget";
import { MUTATION_POINTS } from "../shopify/write-back.server";

/** How long a firing waits while the app is uninstalled (a reinstall wakes it at once). */
const UNINSTALLED_WAIT_MS = 6 * 3600_000;

/** How long a "Lead status changed" waits for later moves of the same lead to join it. */
export const STATUS_TRIGGER_DELAY_MS = 3_000;

const HANDLES = new Set<string>(Object.values(FLOW_TRIGGER));

/**
 * A lead's status moves in one batch as one: from the first one's previous
 * status to the last one's, at the last one's time. Other events are kept as they are.
 */
export function joinStatusMoves(events: readonly LeadEvent[]): LeadEvent[] {
  const joined: LeadEvent[] = [];
  const statusAt = new Map<string, number>();
  for (const event of events) {
    const at = event.kind === "status" ? statusAt.get(event.linkId) : undefined;
    if (at === undefined) {
      if (event.kind === "status") statusAt.set(event.linkId, joined.length);
      joined.push(event);
      continue;
    }
    joined[at] = { ...event, before: joined[at].before };
  }
  return joined;
}

/** Lead-events handler: queues the triggers these events fire (see lead-events.server.ts). */
export async function queueFlowTriggers(
  tx: Prisma.TransactionClient,
  shop: string,
  allEvents: LeadEvent[],
): Promise<void> {
  const events = joinStatusMoves(allEvents.filter(mayFire));
  if (events.length === 0) return;
  // Most shops have no workflow on these triggers: one indexed read, and nothing else.
  const inUse = await triggersInUse(tx, shop);
  if (inUse.size === 0) return;
  // Settings alone: the city list is large and most batches need no trigger at all.
  const shopRow = await tx.shop.findUnique({ where: { domain: shop }, select: { settings: true } });
  if (!shopRow) return;
  const switches = readShopSettings(shopRow.settings).flowTriggers;
  const wanted = (handle: FlowTriggerHandle) => switches[SWITCH_OF[handle]] && inUse.has(handle);
  if (![...HANDLES].some((h) => wanted(h as FlowTriggerHandle))) return;

  const ids = [...new Set(events.map((e) => e.linkId))];
  const byId = new Map((await readLinkFacts(tx, shop, ids)).map((link) => [link.id, link]));
  const cityNames = new Map<number, string>();
  if ([...byId.values()].some((link) => link.cityId !== null)) {
    const cities = await tx.shop.findUnique({ where: { domain: shop }, select: { citiesJson: true } });
    for (const city of parseCities(cities?.citiesJson ?? null)) cityNames.set(city.id, city.name);
  }
  const cityName = (id: number | null): string => (id === null ? "" : (cityNames.get(id) ?? ""));

  const once: EnqueueJobInput[] = [];
  const statusMoves: {
    link: FlowLinkFacts & { id: string; orderId: string; leadRef: string };
    payload: Record<string, string | number>;
  }[] = [];
  for (const event of events) {
    const link = byId.get(event.linkId);
    if (!link) continue;
    const facts: FlowLinkFacts = { ...link, cityName: cityName(link.cityId) };
    for (const firing of triggerFiringsFor(event, facts)) {
      if (!wanted(firing.handle)) continue;
      if (firing.handle === FLOW_TRIGGER.leadStatusChanged && link.leadRef)
        statusMoves.push({ link: { ...facts, leadRef: link.leadRef }, payload: firing.payload });
      else once.push(flowTriggerJobFor(shop, link.orderId, link.id, firing.handle, firing.eventKey, firing.payload));
    }
  }
  // One read and one insert for the one-off firings of the whole batch.
  await enqueueNewJobs(tx, once);
  await queueStatusMoves(tx, shop, statusMoves);
}

const WAITING_STATUS_TRIGGERS = statement(
  `SELECT "key", "payload", "runAt" FROM "Job" WHERE "key" = ANY(?) AND "state" IN ('pending', 'failed')`,
);
const PREVIOUS_FIELDS = ["Previous confirmation status", "Previous shipping status"] as const;

/**
 * Each lead's "Lead status changed": a firing still waiting takes the new
 * status and keeps its previous one and its time; otherwise a new firing,
 * STATUS_TRIGGER_DELAY_MS from now (a running one runs again after with this move).
 */
async function queueStatusMoves(
  tx: Prisma.TransactionClient,
  shop: string,
  moves: readonly {
    link: { id: string; orderId: string; leadRef: string };
    payload: Record<string, string | number>;
  }[],
): Promise<void> {
  if (moves.length === 0) return;
  const jobs = moves.map((m) =>
    flowStatusTriggerJobFor(
      shop,
      m.link.orderId,
      m.link.id,
      m.link.leadRef,
      m.payload,
      new Date(Date.now() + STATUS_TRIGGER_DELAY_MS),
    ),
  );
  const sql = sqlOf(tx);
  const waiting = new Map(
    (await sql.all(WAITING_STATUS_TRIGGERS, [jobs.map((j) => j.key)])).map((r) => [
      String(r.key),
      { payload: String(r.payload), runAt: asDate(r.runAt)! },
    ]),
  );
  for (const job of jobs) {
    const earlier = waiting.get(job.key);
    if (earlier) {
      const kept = (JSON.parse(earlier.payload) as { payload?: Record<string, string | number> }).payload ?? {};
      const next = job.payload as { payload: Record<string, string | number> };
      for (const field of PREVIOUS_FIELDS) if (field in kept) next.payload[field] = kept[field];
      job.runAt = earlier.runAt;
    }
  }
  await enqueueJobs(sql, jobs, { shopHasTurn: true });
  await ensureTurn(sql, shop);
}

function readLinkFacts(tx: Prisma.TransactionClient, shop: string, ids: string[]) {
  return shopLinksByIds(tx, shop, ids, {
    id: true,
    orderId: true,
    orderName: true,
    leadRef: true,
    cityId: true,
    totalClient: true,
    reason: true,
    findings: true,
    anomalies: true,
    trackingNumber: true,
    sellerProfit: true,
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

const SHOP_INSTALLED = statement(`SELECT "uninstalledAt" FROM "Shop" WHERE "domain" = ?`);

/** Firings of one shop run together: one claim and one commit for up to this many. */
export const FLOW_TRIGGER_BATCH = 25;

/**
 * The "flow-trigger" jobs of one shop, as a batch (the worker's batch handler):
 * each in line for the shop's points, those whose points are there sent in one
 * request (a flowTriggerReceive each), and their timeline rows and completions
 * in one commit. Gives back the jobs that failed, each with its error.
 */
export async function runFlowTriggerJobs(
  deps: { db: Db; adminFor: AdminFor; shopifyBudget: ShopifyBudget; now: () => Date },
  jobs: readonly ClaimedJob[],
  ctx: Pick<BatchJobContext, "completeIn">,
): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  const database = sqlDatabaseOf(deps.db);
  const shopDomain = jobs[0]?.shop;
  const [shop] = shopDomain ? await database.all(SHOP_INSTALLED, [shopDomain]) : [];
  const done: ClaimedJob[] = [];
  const timeline: TimelineRow[] = [];
  const ready: Firing[] = [];
  const line = { budget: deps.shopifyBudget, nowMs: deps.now().getTime() };
  for (const job of jobs) {
    const parsed = jobPayloadSchema.safeParse(job.payload);
    if (!parsed.success || !job.shop) {
      failures.set(job.id, new PermanentJobError("flow-trigger payload is not valid"));
      continue;
    }
    // The shop is erased: nothing to send.
    if (!shop) {
      done.push(job);
      continue;
    }
    if (asDate(shop.uninstalledAt)) {
      failures.set(
        job.id,
        new RetryLaterError(UNINSTALLED_WAIT_MS, {
          countAttempt: false,
          reason: "The app is not installed: sent to Flow after a reinstall",
        }),
      );
      continue;
    }
    try {
      // In line for the shop's Admin API points (app/shopify/points-budget.ts).
      waitForShopifyPoints(line, job.shop, job.id, FIRING_POINTS);
      ready.push({ job, shop: job.shop, ...parsed.data });
    } catch (error) {
      failures.set(job.id, error);
    }
  }
  for (const [firing, outcome] of await fireAll(deps, ready)) {
    const { job, shop: domain, linkId, handle, payload } = firing;
    if (outcome === "sent") {
      timeline.push(
        timelineRow(domain, linkId, { kind: "flow", text: flowSentText(handle), data: { handle, payload } }),
      );
      done.push(job);
      continue;
    }
    if (outcome instanceof PermanentJobError)
      timeline.push(
        timelineRow(domain, linkId, {
          kind: "flow",
          text: flowRefusedText(handle),
          data: { handle, detail: outcome.message },
        }),
      );
    failures.set(job.id, outcome);
  }
  if (timeline.length > 0 || done.length > 0) {
    await database.transaction(async (tx) => {
      await addTimelineRows(tx, timeline);
      await ctx.completeIn(tx, done);
    });
  }
  return failures;
}

const FIRING_POINTS = { requested: MUTATION_POINTS, charge: MUTATION_POINTS };

interface Firing {
  job: ClaimedJob;
  shop: string;
  linkId: string;
  handle: string;
  payload: Record<string, string | number>;
}

/**
 * The firings in one flowTriggerReceive call each, all in one request (aliases):
 * each firing's outcome, "sent" or the job's error (a PermanentJobError when Flow
 * refused it for good). A failed request fails each firing as a single call would.
 */
async function fireAll(
  deps: { adminFor: AdminFor; shopifyBudget: ShopifyBudget; now: () => Date },
  firings: readonly Firing[],
): Promise<Map<Firing, "sent" | unknown>> {
  const outcomes = new Map<Firing, "sent" | unknown>();
  if (firings.length === 0) return outcomes;
  const shop = firings[0].shop;
  try {
    const admin = await deps.adminFor(shop);
    const data = await runAdminGraphql<Record<string, FlowTriggerReceiveData["flowTriggerReceive"]>>(
      admin,
      flowTriggerReceiveMany(firings.length),
      flowTriggerReceiveManyVariables(firings),
    );
    firings.forEach((firing, i) => {
      try {
        throwIfUserErrors("FlowTriggerReceive", "start the Flow trigger", data[`f${i}`]?.userErrors);
        outcomes.set(firing, "sent");
      } catch (error) {
        outcomes.set(firing, jobErrorFor(shopifyOutcome(error), error));
      }
    });
  } catch (error) {
    const line = { budget: deps.shopifyBudget, nowMs: deps.now().getTime() };
    for (const firing of firings) {
      try {
        if (error instanceof ShopifyThrottledError) throttledInLine(line, shop, firing.job.id, FIRING_POINTS, error);
        outcomes.set(firing, jobErrorFor(shopifyOutcome(error), error));
      } catch (inLine) {
        outcomes.set(firing, inLine);
      }
    }
  }
  return outcomes;
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

export async function recordTriggerUsage(
  db: Db,
  shop: string,
  input: LifecyclePayload,
  now = new Date(),
): Promise<string[]> {
  const id = input.flow_trigger_definition_id;
  const handles = id && HANDLES.has(id) ? [id] : [...HANDLES];
  const notifiedAt = input.timestamp ? new Date(input.timestamp) : now;
  const recorded: string[] = [];
  for (const handle of handles) {
    const kept = await db.flowTriggerUsage.findUnique({
      where: { shop_handle: { shop, handle } },
      select: { notifiedAt: true },
    });
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
