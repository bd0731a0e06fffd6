/**
 * Webhooks as Shopify sends them, for orders created, edited and cancelled through the
 * control API: POSTed to the app's address (`PUT /_control/webhooks`), signed with its
 * secret, with X-Shopify-Event-Id (one per event, the same on every delivery of it) and
 * X-Shopify-Triggered-At (when the event happened, on the stand-in's clock). Delivery
 * rules do what Shopify's delivery sometimes does:
 *
 *   drop       never delivered (Shopify gave up after its retries)
 *   hold       kept until POST /_control/deliveries/release: delivered hours late when
 *              the clock was moved on meanwhile (its Triggered-At stays the event's)
 *   delay      delivered `delayMs` later
 *   duplicate  delivered twice (same event, two webhook ids)
 *
 * A delivery the app did not answer 2xx (down, restarting) is kept as failed; POST
 * /_control/deliveries/redeliver sends those again, as Shopify's retries would.
 */
import { createHmac, randomUUID } from "node:crypto";
import { z } from "zod";
import type { StandInClock } from "./clock";
import { API_VERSION } from "./schema";

export const DELIVERY_FAULT_KINDS = ["drop", "hold", "delay", "duplicate"] as const;
export type DeliveryFaultKind = (typeof DELIVERY_FAULT_KINDS)[number];

export const deliveryFaultInputSchema = z
  .object({
    kind: z.enum(DELIVERY_FAULT_KINDS),
    shop: z.string().min(1).nullable().optional(),
    topic: z.string().min(1).nullable().optional(),
    times: z.number().int().positive().nullable().optional(),
    delayMs: z.number().int().nonnegative().max(120_000).optional(),
  })
  .strict();
export type DeliveryFaultInput = z.infer<typeof deliveryFaultInputSchema>;

export interface DeliveryFaultRule {
  id: number;
  kind: DeliveryFaultKind;
  shop: string | null;
  topic: string | null;
  /** deliveries left; null = until cleared */
  remaining: number | null;
  delayMs: number;
  hits: number;
}

export const webhookTargetSchema = z
  .object({
    url: z
      .string()
      .url()
      .refine(
        (u) => ["127.0.0.1", "localhost", "[::1]"].includes(new URL(u).hostname),
        "the app must listen on loopback",
      ),
    secret: z.string().min(1).optional(),
  })
  .strict();

/** One delivery attempt of one event. */
export interface DeliveryRecord {
  id: number;
  eventId: string;
  webhookId: string;
  shop: string;
  topic: string;
  /** The order's numeric id, when the payload is an order. */
  orderId: string | null;
  /** stand-in clock, ISO: when the event happened */
  triggeredAt: string;
  /** stand-in clock, ISO: when it was sent (null: not sent yet, or never) */
  sentAt: string | null;
  /** HTTP status; 0: no answer; null: not sent */
  status: number | null;
  /** the rule that changed it, if any */
  fault: DeliveryFaultKind | null;
  state: "delivered" | "failed" | "dropped" | "held" | "delayed";
}

interface PendingEvent {
  eventId: string;
  shop: string;
  topic: string;
  body: string;
  triggeredAtMs: number;
}

export const DELIVERY_LOG_LIMIT = 5000;

