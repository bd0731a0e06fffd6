/**
 * Posting racing other writers of the same link, on real parts (the webhook
 * routes, PostgreSQL, the worker, the sandbox over loopback): a change that
 * commits while the job maps the order or waits for its answer is never
 * overwritten, and an answer that loses to another move writes nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ActionFunctionArgs } from "@remix-run/node";
import { startSandbox, sandboxControl } from "../../sandbox/index";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";
import { signedWebhookRequest } from "../helpers/webhooks";
import { webhookOrder, type OrderSpec } from "../helpers/orders";
import { connectTestShop, SHOP } from "../helpers/pipeline";
import { createWorker } from "../../app/queue/worker.server";
import { createJobHandlers } from "../../app/sync/job-handlers.server";
import { createPipelineDeps, type PipelineDeps } from "../../app/sync/pipeline-deps.server";
import { moveLink } from "../../app/models/link-moves.server";
import { correctAndResend } from "../../app/pages/order-detail.server";
import { leadAnsweredText } from "../../app/models/order-texts";
import type { SellerApiClient } from "../../app/seller-api";
import type { AdminFor } from "../../app/shopify/admin-graphql.server";

let db: TestDatabase;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let control: ReturnType<typeof sandboxControl>;
let nextId = 5_660_000_000_000;
/** What the tests change of the platform client (reset before each). */
let around: Partial<Pick<SellerApiClient, "createLead" | "cities">> & { real?: SellerApiClient } = {};

const noAdmin: AdminFor = async () => {
  throw new Error("no Shopify Admin API in this test");
};

type Action = (args: ActionFunctionArgs) => Promise<Response>;
let routes: Record<"create" | "updated", Action>;

async function deliver(topic: "create" | "updated", body: Record<string, unknown>) {
  const request = signedWebhookRequest({ topic: `orders/${topic}`, shop: SHOP, body });
  return (await routes[topic]({ request, params: {}, context: {} })).status;
}

async function placeOrder(spec: Partial<OrderSpec> = {}) {
  const body = webhookOrder({ id: nextId++, ...spec });
  expect(await deliver("create", body)).toBe(200);
  return body;
}

const linkOf = (orderId: unknown) =>
  db.prisma.orderLink.findUniqueOrThrow({ where: { shop_orderId: { shop: SHOP, orderId: String(orderId) } } });

/** Runs due jobs until none is left; the lead events stay recorded (no task tells them), so they can be counted. */
function drain(): Promise<number> {
  const base = createPipelineDeps(db.prisma, { timeoutMs: 5_000 });
  const deps: PipelineDeps = {
    ...base,
    connect: (shop) => {
      const connection = base.connect(shop);
      const real = connection.client;
      return { ...connection, client: { ...real, ...around, real } as SellerApiClient };
    },
  };
  const worker = createWorker({
    db: db.prisma,
    handlers: createJobHandlers({ ...deps, adminFor: noAdmin }),
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    backoff: { baseMs: 1, capMs: 5 },
    tasks: [],
  });
  return worker.drain({ timeoutMs: 120_000 });
}

/** The real client of the connection the job made (the wrapper carries it). */
const realOf = (client: unknown) => (client as { real: SellerApiClient }).real;

/** Another worker of the same job recording the lead's answer, as its own commit does. */
async function recordedByAnother(linkId: string, leadRef: string, commit: Promise<void> = Promise.resolve()) {
  let moved!: () => void;
  const done = new Promise<void>((resolve) => (moved = resolve));
  const transaction = db.prisma.$transaction(
    async (tx) => {
      const link = await tx.orderLink.findUniqueOrThrow({ where: { id: linkId } });
      expect(link.state).toBe("posting");
      await moveLink(tx, {
        link,
        to: "created",
        reason: null,
        set: {
          leadRef,
          postingSince: null,
          postedAt: new Date(),
          confirmationStatus: "new",
          shippingStatus: "pending",
        },
        timeline: [{ kind: "answered", text: leadAnsweredText(leadRef, [], false), data: { ref: leadRef } }],
        at: new Date(),
      });
      moved();
      await commit;
    },
    { timeout: 60_000 },
  );
  await done;
  // Wrapped: an async function's promise would wait for the commit.
  return { committed: transaction };
}

const answeredOf = async (linkId: string) => ({
  rows: await db.prisma.timelineEvent.count({ where: { linkId, kind: "answered" } }),
  events: (await db.prisma.pendingLeadEvent.findMany({ where: { linkId } }))
    .map((e) => JSON.parse(e.event) as { kind: string })
    .filter((e) => e.kind === "answered").length,
});

async function until(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  control = sandboxControl(sandbox.url);
  routes = {
    create: (await import("../../app/routes/webhooks.orders.create")).action,
    updated: (await import("../../app/routes/webhooks.orders.updated")).action,
  };
});
afterAll(async () => {
  await sandbox.close();
  await db.cleanup();
});
beforeEach(async () => {
  const keys = await control.reset();
  const key = keys.keys.find((k) => k.account === "ACC-1001")!;
  await connectTestShop(db.prisma, { apiKey: key.key, baseUrl: sandbox.url });
  await control.config({ rate_limit_per_minute: 6000 });
  around = {};
  await db.prisma.job.deleteMany();
  await db.prisma.pendingLeadEvent.deleteMany();
  await db.prisma.timelineEvent.deleteMany();
  await db.prisma.orderLink.deleteMany();
  await db.prisma.rateLimitSlot.deleteMany();
});

