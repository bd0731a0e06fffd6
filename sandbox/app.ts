/**
 * HTTP layer: the public contract under /v1 and the control API under /_sandbox.
 * Order of checks on /v1: authentication (401), rate limit (429), injected faults
 * (500, latency, hang), then the endpoint (400, 422, 404, 200/201/202).
 */
import type { HttpBindings } from "@hono/node-server";
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { SandboxClock } from "./clock";
import { configPatchSchema } from "./config";
import {
  ApiError,
  InjectedFaultError,
  InvalidBodyError,
  NotFoundError,
  RateLimitError,
  UnauthorizedError,
  ValidationError,
} from "./errors";
import type { Autopilot } from "./autopilot";
import type { EventDispatcher } from "./events";
import { extractKey, KEY_PREFIX } from "./keys";
import { parseCity, parseItems, parsePhone, parseTotal, parseLeadInput } from "./lead-input";
import { CONFIRMATION_STATUSES, SHIPPING_STATUSES } from "./lifecycle";
import { parseListQuery } from "./list-query";
import { retryAfterSeconds, takeCall } from "./rate-limit";
import { API_VERSION, CALL_LOG_LIMIT, type CorrectionPatch, type KeyRecord, type SandboxStore } from "./store";
import { controlLead, leadDetail, leadListElement } from "./views";

export interface SandboxRuntime {
  store: SandboxStore;
  clock: SandboxClock;
  events: EventDispatcher;
  autopilot: Autopilot;
  /** release callbacks of requests held open by the hang fault */
  hanging: Set<() => void>;
  random: () => number;
  /** diagnostics (silenced by the quiet option) */
  log: (...args: unknown[]) => void;
}

type Env = { Bindings: HttpBindings; Variables: { key: KeyRecord } };

const isoNow = (rt: SandboxRuntime) => new Date(rt.clock.now()).toISOString();

function errorResponse(c: Context, err: ApiError): Response {
  if (err instanceof RateLimitError) c.header("Retry-After", String(err.retryAfterSeconds));
  if (err instanceof UnauthorizedError) c.header("WWW-Authenticate", 'Bearer realm="seller-order-api"');
  return c.json(err.toBody(), err.status);
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof z.ZodError) {
    const issue = err.issues[0];
    return new ValidationError(issue.path.join(".") || "body", issue.message);
  }
  return new ApiError(500, "internal_error", "Unexpected sandbox error.");
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

export function createApp(rt: SandboxRuntime): Hono<Env> {
  const app = new Hono<Env>();

  app.use("*", async (c, next) => {
    c.header("X-Api-Version", API_VERSION);
    await next();
  });
  app.onError((err, c) => {
    const apiError = toApiError(err);
    if (apiError.status === 500 && !(err instanceof ApiError)) rt.log("unexpected error", err);
    return errorResponse(c, apiError);
  });
  app.notFound((c) => errorResponse(c, new NotFoundError(`No route ${c.req.method} ${c.req.path}.`)));

  app.route("/v1", publicApi(rt));
  app.route("/_sandbox", controlApi(rt));
  return app;
}

function publicApi(rt: SandboxRuntime): Hono<Env> {
  const v1 = new Hono<Env>();
  const { store } = rt;

  v1.use("*", async (c, next) => {
    const key = extractKey(c.req.header("authorization"), c.req.header("x-api-key"));
    const record = key?.startsWith(KEY_PREFIX) ? store.findKey(key) : null;
    const early = await gate(rt, c, record);
    if (!early) await next();
    // Calls with a known key are logged, revoked ones included: the seller sees who still uses it.
    if (record) {
      const query = c.req.url.indexOf("?");
      const path = c.req.path + (query < 0 ? "" : c.req.url.slice(query));
      store.recordCall(record, { method: c.req.method, path, status: (early ?? c.res).status, at: isoNow(rt) });
    }
    return early ?? undefined;
  });

  v1.get("/me", (c) => c.json({ data: store.me(c.get("key")) }));
  v1.get("/products", (c) => c.json({ data: store.products(c.get("key").account) }));
  v1.get("/cities", (c) => c.json({ data: store.cities() }));

  v1.post("/leads", async (c) => {
    const contentType = c.req.header("content-type") ?? "";
    if (!/^application\/json\s*(;|$)/i.test(contentType))
      throw new InvalidBodyError("Content-Type must be application/json.");
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      throw new InvalidBodyError("The body is not valid JSON.");
    }
    const input = parseLeadInput(body);
    const lead = store.createLead(c.get("key"), input, rt.clock.now());
    c.header("Location", `/v1/leads/${encodeURIComponent(lead.ref)}`);
    return c.json({ data: leadListElement(lead) }, lead.damaged ? 202 : 201);
  });

  v1.get("/leads", (c) => {
    const query = parseListQuery(c.req.query());
    const page = store.listLeads(c.get("key").account, query);
    return c.json({ data: page.leads.map(leadListElement), next_before: page.next_before });
  });

  v1.get("/leads/:ref", (c) => c.json({ data: leadDetail(store.leadOf(c.get("key").account, c.req.param("ref"))) }));
  return v1;
}

/** Authentication, rate limit and faults: a response ends the call here, null lets it through. */
async function gate(rt: SandboxRuntime, c: Context<Env>, record: KeyRecord | null): Promise<Response | null> {
  if (!record || record.revoked_at !== null) return errorResponse(c, new UnauthorizedError());
  c.set("key", record);
  const limit = rt.store.config.rate_limit_per_minute;
  const decision = takeCall(record.rate, rt.clock.now(), limit);
  c.header("X-RateLimit-Limit", String(limit));
  if (!decision.allowed) return errorResponse(c, new RateLimitError(retryAfterSeconds(decision.retryAfterMs)));
  c.header("X-RateLimit-Remaining", String(decision.remaining));
  return injectFault(rt, c);
}

