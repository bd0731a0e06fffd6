/**
 * The Flow action "Send order to the COD platform" over HTTP, called by the Admin
 * stand-in exactly as Flow calls an action's runtime URL (body signed with the app's
 * secret) against the production server: the order is sent once, also when Flow
 * retries the run; a wrong signature is refused; an order that cannot be sent gets a
 * failure Flow shows the merchant. The lifecycle callback turns a trigger off.
 */
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sandboxControl, startSandbox } from "../../sandbox/index";
import {
  flowDefinitionsFrom,
  shopifyAdminControl,
  startShopifyAdmin,
  type RunningShopifyAdmin,
} from "../../shopify-admin/index";
import { useAppServer } from "../security/app-server";
import { webhookOrder } from "../helpers/orders";
import { connectTestShop, testPipeline, type TestPipeline } from "../helpers/pipeline";

const SHOP = "flow-action.myshopify.com";
const server = useAppServer({ shops: [SHOP] });
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let platform: ReturnType<typeof sandboxControl>;
let admin: RunningShopifyAdmin;
let flow: ReturnType<typeof shopifyAdminControl>;
let pipeline: TestPipeline;
let nextOrderId = 8_880_000_000_000;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 100_000 });
  platform = sandboxControl(sandbox.url);
  const app = server();
  admin = await startShopifyAdmin({
    quiet: true,
    app: { apiKey: app.apiKey, apiSecret: app.apiSecret, scopes: [] },
    flow: flowDefinitionsFrom(join(import.meta.dirname, "..", "..", "extensions")),
  });
  flow = shopifyAdminControl(admin.url);
  pipeline = testPipeline(app.db);
});

afterAll(async () => {
  await admin?.close();
  await sandbox?.close();
});

beforeEach(async () => {
  const { db } = server();
  const { keys } = await platform.reset();
  await db.job.deleteMany();
  await db.timelineEvent.deleteMany();
  await db.orderLink.deleteMany();
  await connectTestShop(db, {
    shop: SHOP,
    apiKey: keys.find((k) => k.account === "ACC-1001")!.key,
    baseUrl: sandbox.url,
    settings: { autoSend: false },
  });
});

/** An order received while automatic sending is off: held until someone sends it. */
async function heldOrder() {
  const { db } = server();
  const { intakeOrderCreated } = await import("../../app/sync/order-intake.server");
  const body = webhookOrder({ id: nextOrderId++ });
  await db.$transaction((tx) => intakeOrderCreated(tx, SHOP, body));
  await pipeline.drain({ kinds: ["post-lead"] });
  return db.orderLink.findFirstOrThrow({ where: { shop: SHOP, orderId: String(body.id) } });
}

const runAction = (orderId: string | number, actionRunId?: string) =>
  flow.runFlowAction({
    url: `${server().url}/flow/actions/send-order`,
    shop: SHOP,
    handle: "send-order-to-cod",
    properties: { order_id: orderId },
    action_run_id: actionRunId,
  });

describe("Flow action: send order", () => {
  it("sends a held order once, also when Flow retries the run", async () => {
    const { db } = server();
    const order = await heldOrder();
    expect(order.state).toBe("held");

    const first = await runAction(Number(order.orderId), "run-1");
    expect(first.response).toMatchObject({ status: 200, body: { ok: true, state: "received" } });
    // Flow retries the same run before the worker sent it: still one queued send.
    const retried = await runAction(Number(order.orderId), "run-1");
    expect(retried.response).toMatchObject({ status: 200, body: { ok: true, message: "Already queued to be sent." } });
    await pipeline.drain({ kinds: ["post-lead"] });
    const sent = await db.orderLink.findUniqueOrThrow({ where: { id: order.id } });
    expect(sent.state).toBe("created");
    // And once it was sent (a gid works as well as the numeric id).
    const late = await runAction(`gid://shopify/Order/${order.orderId}`, "run-1");
    expect(late.response).toMatchObject({ status: 200, body: { ok: true, leadRef: sent.leadRef } });
    await pipeline.drain({ kinds: ["post-lead"] });

    const leads = (await platform.leads()).filter((l) => l.external_ref === sent.externalRef);
    expect(leads).toHaveLength(1);
    const resends = await db.timelineEvent.findMany({ where: { linkId: order.id, kind: "resend" } });
    expect(resends).toHaveLength(1);
    expect(resends[0].message).toContain("Shopify Flow");
  });

  it("refuses a request with a wrong signature and changes nothing", async () => {
    const { db } = server();
    const order = await heldOrder();
    const body = JSON.stringify({
      shopify_domain: SHOP,
      action_run_id: "forged",
      handle: "send-order-to-cod",
      properties: { order_id: Number(order.orderId) },
    });
    const response = await fetch(`${server().url}/flow/actions/send-order`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-shopify-hmac-sha256": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
      },
      body,
    });
    expect(response.status).toBe(400);
    const unsigned = await fetch(`${server().url}/flow/actions/send-order`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(unsigned.status).toBe(400);
    expect((await db.orderLink.findUniqueOrThrow({ where: { id: order.id } })).state).toBe("held");
  });

  it("answers a clear failure for an order that cannot be sent", async () => {
    const { db } = server();
    const order = await heldOrder();
    await db.orderLink.update({ where: { id: order.id }, data: { cancelledAt: new Date() } });
    const cancelled = await runAction(Number(order.orderId));
    expect(cancelled.response).toMatchObject({
      status: 422,
      body: { ok: false, message: "The order was cancelled in Shopify: it is not sent." },
    });

    const unknown = await runAction(1234567);
    expect(unknown.response.status).toBe(404);
    expect((unknown.response.body as { message: string }).message).toMatch(/Backfill/);

    const notAnOrder = await runAction("gid://shopify/Customer/12");
    expect(notAnOrder.response).toMatchObject({ status: 400, body: { ok: false } });
  });

  it("the trigger lifecycle callback records that no workflow uses a trigger", async () => {
    const { db } = server();
    const answer = await flow.flowLifecycle({
      url: `${server().url}/flow/lifecycle`,
      shop: SHOP,
      handle: "lead-status-changed",
      has_enabled_flow: false,
    });
    expect(answer.response).toMatchObject({ status: 200, body: { ok: true, handles: ["lead-status-changed"] } });
    const usage = await db.flowTriggerUsage.findMany({ where: { shop: SHOP } });
    expect(usage.map((u) => [u.handle, u.hasEnabledFlow])).toEqual([["lead-status-changed", false]]);
  });
});
