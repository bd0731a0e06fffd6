/**
 * A stand-in for TikTok's Events API 2.0 (Marketing API v1.3) on loopback:
 * POST /open_api/v1.3/event/track/, checked against the published fields
 * (event_source, event_source_id, data[] of at most 1,000 events: event,
 * event_time in seconds, event_id, user with SHA-256 email / phone /
 * external_id and raw ttclid, ttp, ip, user_agent; properties; page.url for web
 * events) and answered as TikTok answers: HTTP 200 with
 * { code, message, request_id, data }, code 0 when accepted.
 *
 * Return codes: 40001 no permission (a token for another pixel), 40002
 * invalid parameter, 40100 too many requests, 40104 no access token, 40105
 * invalid access token, 50000 system error. TikTok states no maximum age for web
 * events in the references we have; this stand-in refuses an event_time over
 * 7 days old (40002), the rule the feed keeps for both platforms.
 */
import type { HttpBindings } from "@hono/node-server";
import { Hono, type Context } from "hono";
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { z } from "zod";
import {
  fieldPath,
  listen,
  lostAnswer,
  MAX_EVENT_AGE_S,
  MAX_FUTURE_S,
  StandInState,
  type RunningStandIn,
} from "./common";
import { controlApi } from "./control";
import type { StartOptions } from "./meta";

const SHA256 = /^[a-f0-9]{64}$/;
const hashedList = z
  .array(z.string().regex(SHA256, "must be SHA-256 hashed (64 lower-case hex characters)"))
  .min(1)
  .max(10);

const userSchema = z
  .object({
    email: hashedList.optional(),
    phone: hashedList.optional(),
    external_id: hashedList.optional(),
    ttclid: z.string().min(1).max(500).optional(),
    ttp: z.string().min(1).max(500).optional(),
    ip: z
      .string()
      .refine((ip) => isIP(ip) !== 0, "must be an IPv4 or IPv6 address")
      .optional(),
    user_agent: z.string().min(1).max(2048).optional(),
    locale: z.string().optional(),
  })
  .strict();

const contentSchema = z
  .object({
    content_id: z.string().min(1),
    content_name: z.string().optional(),
    content_category: z.string().optional(),
    brand: z.string().optional(),
    price: z.number().nonnegative().optional(),
    quantity: z.number().int().positive().optional(),
  })
  .strict();

// Currencies TikTok lists for value events (MAD among them).
const CURRENCIES = new Set(
  "AED ARS AUD BDT BHD BIF BOB BRL CAD CHF CLP CNY COP CRC CZK DKK DZD EGP EUR GBP GTQ HKD HNL HUF IDR ILS INR ISK JPY KES KHR KRW KWD KZT MAD MOP MXN MYR NGN NIO NOK NZD OMR PEN PHP PKR PLN PYG QAR RON RUB SAR SEK SGD THB TRY TWD UAH USD VES VND ZAR".split(
    " ",
  ),
);

const propertiesSchema = z
  .object({
    currency: z
      .string()
      .refine((c) => CURRENCIES.has(c), "is not a supported ISO 4217 currency")
      .optional(),
    value: z.number().nonnegative().optional(),
    content_type: z.enum(["product", "product_group"]).optional(),
    contents: z.array(contentSchema).optional(),
    content_ids: z.array(z.string()).optional(),
    num_items: z.number().int().nonnegative().optional(),
    order_id: z.string().optional(),
    shop_id: z.string().optional(),
    description: z.string().optional(),
    search_string: z.string().optional(),
  })
  .strict();

const eventSchema = z
  .object({
    event: z.string().min(1).max(50),
    event_time: z.number().int("must be a whole number of seconds"),
    event_id: z.string().min(1).max(500),
    user: userSchema,
    properties: propertiesSchema.optional(),
    page: z.object({ url: z.string().url(), referrer: z.string().optional() }).strict(),
    limited_data_use: z.boolean().optional(),
  })
  .strict();

const bodySchema = z
  .object({
    event_source: z.literal("web", { errorMap: () => ({ message: "must be web for a pixel" }) }),
    event_source_id: z.string().min(1),
    test_event_code: z.string().min(1).optional(),
    data: z.array(z.unknown()).min(1, "must hold at least one event").max(1000, "holds at most 1,000 events"),
  })
  .strict();

