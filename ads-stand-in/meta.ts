/**
 * A stand-in for Meta's Conversions API on loopback: POST /{version}/{dataset}/events
 * and GET /{version}/{dataset}, checked against the published parameter pages
 * (main body, server event, customer information, custom data) and answered as
 * the Graph API answers: { events_received, messages, fbtrace_id } on success,
 * { error: { message, type, code, error_subcode, is_transient, error_user_title,
 * error_user_msg, fbtrace_id } } otherwise, with HTTP 400 for most errors.
 *
 * The whole request is refused when any event is invalid or has an event_time
 * more than 7 days old (as Meta does). The token is read from the Authorization
 * header (Bearer) or an access_token parameter. Error subcodes other than those
 * the references name are this stand-in's own (see README.md).
 */
import type { HttpBindings } from "@hono/node-server";
import { Hono, type Context } from "hono";
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { z } from "zod";
import {
  ANSWER_LOST,
  fieldPath,
  listen,
  lostAnswer,
  MAX_EVENT_AGE_S,
  MAX_FUTURE_S,
  StandInState,
  type RunningStandIn,
} from "./common";
import { controlApi } from "./control";

const SHA256 = /^[a-f0-9]{64}$/;
const hashed = z.union([
  z.string().regex(SHA256, "must be a SHA-256 hash (64 lower-case hex characters) of the normalised value"),
  z
    .array(z.string().regex(SHA256, "must be a SHA-256 hash (64 lower-case hex characters) of the normalised value"))
    .min(1),
]);
const ACTION_SOURCES = [
  "email",
  "website",
  "app",
  "phone_call",
  "chat",
  "physical_store",
  "system_generated",
  "business_messaging",
  "other",
] as const;

const userDataSchema = z
  .object({
    em: hashed.optional(),
    ph: hashed.optional(),
    fn: hashed.optional(),
    ln: hashed.optional(),
    ge: hashed.optional(),
    db: hashed.optional(),
    ct: hashed.optional(),
    st: hashed.optional(),
    zp: hashed.optional(),
    country: hashed.optional(),
    external_id: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    client_ip_address: z
      .string()
      .refine((ip) => isIP(ip) !== 0, "must be an IPv4 or IPv6 address")
      .optional(),
    client_user_agent: z.string().min(1).max(2048).optional(),
    fbc: z
      .string()
      .regex(/^fb\.\d\.\d{10,13}\.\S+$/, "must be fb.<subdomain index>.<creation time>.<fbclid>")
      .optional(),
    fbp: z
      .string()
      .regex(/^fb\.\d\.\d{10,13}\.\d+$/, "must be fb.<subdomain index>.<creation time>.<random number>")
      .optional(),
    subscription_id: z.string().optional(),
    lead_id: z.union([z.string(), z.number()]).optional(),
  })
  .strict();

const contentSchema = z
  .object({
    id: z.string().min(1),
    quantity: z.number().int().positive(),
    item_price: z.number().nonnegative().optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    brand: z.string().optional(),
    category: z.string().optional(),
    delivery_category: z.enum(["in_store", "curbside", "home_delivery"]).optional(),
  })
  .strict();

// Custom data takes custom properties too: only the standard ones are checked.
const customDataSchema = z
  .object({
    value: z.number().nonnegative().optional(),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, "must be an ISO 4217 code")
      .optional(),
    content_type: z.enum(["product", "product_group"]).optional(),
    contents: z.array(contentSchema).optional(),
    content_ids: z.array(z.string()).optional(),
    num_items: z.number().int().nonnegative().optional(),
    order_id: z.string().optional(),
  })
  .passthrough()
  .refine((d) => d.value === undefined || d.currency !== undefined, {
    message: "currency is required with value",
    path: ["currency"],
  });