export class WebhookDeliveries {
  private target: { url: string; secret: string } | null = null;
  private rules: DeliveryFaultRule[] = [];
  private sequence = 0;
  private ruleSequence = 0;
  readonly log: DeliveryRecord[] = [];
  private readonly events = new Map<number, PendingEvent>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    private readonly clock: StandInClock,
    private readonly defaultSecret: () => string | null,
  ) {}

  setTarget(input: { url: string; secret?: string }): { url: string } {
    const secret = input.secret ?? this.defaultSecret();
    if (!secret)
      throw new Error("no secret to sign webhooks with: start the stand-in with the app's credentials or give one");
    this.target = { url: input.url.replace(/\/+$/, ""), secret };
    return { url: this.target.url };
  }

  targetUrl(): string | null {
    return this.target?.url ?? null;
  }

  addRule(input: DeliveryFaultInput): DeliveryFaultRule {
    const rule: DeliveryFaultRule = {
      id: ++this.ruleSequence,
      kind: input.kind,
      shop: input.shop ?? null,
      topic: input.topic ?? null,
      remaining: input.times === undefined ? 1 : input.times,
      delayMs: input.delayMs ?? (input.kind === "delay" ? 2000 : 0),
      hits: 0,
    };
    this.rules.unshift(rule);
    return rule;
  }

  listRules(): DeliveryFaultRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  clearRules(shop?: string | null): void {
    this.rules = shop ? this.rules.filter((r) => r.shop !== shop) : [];
  }

  reset(): void {
    this.rules = [];
    this.log.length = 0;
    this.events.clear();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private takeRule(shop: string, topic: string): DeliveryFaultRule | null {
    const rule =
      this.rules.find(
        (r) => (r.shop === null || r.shop === shop) && (r.topic === null || r.topic === topic) && r.remaining !== 0,
      ) ?? null;
    if (!rule) return null;
    rule.hits += 1;
    if (rule.remaining !== null) rule.remaining -= 1;
    if (rule.remaining === 0) this.rules = this.rules.filter((r) => r !== rule);
    return { ...rule };
  }

  /**
   * One event: delivered now (or as a rule says). Resolves once the attempts made now
   * are answered, with their records (a held or delayed one is recorded as such).
   */
  async emit(shop: string, topic: string, payload: Record<string, unknown>): Promise<DeliveryRecord[]> {
    const event: PendingEvent = {
      eventId: randomUUID(),
      shop,
      topic,
      body: JSON.stringify(payload),
      triggeredAtMs: this.clock.now(),
    };
    const rule = this.takeRule(shop, topic);
    if (rule?.kind === "drop") return [this.record(event, { state: "dropped", fault: "drop" })];
    if (rule?.kind === "hold") {
      const record = this.record(event, { state: "held", fault: "hold" });
      this.events.set(record.id, event);
      return [record];
    }
    if (rule?.kind === "delay") {
      const record = this.record(event, { state: "delayed", fault: "delay" });
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.send(event, "delay", record);
      }, rule.delayMs);
      this.timers.add(timer);
      return [record];
    }
    const first = await this.send(event, rule?.kind === "duplicate" ? "duplicate" : null);
    if (rule?.kind !== "duplicate") return [first];
    return [first, await this.send(event, "duplicate")];
  }

  /** Held deliveries, sent now (hours late when the clock moved on). */
  async release(shop?: string | null): Promise<DeliveryRecord[]> {
    return this.resend((r) => r.state === "held" && (!shop || r.shop === shop), true);
  }

  /** Deliveries the app did not acknowledge, sent again (a new attempt of the same event). */
  async redeliver(shop?: string | null): Promise<DeliveryRecord[]> {
    return this.resend((r) => r.state === "failed" && (!shop || r.shop === shop), false);
  }

  private async resend(which: (record: DeliveryRecord) => boolean, inPlace: boolean): Promise<DeliveryRecord[]> {
    const sent: DeliveryRecord[] = [];
    for (const record of this.log.filter(which)) {
      const event = this.events.get(record.id);
      if (!event) continue;
      this.events.delete(record.id);
      sent.push(await this.send(event, record.fault, inPlace ? record : undefined));
    }
    return sent;
  }

  private record(event: PendingEvent, fields: Pick<DeliveryRecord, "state" | "fault">): DeliveryRecord {
    let orderId: string | null = null;
    try {
      const id = (JSON.parse(event.body) as { id?: unknown }).id;
      orderId = id === undefined || id === null ? null : String(id);
    } catch {
      orderId = null;
    }
    const record: DeliveryRecord = {
      id: ++this.sequence,
      eventId: event.eventId,
      webhookId: randomUUID(),
      shop: event.shop,
      topic: event.topic,
      orderId,
      triggeredAt: new Date(event.triggeredAtMs).toISOString(),
      sentAt: null,
      status: null,
      ...fields,
    };
    this.log.push(record);
    if (this.log.length > DELIVERY_LOG_LIMIT) this.log.splice(0, this.log.length - DELIVERY_LOG_LIMIT);
    return record;
  }

  /** Signs and POSTs one delivery; `into` is the record of a held or delayed one, updated in place. */
  private async send(
    event: PendingEvent,
    fault: DeliveryFaultKind | null,
    into?: DeliveryRecord,
  ): Promise<DeliveryRecord> {
    const record = into ?? this.record(event, { state: "failed", fault });
    record.sentAt = new Date(this.clock.now()).toISOString();
    if (!this.target) {
      record.status = null;
      record.state = "failed";
      this.events.set(record.id, event);
      return record;
    }
    const headers = {
      "Content-Type": "application/json",
      "X-Shopify-Hmac-Sha256": createHmac("sha256", this.target.secret).update(event.body, "utf8").digest("base64"),
      "X-Shopify-Topic": event.topic,
      "X-Shopify-Shop-Domain": event.shop,
      "X-Shopify-API-Version": API_VERSION,
      "X-Shopify-Webhook-Id": record.webhookId,
      "X-Shopify-Event-Id": event.eventId,
      "X-Shopify-Triggered-At": new Date(event.triggeredAtMs).toISOString(),
    };
    try {
      const response = await fetch(`${this.target.url}/webhooks/${event.topic}`, {
        method: "POST",
        headers,
        body: event.body,
      });
      await response.arrayBuffer().catch(() => undefined);
      record.status = response.status;
    } catch {
      record.status = 0;
    }
    record.state = record.status !== null && record.status >= 200 && record.status < 300 ? "delivered" : "failed";
    if (record.state === "failed") this.events.set(record.id, event);
    return record;
  }
}
