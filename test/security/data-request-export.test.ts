/**
 * customers/data_request results reach the merchant: the Activity page lists each
 * request and its JSON export downloads through an authenticated admin request,
 * for the session's own shop only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionFunctionArgs } from "@remix-run/node";
import { t } from "../../app/i18n";
import { adminRequest } from "../helpers/admin";
import { webhookOrder } from "../helpers/orders";
import { signedWebhookRequest } from "../helpers/webhooks";
import { load, SHOP_A, SHOP_B, startAdminApp, stopAdminApp, type AdminApp } from "../pages/helpers";

type Action = (args: ActionFunctionArgs) => Promise<Response>;
let app: AdminApp;

beforeAll(async () => {
  app = await startAdminApp();
});
afterAll(async () => {
  await stopAdminApp(app);
});

const deliver = async (route: Action, topic: string, body: Record<string, unknown>) =>
  (
    await route({
      request: signedWebhookRequest({ topic, shop: SHOP_A, body, url: `https://cod-lead-sync.test/webhooks/${topic}` }),
      params: {},
      context: {},
    })
  ).status;

describe("customer data requests in the admin", () => {
  it("lists the request on Activity and downloads its export as JSON, for the own shop only", async () => {
    // GIVEN an order of customer 4242 and Shopify's data request for it
    const order = webhookOrder({
      id: 6_660_000_000_001,
      customerId: 4242,
      firstName: "Hajar",
      lastName: "Skalli",
      phone: "0700112233",
    });
    expect(
      await deliver((await import("../../app/routes/webhooks.orders.create")).action, "orders/create", order),
    ).toBe(200);
    const request = {
      shop_id: 1,
      shop_domain: SHOP_A,
      customer: { id: 4242 },
      orders_requested: [order.id],
      data_request: { id: 9 },
    };
    expect(
      await deliver(
        (await import("../../app/routes/webhooks.customers.data_request")).action,
        "customers/data_request",
        request,
      ),
    ).toBe(200);

    // WHEN the merchant opens Activity
    const activity = await import("../../app/routes/app.activity");
    const page = await load(activity.loader, SHOP_A, "/app/activity");
    // THEN the request is listed
    expect(page.dataRequests).toEqual([
      {
        id: expect.any(String),
        receivedAt: expect.any(String),
        receivedLocal: expect.any(String),
        customerId: "4242",
        ordersRequested: 1,
        ordersHeld: 1,
      },
    ]);
    const id = page.dataRequests[0].id;

    // AND its export downloads as a JSON attachment holding the customer's data
    const route = await import("../../app/routes/app.data-requests.$id");
    const response = await route.loader({
      request: await adminRequest(SHOP_A, `/app/data-requests/${id}`, { as: "fetch" }),
      params: { id },
      context: {},
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="data-request-\d{4}-\d{2}-\d{2}-.+\.json"$/,
    );
    expect(response.headers.get("cache-control")).toBe("no-store");
    const exported = await response.json();
    expect(exported.request).toMatchObject({
      id,
      shop: SHOP_A,
      customerId: "4242",
      ordersRequested: [String(order.id)],
    });
    expect(exported.orders).toHaveLength(1);
    expect(JSON.stringify(exported.orders[0].customer)).toContain("Skalli");
    expect(JSON.stringify(exported.orders[0].customer)).toContain("0700112233");
    expect(exported.orders[0].timeline).toEqual(expect.any(Array));

    // AND another shop's session gets 404 for it and sees no request on its own Activity page
    const foreign = await route
      .loader({
        request: await adminRequest(SHOP_B, `/app/data-requests/${id}`, { as: "fetch" }),
        params: { id },
        context: {},
      })
      .catch((thrown: unknown) => thrown);
    expect((foreign as Response).status).toBe(404);
    expect((await load(activity.loader, SHOP_B, "/app/activity")).dataRequests).toEqual([]);
  });

  it("has the card's words in English and French", () => {
    expect(t("en", "activity.dataRequests.title")).toBe("Customer data requests");
    expect(t("fr", "activity.dataRequests.title")).toBe("Demandes de données clients");
    expect(t("fr", "activity.dataRequests.ordersValue", { held: 1, requested: 2 })).toBe("1 conservée sur 2 demandées");
  });
});