/** Faults apply after authentication and rate limiting, and before any side effect. */
async function injectFault(rt: SandboxRuntime, c: Context<Env>): Promise<Response | null> {
  const { error_rate, latency_ms, hang_rate } = rt.store.config.fault;
  if (latency_ms > 0) {
    // As a platform behind a proxy: a request it has received is carried out even when the client gives up while
    // it waits, so a slow POST's lead is stored after a client's timeout. Hono keeps the body for the handler.
    if (c.req.method === "POST") await c.req.text().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, latency_ms));
  }
  if (hang_rate > 0 && rt.random() < hang_rate) {
    // Held until the client gives up or the sandbox closes; the answer then goes nowhere.
    await new Promise<void>((resolve) => {
      const release = () => {
        rt.hanging.delete(release);
        resolve();
      };
      rt.hanging.add(release);
      c.req.raw.signal.addEventListener("abort", release, { once: true });
    });
    return errorResponse(c, new InjectedFaultError(isoNow(rt)));
  }
  if (error_rate > 0 && rt.random() < error_rate) return errorResponse(c, new InjectedFaultError(isoNow(rt)));
  return null;
}

const createKeySchema = z.object({
  account: z.string().min(1),
  name: z.string().min(1),
  store: z.string().min(1).nullable().optional(),
});
const advanceSchema = z
  .object({
    confirmation_status: z.enum(CONFIRMATION_STATUSES),
    shipping_status: z.enum(SHIPPING_STATUSES),
    tracking_number: z.string().min(1),
  })
  .partial();
const clockSchema = z.object({ advance_seconds: z.number().nonnegative() });

async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidBodyError("The body is not valid JSON.");
  }
}

/** The same field checks as lead creation, for the fields a correction may change. */
function parseCorrection(body: unknown): CorrectionPatch {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new ValidationError("body", "The body must be a JSON object.");
  const b = body as Record<string, unknown>;
  const patch: CorrectionPatch = {};
  if (b.customer_name !== undefined) {
    if (typeof b.customer_name !== "string" || b.customer_name.trim() === "")
      throw new ValidationError("customer_name", "customer_name must be a non-empty string.");
    patch.customer_name = b.customer_name;
  }
  if (b.customer_phone !== undefined) patch.customer_phone = parsePhone(b.customer_phone);
  if (b.city !== undefined) patch.city = parseCity(b.city) ?? undefined;
  if (b.total_client !== undefined) patch.total_client = parseTotal(b.total_client) ?? undefined;
  if (b.items !== undefined) patch.items = parseItems(b.items);
  if (b.address !== undefined) {
    if (b.address !== null && typeof b.address !== "string")
      throw new ValidationError("address", "address must be a string.");
    patch.address = b.address;
  }
  return patch;
}

function keyView(record: KeyRecord) {
  return {
    id: record.id,
    account: record.account,
    name: record.name,
    store: record.store,
    created_at: record.created_at,
    revoked_at: record.revoked_at,
    last_used_at: record.last_used_at,
    calls: record.calls.slice(-CALL_LOG_LIMIT),
  };
}

function controlApi(rt: SandboxRuntime): Hono<Env> {
  const control = new Hono<Env>();
  const { store, clock } = rt;

  control.use("*", async (c, next) => {
    // Loopback only, whatever address the server is bound to.
    if (!isLoopback(c.env?.incoming?.socket?.remoteAddress)) {
      return c.json({ error: { code: "forbidden", message: "The control API answers loopback callers only." } }, 403);
    }
    await next();
  });

  control.post("/reset", (c) => {
    rt.events.reset();
    rt.autopilot.clear();
    return c.json({ keys: store.reset(clock.now()) });
  });

  control.post("/keys", async (c) => {
    const body = createKeySchema.parse(await jsonBody(c));
    return c.json(store.createKey(body.account, body.name, body.store ?? null, clock.now()), 201);
  });
  control.get("/keys/:id", (c) => c.json(keyView(store.keyById(c.req.param("id")))));
  control.post("/keys/:id/revoke", (c) => c.json(keyView(store.revokeKey(c.req.param("id"), clock.now()))));

  control.get("/config", (c) => c.json(store.config));
  control.put("/config", async (c) => {
    const config = store.updateConfig(configPatchSchema.parse(await jsonBody(c)));
    return c.json(config);
  });

  control.get("/leads", (c) => c.json({ leads: store.allLeads(c.req.query("account") ?? null).map(controlLead) }));
  control.post("/leads/:ref/advance", async (c) => {
    const change = advanceSchema.parse(await jsonBody(c));
    return c.json(controlLead(store.advance(c.req.param("ref"), change, clock.now())));
  });
  control.post("/leads/:ref/correct", async (c) => {
    const patch = parseCorrection(await jsonBody(c));
    return c.json(controlLead(store.correct(c.req.param("ref"), patch, clock.now())));
  });

  control.get("/clock", (c) => c.json({ now: new Date(clock.now()).toISOString() }));
  control.post("/clock", async (c) => {
    const { advance_seconds } = clockSchema.parse(await jsonBody(c));
    return c.json({ now: new Date(clock.advance(advance_seconds)).toISOString() });
  });

  control.get("/events", (c) => c.json({ deliveries: rt.events.deliveries() }));
  return control;
}