const eventSchema = z
  .object({
    event_name: z.string().min(1).max(50),
    event_time: z.number().int("must be a whole number of seconds"),
    event_id: z.string().min(1).max(400).optional(),
    action_source: z.enum(ACTION_SOURCES),
    event_source_url: z.string().url().optional(),
    opt_out: z.boolean().optional(),
    user_data: userDataSchema,
    custom_data: customDataSchema.optional(),
    data_processing_options: z.array(z.string()).optional(),
    data_processing_options_country: z.number().int().optional(),
    data_processing_options_state: z.number().int().optional(),
    referrer_url: z.string().optional(),
  })
  .strict();

const bodySchema = z
  .object({
    data: z.array(z.unknown()).min(1, "must hold at least one event").max(1000, "holds at most 1,000 events"),
    test_event_code: z.string().min(1).optional(),
    partner_agent: z.string().optional(),
    access_token: z.string().optional(),
  })
  .strict();

class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

const trace = () => randomBytes(9).toString("base64url");
const graphError = (status: number, fields: Record<string, unknown>) =>
  new GraphError(status, { type: "OAuthException", is_transient: false, fbtrace_id: trace(), ...fields });
const invalidParameter = (userMessage: string, subcode = 2804019, title = "Invalid parameter") =>
  graphError(400, {
    message: "Invalid parameter",
    code: 100,
    error_subcode: subcode,
    error_user_title: title,
    error_user_msg: userMessage,
  });