class TikTokError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly status = 200,
  ) {
    super(message);
  }
}
const requestId = () => randomBytes(12).toString("hex");

export function createTikTokApp(state: StandInState) {
  const app = new Hono<{ Bindings: HttpBindings }>();
  app.route("/_control", controlApi(state));
  const answer = (c: Context, code: number, message: string, status = 200) =>
    c.json({ code, message, request_id: requestId(), data: {} }, status as 200);
  app.onError((error, c) => {
    if (error instanceof TikTokError) {
      state.log({ path: c.req.path, status: error.status, events: 0, outcome: `code ${error.code}` });
      return answer(c, error.code, error.message, error.status);
    }
    return answer(c, 50000, "System error", 500);
  });

  app.post("/open_api/v1.3/event/track/", async (c) => {
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw new TikTokError(40002, "The request body is not valid JSON.");
    }
    const body = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
    const count = Array.isArray(body.data) ? body.data.length : 0;
    const { fault, delayMs } = state.takeFault();
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (fault) state.log({ path: c.req.path, status: 0, events: count, outcome: `fault ${fault.kind}` });
    if (fault && fault.kind !== "answer_lost") {
      if (fault.kind === "drop") return lostAnswer(c);
      if (fault.kind === "rate_limit") {
        if (fault.retryAfterSeconds !== undefined) c.header("Retry-After", String(fault.retryAfterSeconds));
        return answer(c, 40100, "Too many requests. Please retry in some time.");
      }
      if (fault.kind === "invalid_token") return answer(c, 40105, "The access token is invalid or has been revoked.");
      return answer(c, 50000, "System error, please try again later.", 500);
    }
    const token = c.req.header("access-token");
    if (!token) throw new TikTokError(40104, "Access token is empty.");
    const mine = state.credential(token);
    if (mine.length === 0) throw new TikTokError(40105, "The access token is invalid or has been revoked.");
    const parsed = bodySchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new TikTokError(40002, `${fieldPath(issue.path) || "body"}: ${issue.message}`);
    }
    const pixel = parsed.data.event_source_id;
    if (!mine.some((k) => k.id === pixel))
      throw new TikTokError(40001, `No permission to operate pixel ${pixel} with this access token.`);
    const now = Math.floor(state.now() / 1000);
    const events = parsed.data.data.map((event, i) => checkEvent(event, i, now));
    const test = parsed.data.test_event_code !== undefined;
    for (const event of events)
      state.keep({
        target: pixel,
        eventName: event.event,
        eventId: event.event_id,
        eventTime: event.event_time,
        test,
        body: event as unknown as Record<string, unknown>,
      });
    state.log({ path: c.req.path, status: 200, events: events.length, outcome: test ? "accepted (test)" : "accepted" });
    if (fault?.kind === "answer_lost") return lostAnswer(c);
    return answer(c, 0, "OK");
  });

  app.notFound((c) => answer(c, 40400, `No such API: ${c.req.method} ${c.req.path}`, 404));
  return app;
}

function checkEvent(raw: unknown, index: number, nowS: number): z.infer<typeof eventSchema> {
  const parsed = eventSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TikTokError(40002, `${fieldPath(["data", index, ...issue.path])}: ${issue.message}`);
  }
  const event = parsed.data;
  if (event.event_time > nowS + MAX_FUTURE_S)
    throw new TikTokError(40002, `data[${index}].event_time: in the future (a Unix time in seconds is expected).`);
  if (event.event_time < nowS - MAX_EVENT_AGE_S)
    throw new TikTokError(40002, `data[${index}].event_time: more than 7 days old.`);
  const u = event.user;
  if (!u.email && !u.phone && !u.external_id && !u.ttclid && !u.ttp && !u.ip)
    throw new TikTokError(40002, `data[${index}].user: no identifier to match the event with.`);
  if (event.properties?.value !== undefined && !event.properties.currency)
    throw new TikTokError(40002, `data[${index}].properties.currency: required with value.`);
  return event;
}

export async function startTikTokStandIn(options: StartOptions = {}): Promise<RunningStandIn> {
  const state = new StandInState();
  return listen(createTikTokApp(state), state, options.port ?? 0, options.host ?? "127.0.0.1");
}
