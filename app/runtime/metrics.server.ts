/**
 * The process's metrics in the Prometheus text format (prom-client): what an
 * operator graphs and alerts on. Every label has a small, fixed set of values
 * (topic, job kind, endpoint, status class): no shop, order or lead label, so
 * the series count never grows with the shops; per-shop detail stays in the
 * database and the admin. docs/operations.md says what each family means.
 *
 * One registry per process, on globalThis (server.ts and the Remix build it
 * loads are two copies of this module). The record* functions are what the
 * rest of the app calls: one line at the place where the thing happens.
 */
import client from "prom-client";
import { loopDelayReport } from "./event-loop.server";

const SECONDS_FAST = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SECONDS_CALL = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 30];
const SECONDS_JOB = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const SECONDS_PROMISE = [1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 86400];
const SECONDS_CYCLE = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const LEADS = [0, 10, 100, 500, 1000, 5000, 10000, 50000, 100000];

function createMetrics(registry: client.Registry) {
  const registers = [registry];
  return {
    registry,
    processInfo: new client.Gauge({
      name: "cod_process_info",
      help: "1 per process, labelled with its role (web, worker)",
      labelNames: ["role"],
      registers,
    }),
    webhookAck: new client.Histogram({
      name: "cod_webhook_ack_seconds",
      help: "Time from a webhook's request to its answer, by topic (Shopify gives up after 5 s)",
      labelNames: ["topic"],
      buckets: SECONDS_FAST,
      registers,
    }),
    webhookRequests: new client.Counter({
      name: "cod_webhook_requests_total",
      help: "Webhooks answered, by topic and outcome (accepted, refused, bad_signature, unreadable, too_large, wrong_method, error)",
      labelNames: ["topic", "outcome"],
      registers,
    }),
    intakeOrders: new client.Counter({
      name: "cod_intake_orders_total",
      help: "orders/create deliveries stored, by outcome (new order, redelivered: the same delivery again, known_order: a new delivery of an order already stored)",
      labelNames: ["outcome"],
      registers,
    }),
    httpRequests: new client.Counter({
      name: "cod_http_requests_total",
      help: "HTTP requests answered by the web server other than webhooks, by route group and status class",
      labelNames: ["group", "status"],
      registers,
    }),
    jobs: new client.Counter({
      name: "cod_jobs_total",
      help: "Job attempts ended, by kind and outcome (done, retried, postponed, dead, lost, rerun)",
      labelNames: ["kind", "outcome"],
      registers,
    }),
    jobSeconds: new client.Histogram({
      name: "cod_job_seconds",
      help: "Time one job attempt ran, by kind",
      labelNames: ["kind"],
      buckets: SECONDS_JOB,
      registers,
    }),
    workerLastPoll: new client.Gauge({
      name: "cod_worker_last_poll_timestamp_seconds",
      help: "When this process's worker last looked for a due job without error (unix time)",
      registers,
    }),
    workerPollErrors: new client.Counter({
      name: "cod_worker_poll_errors_total",
      help: "Failed attempts to claim a job (database errors)",
      registers,
    }),
    apiCalls: new client.Counter({
      name: "cod_seller_api_calls_total",
      help: "HTTP attempts to the Seller Order API, by endpoint and status (2xx, 401, 404, 422, 429, 4xx, 5xx, timeout, network)",
      labelNames: ["endpoint", "status"],
      registers,
    }),
    apiCallSeconds: new client.Histogram({
      name: "cod_seller_api_call_seconds",
      help: "Duration of one HTTP attempt to the Seller Order API, by endpoint",
      labelNames: ["endpoint"],
      buckets: SECONDS_CALL,
      registers,
    }),
    rateLimitWaits: new client.Counter({
      name: "cod_rate_limit_waits_total",
      help: "Waits for a key's rate limit: spacing (waited in place for the next slot), rescheduled (the job comes back at its slot), platform_429 (the platform refused a call)",
      labelNames: ["reason"],
      registers,
    }),
    rateLimitWaitSeconds: new client.Counter({
      name: "cod_rate_limit_wait_seconds_total",
      help: "Time waited for a key's rate limit, by reason (as cod_rate_limit_waits_total)",
      labelNames: ["reason"],
      registers,
    }),
    syncCycleSeconds: new client.Histogram({
      name: "cod_status_sync_cycle_seconds",
      help: "Duration of one shop's status-sync cycle",
      buckets: SECONDS_CYCLE,
      registers,
    }),
    syncLeadsTracked: new client.Histogram({
      name: "cod_status_sync_leads_tracked",
      help: "Leads in motion one shop's status-sync cycle checked (sum / count: leads per cycle)",
      buckets: LEADS,
      registers,
    }),
    syncCalls: new client.Counter({
      name: "cod_status_sync_calls_total",
      help: "Seller Order API calls the status sync made, by kind (list, detail)",
      labelNames: ["kind"],
      registers,
    }),
    syncLeadsChanged: new client.Counter({
      name: "cod_status_sync_leads_changed_total",
      help: "Leads whose status the status sync found changed",
      registers,
    }),
    orderToLead: new client.Histogram({
      name: "cod_order_to_lead_seconds",
      help: "Time from an order's arrival (its webhook, or reconciliation) to its lead created on the platform",
      buckets: SECONDS_PROMISE,
      registers,
    }),
    statusToShopify: new client.Histogram({
      name: "cod_status_to_shopify_seconds",
      help: "Time from a lead's status change seen on the platform (status sync or event) to the Shopify order updated",
      buckets: SECONDS_PROMISE,
      registers,
    }),
    shopsPausedEvents: new client.Counter({
      name: "cod_shop_pauses_total",
      help: "Shops paused by this process, by reason (key_rejected: the platform answered 401)",
      labelNames: ["reason"],
      registers,
    }),
    reconcileRecovered: new client.Counter({
      name: "cod_reconcile_recovered_total",
      help: "Orders reconciliation found in Shopify that no webhook had brought",
      registers,
    }),
    loopDelay: new client.Gauge({
      name: "cod_event_loop_delay_seconds",
      help: "Event-loop delay over the last 10-20 s (the current and previous 10 s windows), by quantile (0.99, 1 = max)",
      labelNames: ["quantile"],
      registers,
      collect() {
        const { current, previous } = loopDelayReport();
        const windows = previous ? [current, previous] : [current];
        this.set({ quantile: "0.99" }, Math.max(...windows.map((w) => w.p99Ms)) / 1000);
        this.set({ quantile: "1" }, Math.max(...windows.map((w) => w.maxMs)) / 1000);
      },
    }),
  };
}