describe("an answer that loses to another move", () => {
  it("GIVEN another worker recorded the lead while this one waited for its POST WHEN its answer comes THEN the order has one answered row and one answered event, and the job is done", async () => {
    const body = await placeOrder();
    around.createLead = async function (this: unknown, input) {
      const answer = await realOf(this).createLead(input);
      const link = await linkOf(body.id);
      await (
        await recordedByAnother(link.id, answer.ref!)
      ).committed;
      return answer;
    };
    await drain();
    const after = await linkOf(body.id);
    expect(after.state).toBe("created");
    expect(await answeredOf(after.id)).toEqual({ rows: 1, events: 1 });
    expect(await db.prisma.job.findMany({ where: { kind: "post-lead" }, select: { state: true } })).toEqual([
      { state: "done" },
    ]);
  });

  it("GIVEN another commit moves the link while the answer's write waits on its row WHEN that commit ends THEN nothing of this answer is written", async () => {
    const body = await placeOrder();
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    let other: Promise<void> | undefined;
    around.createLead = async function (this: unknown, input) {
      const answer = await realOf(this).createLead(input);
      other = (await recordedByAnother((await linkOf(body.id)).id, answer.ref!, committed)).committed;
      return answer;
    };
    const drained = drain();
    // The answer's write waits on the row the other commit holds.
    await until(
      async () =>
        other !== undefined &&
        Number(
          (
            await db.prisma.$queryRawUnsafe<{ n: bigint }[]>(
              `SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            )
          )[0].n,
        ) > 0,
      "the answer to wait on the link's row",
    );
    commit();
    await other;
    await drained;
    const after = await linkOf(body.id);
    expect(after.state).toBe("created");
    expect(await answeredOf(after.id)).toEqual({ rows: 1, events: 1 });
    expect(await db.prisma.job.findMany({ where: { kind: "post-lead" }, select: { state: true } })).toEqual([
      { state: "done" },
    ]);
  });
});

/**
 * Runs `change` once while post-lead maps an order: the mapping fetches the cities (stale lists, made so
 * here), and the change commits meanwhile. Returns whether it ran.
 */
async function whileMapped(change: () => Promise<void>): Promise<() => boolean> {
  await db.prisma.shop.update({ where: { domain: SHOP }, data: { citiesFetchedAt: null } });
  let ran = false;
  around.cities = async function (this: unknown) {
    const cities = await realOf(this).cities();
    if (!ran) {
      ran = true;
      await change();
    }
    return cities;
  };
  return () => ran;
}

/** Shopify's orders/updated with the shipping phone corrected (a later updated_at). */
async function correctPhoneInShopify(body: Record<string, unknown>, phone: string) {
  const fixed = { ...body, updated_at: new Date(Date.now() + 60_000).toISOString() } as Record<string, unknown>;
  fixed.shipping_address = { ...(body.shipping_address as Record<string, unknown>), phone };
  expect(await deliver("updated", fixed)).toBe(200);
}

describe("a correction from Shopify while the order is mapped", () => {
  it("GIVEN orders/updated changes the phone while post-lead maps the old snapshot WHEN the job ends THEN the order has one lead, with the corrected phone", async () => {
    const body = await placeOrder({ phone: "+212 6 12 34 56 78" });
    const corrected = await whileMapped(() => correctPhoneInShopify(body, "0698765432"));
    await drain();
    expect(corrected()).toBe(true);
    const after = await linkOf(body.id);
    expect(after.state).toBe("created");
    expect(after.phone).toBe("0698765432");
    const ours = (await control.leads("ACC-1001")).filter((x) => x.external_ref === after.externalRef);
    expect(ours.map((x) => x.customer_phone)).toEqual(["0698765432"]);
  });

  it("GIVEN orders/updated changes only a tag while post-lead maps WHEN the job ends THEN the order is sent once", async () => {
    const body = await placeOrder();
    const tagged = await whileMapped(async () => {
      const update = { ...body, tags: "vip", updated_at: new Date(Date.now() + 60_000).toISOString() };
      expect(await deliver("updated", update)).toBe(200);
    });
    await drain();
    expect(tagged()).toBe(true);
    const after = await linkOf(body.id);
    expect(after.state).toBe("created");
    expect((await control.leads("ACC-1001")).filter((x) => x.external_ref === after.externalRef)).toHaveLength(1);
  });
});

describe("a merchant's fix while the order is mapped", () => {
  it("GIVEN the merchant corrects the phone and resends while post-lead maps the order WHEN the job ends THEN the order has one lead, with the corrected phone", async () => {
    const body = await placeOrder({ phone: "+212 6 12 34 56 78" });
    const link = await linkOf(body.id);
    // The order page's "save and resend": the fix, then a resend of the still-received order.
    const fixed = await whileMapped(async () => {
      await correctAndResend(db.prisma, SHOP, link.id, { phone: "0698765432" }, { by: "merchant" });
    });
    await drain();
    expect(fixed()).toBe(true);
    const after = await linkOf(body.id);
    expect(after.state).toBe("created");
    expect(after.phone).toBe("0698765432");
    const ours = (await control.leads("ACC-1001")).filter((x) => x.external_ref === after.externalRef);
    expect(ours.map((x) => x.customer_phone)).toEqual(["0698765432"]);
  });
});

describe("a correction from Shopify to an order the mapping would hold", () => {
  it("GIVEN Shopify corrects a phone the mapping would hold the order for WHEN the job ends THEN the order is sent with the corrected phone, not held for the old one", async () => {
    const body = await placeOrder({ phone: "12345" });
    const corrected = await whileMapped(() => correctPhoneInShopify(body, "0698765432"));
    await drain();
    expect(corrected()).toBe(true);
    const after = await linkOf(body.id);
    expect(after.state).toBe("created");
    const ours = (await control.leads("ACC-1001")).filter((x) => x.external_ref === after.externalRef);
    expect(ours.map((x) => x.customer_phone)).toEqual(["0698765432"]);
  });
});