export function createMetaApp(state: StandInState) {
  const app = new Hono<{ Bindings: HttpBindings }>();
  app.route("/_control", controlApi(state));
  app.onError((error, c) => {
    if (error instanceof GraphError) {
      state.log({ path: c.req.path, status: error.status, events: 0, outcome: `error ${error.body.code}` });
      return c.json({ error: error.body }, error.status as 400);
    }
    return c.json({ error: { message: "An unexpected error has occurred.", code: 2, is_transient: true } }, 500);
  });

  const token = (c: Context, body?: { access_token?: string }) => {
    const header = c.req.header("authorization");
    const bearer = header && /^(Bearer|OAuth)\s+(\S+)$/i.exec(header)?.[2];
    const given = bearer || c.req.query("access_token") || body?.access_token;
    if (!given) throw graphError(400, { message: "An access token is required to request this resource.", code: 104 });
    return given;
  };
  const authorised = (given: string, dataset: string, method: string) => {
    const mine = state.credential(given);
    if (mine.length === 0)
      throw graphError(400, { message: "Invalid OAuth access token - Cannot parse access token", code: 190 });
    if (!mine.some((k) => k.id === dataset))
      throw graphError(400, {
        message: `Unsupported ${method} request. Object with ID '${dataset}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        code: 100,
        error_subcode: 33,
      });
    return mine.find((k) => k.id === dataset)!;
  };
  const faults = async (c: Context<{ Bindings: HttpBindings }>, events: number) => {
    const { fault, delayMs } = state.takeFault();
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (!fault) return null;
    state.log({ path: c.req.path, status: 0, events, outcome: `fault ${fault.kind}` });
    if (fault.kind === "answer_lost") return ANSWER_LOST;
    if (fault.kind === "drop") return lostAnswer(c);
    if (fault.kind === "rate_limit") {
      if (fault.retryAfterSeconds !== undefined) c.header("Retry-After", String(fault.retryAfterSeconds));
      return c.json(
        {
          error: {
            message: "(#4) Application request limit reached",
            type: "OAuthException",
            code: 4,
            is_transient: true,
            fbtrace_id: trace(),
          },
        },
        400,
      );
    }
    if (fault.kind === "invalid_token")
      return c.json(
        {
          error: {
            message: "Error validating access token: Session has expired.",
            type: "OAuthException",
            code: 190,
            error_subcode: 463,
            fbtrace_id: trace(),
          },
        },
        400,
      );
    return c.json(
      {
        error: {
          message: "An unexpected error has occurred. Please retry your request later.",
          type: "OAuthException",
          code: 2,
          is_transient: true,
          fbtrace_id: trace(),
        },
      },
      500,
    );
  };

  app.get("/:version/:dataset", async (c) => {
    const dataset = c.req.param("dataset");
    const answered = await faults(c, 0);
    if (answered === ANSWER_LOST) return lostAnswer(c);
    if (answered) return answered;
    const credential = authorised(token(c), dataset, "get");
    state.log({ path: c.req.path, status: 200, events: 0, outcome: "read" });
    return c.json({ id: credential.id, name: credential.name });
  });

  app.post("/:version/:dataset/events", async (c) => {
    if (!/^v\d+\.\d+$/.test(c.req.param("version")))
      throw graphError(400, { message: `Unknown path components: /${c.req.param("version")}`, code: 2500 });
    const dataset = c.req.param("dataset");
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw invalidParameter("The body must be a JSON object.");
    }
    const body = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
    if (typeof body.data === "string") {
      try {
        body.data = JSON.parse(body.data);
      } catch {
        throw invalidParameter("data: must be a JSON array of events.");
      }
    }
    const count = Array.isArray(body.data) ? body.data.length : 0;
    const answered = await faults(c, count);
    if (answered && answered !== ANSWER_LOST) return answered;
    authorised(token(c, body as { access_token?: string }), dataset, "post");
    const parsed = bodySchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw invalidParameter(`${fieldPath(issue.path) || "body"}: ${issue.message}`);
    }
    const now = Math.floor(state.now() / 1000);
    const events = parsed.data.data.map((event, i) => checkEvent(event, i, now));
    const test = parsed.data.test_event_code !== undefined;
    for (const event of events)
      state.keep({
        target: dataset,
        eventName: event.event_name,
        eventId: event.event_id ?? `${event.event_name}:${event.event_time}:${JSON.stringify(event.user_data)}`,
        eventTime: event.event_time,
        test,
        body: event as unknown as Record<string, unknown>,
      });
    state.log({ path: c.req.path, status: 200, events: events.length, outcome: test ? "accepted (test)" : "accepted" });
    if (answered === ANSWER_LOST) return lostAnswer(c);
    return c.json({ events_received: events.length, messages: [], fbtrace_id: trace() });
  });

  app.notFound((c) =>
    c.json({ error: { message: `Unknown path components: ${c.req.path}`, type: "OAuthException", code: 2500 } }, 400),
  );
  return app;
}

/** One event, checked: the shape, then the rules across fields. */
function checkEvent(raw: unknown, index: number, nowS: number): z.infer<typeof eventSchema> {
  const parsed = eventSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidParameter(`${fieldPath(["data", index, ...issue.path])}: ${issue.message}`);
  }
  const event = parsed.data;
  if (event.event_time > nowS + MAX_FUTURE_S)
    throw invalidParameter(
      `data[${index}].event_time: the timestamp for this event is in the future (a time in seconds is expected).`,
      2804004,
      "Event Timestamp In The Future",
    );
  if (event.event_time < nowS - MAX_EVENT_AGE_S)
    throw invalidParameter(
      "The timestamp for this event is too far in the past. Events need to be sent from your server within 7 days of when they occurred. Enter a timestamp that has occurred within the last 7 days.",
      2804003,
      "Event Timestamp Too Old",
    );
  if (event.action_source === "website" && (!event.user_data.client_user_agent || !event.event_source_url))
    throw invalidParameter(
      `data[${index}]: website events require client_user_agent and event_source_url.`,
      2804050,
      "Missing Website Parameters",
    );
  const u = event.user_data;
  if (!u.em && !u.ph && !u.external_id && !u.fbc && !u.fbp && !(u.client_ip_address && u.client_user_agent))
    throw invalidParameter(
      `data[${index}].user_data: no customer information parameter to match the event with.`,
      2804015,
      "Invalid Customer Information",
    );
  return event;
}

export interface StartOptions {
  port?: number;
  host?: string;
}

export async function startMetaStandIn(options: StartOptions = {}): Promise<RunningStandIn> {
  const state = new StandInState();
  return listen(createMetaApp(state), state, options.port ?? 0, options.host ?? "127.0.0.1");
}