type Metrics = ReturnType<typeof createMetrics>;

declare global {
  var __codLeadSyncMetrics: Metrics | undefined;
}

/** This process's metrics (made on first use, with Node's own: heap, RSS, GC, handles). */
export function metrics(): Metrics {
  let current = globalThis.__codLeadSyncMetrics;
  if (!current) {
    const registry = new client.Registry();
    // prom-client's own event-loop lag (nodejs_eventloop_lag_*) samples every 10 ms by default, a second
    // monitor beside ours (cod_event_loop_delay_seconds) that woke every process 100 times a second: once a second.
    client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 1_000 });
    current = createMetrics(registry);
    globalThis.__codLeadSyncMetrics = current;
  }
  return current;
}

export const METRICS_CONTENT_TYPE = client.Registry.PROMETHEUS_CONTENT_TYPE;

/** The scrape: every family of this process in the Prometheus text format. */
export function renderMetrics(): Promise<string> {
  return metrics().registry.metrics();
}

// ---- what the app records ----

export function recordProcessRole(role: string): void {
  metrics().processInfo.set({ role }, 1);
}

export type WebhookOutcome =
  "accepted" | "refused" | "bad_signature" | "unreadable" | "too_large" | "wrong_method" | "error";

/** The outcome a webhook's answer stands for. */
export function webhookOutcome(status: number): WebhookOutcome {
  if (status >= 200 && status < 300) return "accepted";
  if (status === 401) return "bad_signature";
  if (status === 405) return "wrong_method";
  if (status === 413) return "too_large";
  if (status === 422) return "unreadable";
  if (status >= 500) return "error";
  return "refused";
}

export function recordWebhook(topic: string, status: number, seconds: number): void {
  const m = metrics();
  m.webhookAck.observe({ topic }, seconds);
  m.webhookRequests.inc({ topic, outcome: webhookOutcome(status) });
}

