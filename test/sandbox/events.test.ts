import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { EventPayload } from "../../sandbox/index";
import { backoffMs } from "../../sandbox/events";
import { useSandbox, uniquePhone, validLead } from "./helpers";

const sb = useSandbox();
const SECRET = "whsec_test_secret";

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  at: number;
}

let receiver: Server;
let receiverUrl: string;
let received: Received[] = [];
/** statuses the receiver answers, in order; 200 once exhausted */
let script: number[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: performance.now() });
      res.statusCode = script.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/cod`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
beforeEach(async () => {
  received = [];
  script = [];
  await sb.control.config({ events: { url: receiverUrl, secret: SECRET, retry_base_ms: 20, max_attempts: 4 } });
});

/** Waits on deliveries as they come: the bound only ends a broken run (a loaded machine is slow, not wrong). */
async function waitFor(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The only delivery, once it is no longer pending. */
async function settledDelivery() {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const [delivery] = await sb.control.events();
    if (delivery && delivery.state !== "pending") return delivery;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error("delivery still pending");
}

async function newLead(): Promise<string> {
  return (await sb.createLead(validLead({ customer_phone: uniquePhone() }))).body.data.ref;
}

describe("signed outgoing events", () => {
  it("GIVEN a registered URL WHEN a lead moves THEN one signed event per status change, named lead.<status>", async () => {
    const startedSeconds = Math.floor(Date.now() / 1000);
    const ref = await newLead();
    expect(received).toHaveLength(0); // creation is not a status change
    await sb.control.advance(ref, { confirmation_status: "confirmed" });
    await sb.control.advance(ref, { shipping_status: "picked_up" });
    await sb.control.advance(ref, { shipping_status: "shipped" });
    await sb.control.advance(ref, { shipping_status: "delivered" });
    await waitFor(() => received.length === 4);

    const payloads = received.map((r) => JSON.parse(r.body) as EventPayload);
    expect(payloads.map((p) => p.event).sort()).toEqual([
      "lead.confirmed",
      "lead.delivered",
      "lead.picked_up",
      "lead.shipped",
    ]);
    const delivered = payloads.find((p) => p.event === "lead.delivered");
    expect(delivered).toMatchObject({
      ref,
      account: "ACC-1001",
      external_ref: "#1001",
      confirmation_status: "confirmed",
      shipping_status: "delivered",
    });
    expect(Number.isNaN(Date.parse(delivered!.occurred_at))).toBe(false);

    for (const r of received) {
      const timestamp = String(r.headers["x-timestamp"]);
      expect(timestamp).toMatch(/^\d+$/);
      // Unix seconds, stamped while the test ran.
      expect(Number(timestamp)).toBeGreaterThanOrEqual(startedSeconds);
      expect(Number(timestamp)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
      const expected = "sha256=" + createHmac("sha256", SECRET).update(`${timestamp}.${r.body}`).digest("hex");
      expect(r.headers["x-signature"]).toBe(expected);
      expect(r.headers["x-event-id"]).toMatch(/^evt_[0-9a-f]{16}$/);
      expect(r.headers["content-type"]).toBe("application/json");
    }
    expect(new Set(received.map((r) => r.headers["x-event-id"])).size).toBe(4);
  });

  it("a signature made with another secret does not match", async () => {
    await sb.control.advance(await newLead(), { confirmation_status: "fake" });
    await waitFor(() => received.length === 1);
    const [r] = received;
    const forged =
      "sha256=" + createHmac("sha256", "other").update(`${r.headers["x-timestamp"]}.${r.body}`).digest("hex");
    expect(r.headers["x-signature"]).not.toBe(forged);
  });

  it("retries a failed delivery with growing delays, under the same event id", async () => {
    script = [500, 503];
    await sb.control.advance(await newLead(), { confirmation_status: "confirmed" });
    await waitFor(() => received.length === 3);
    expect(new Set(received.map((r) => r.headers["x-event-id"])).size).toBe(1);
    const gaps = [received[1].at - received[0].at, received[2].at - received[1].at];
    expect(gaps[0]).toBeGreaterThanOrEqual(18); // 20 ms base, timer slack
    expect(gaps[1]).toBeGreaterThanOrEqual(38); // then 40 ms
    expect(await settledDelivery()).toMatchObject({ state: "delivered", attempts: 3, last_status: 200 });
  });

  it("gives up after max_attempts and records the failure", async () => {
    script = [500, 500, 500, 500, 500, 500];
    await sb.control.advance(await newLead(), { confirmation_status: "confirmed" });
    await waitFor(() => received.length === 4);
    expect(await settledDelivery()).toMatchObject({ state: "failed", attempts: 4, last_status: 500 });
    await new Promise((r) => setTimeout(r, 200)); // a fifth attempt would be due after 160 ms
    expect(received).toHaveLength(4);
  });

  it("sends nothing when no URL is registered", async () => {
    await sb.control.config({ events: { url: null } });
    await sb.control.advance(await newLead(), { confirmation_status: "confirmed" });
    await new Promise((r) => setTimeout(r, 50));
    expect(received).toHaveLength(0);
    expect(await sb.control.events()).toEqual([]);
  });

  it("backoff doubles from the base delay", () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(1000, n))).toEqual([1000, 2000, 4000, 8000, 16000]);
  });
});