/** One committed group of orders/create deliveries: `deliveries` and `orders` are the rows it inserted. */
export function recordOrdersStored(received: number, deliveries: number, orders: number): void {
  const m = metrics().intakeOrders;
  if (orders > 0) m.inc({ outcome: "new" }, orders);
  if (deliveries - orders > 0) m.inc({ outcome: "known_order" }, deliveries - orders);
  if (received - deliveries > 0) m.inc({ outcome: "redelivered" }, received - deliveries);
}

export const statusClass = (status: number): string =>
  status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "other";

export function recordHttpRequest(group: string, status: number): void {
  metrics().httpRequests.inc({ group, status: statusClass(status) });
}

export type JobOutcomeLabel = "done" | "retried" | "postponed" | "dead" | "lost" | "rerun";

export function recordJob(kind: string, outcome: JobOutcomeLabel, seconds: number | null): void {
  const m = metrics();
  m.jobs.inc({ kind, outcome });
  if (seconds !== null) m.jobSeconds.observe({ kind }, seconds);
}

export function recordWorkerPoll(error?: unknown): void {
  const m = metrics();
  if (error === undefined) m.workerLastPoll.set(Date.now() / 1000);
  else m.workerPollErrors.inc();
}

/** "/v1/leads/ATB-1?x" -> "/v1/leads/:ref": the endpoint as a label with a fixed set of values. */
export function endpointLabel(method: string, path: string): string {
  const bare = path.split("?")[0].replace(/\/+$/, "");
  const known = /^\/v1\/(me|leads|products|cities)(\/[^/]+)?$/.exec(bare);
  if (!known) return `${method} other`;
  return `${method} /v1/${known[1]}${known[2] ? "/:ref" : ""}`;
}

/** 429 and 5xx apart; 401 (key refused), 404 and 422 named; no answer as timeout or network. */
export function apiStatusLabel(status: number | null, error?: string): string {
  if (status === null || status === 0) return error === "timeout" ? "timeout" : "network";
  if ([401, 404, 422, 429].includes(status)) return String(status);
  return statusClass(status);
}

export function recordSellerApiCall(call: {
  method: string;
  path: string;
  status: number | null;
  durationMs: number;
  error?: string;
}): void {
  const m = metrics();
  const endpoint = endpointLabel(call.method, call.path);
  const status = apiStatusLabel(call.status, call.error);
  m.apiCalls.inc({ endpoint, status });
  m.apiCallSeconds.observe({ endpoint }, call.durationMs / 1000);
  if (status === "429") m.rateLimitWaits.inc({ reason: "platform_429" });
}

export type RateLimitWaitReason = "spacing" | "rescheduled";

export function recordRateLimitWait(reason: RateLimitWaitReason, waitMs: number): void {
  const m = metrics();
  m.rateLimitWaits.inc({ reason });
  m.rateLimitWaitSeconds.inc({ reason }, Math.max(0, waitMs) / 1000);
}

export function recordSyncCycle(report: {
  tracked: number;
  listCalls: number;
  detailCalls: number;
  updated: number;
  wallMs: number;
}): void {
  const m = metrics();
  m.syncCycleSeconds.observe(report.wallMs / 1000);
  m.syncLeadsTracked.observe(report.tracked);
  m.syncCalls.inc({ kind: "list" }, report.listCalls);
  m.syncCalls.inc({ kind: "detail" }, report.detailCalls);
  m.syncLeadsChanged.inc(report.updated);
}

/** A lead created: `since` is when its order arrived. */
export function recordOrderToLead(since: Date, now: Date = new Date()): void {
  metrics().orderToLead.observe(Math.max(0, now.getTime() - since.getTime()) / 1000);
}

/** A Shopify order brought in line with its lead: `seenAt` is when the status change was seen. */
export function recordStatusToShopify(seenAt: Date | null, now: Date = new Date()): void {
  if (seenAt) metrics().statusToShopify.observe(Math.max(0, now.getTime() - seenAt.getTime()) / 1000);
}

export function recordShopPaused(reason: string): void {
  metrics().shopsPausedEvents.inc({ reason });
}

/** Reconciliation calls this with the orders it brought in that no webhook had (0 adds nothing). */
export function recordReconcileRecovered(count: number): void {
  if (count > 0) metrics().reconcileRecovered.inc(count);
}
