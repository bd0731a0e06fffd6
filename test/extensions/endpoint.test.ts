/**
 * The app endpoints the order-page extensions call: GET /api/orders/:orderId/status
 * and POST /api/orders/:orderId/send, through the real routes with session
 * tokens, on a real database. Scoped to the shop, CORS for the admin's
 * origin, and never a key or the customer's personal data.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { adminRequest, BROWSER_USER_AGENT } from "../helpers/admin";
import { SHOP_A, SHOP_B, startAdminApp, stopAdminApp, type AdminApp } from "../pages/helpers";
import { parseStatusPayload, findingText, type LinkStatus } from "../../extensions/order-status-block/src/view-model";
import { loadLocale, translator } from "./locales";

type StatusRoute = typeof import("../../app/routes/api.orders.$orderId.status");
type SendRoute = typeof import("../../app/routes/api.orders.$orderId.send");
type ViewModule = typeof import("../../app/pages/order-status-view.server");
type Findings = typeof import("../../app/leads/findings");

let app: AdminApp;
let db: PrismaClient;
let statusRoute: StatusRoute;
let sendRoute: SendRoute;
let views: ViewModule;
let findings: Findings;

// The admin's extension sandbox: a different origin from the app.
const EXTENSION_ORIGIN = "https://extensions.shopifycdn.com";

const CUSTOMER = {
  name: "Fatima Zahra Benali",
  phone: "0612345678",
  rawPhone: "+212 612-345678",
  address: "12 Rue des Orangers, Maarif",
};

beforeAll(async () => {
  app = await startAdminApp();
  db = app.db.prisma;
  statusRoute = await import("../../app/routes/api.orders.$orderId.status");
  sendRoute = await import("../../app/routes/api.orders.$orderId.send");
  views = await import("../../app/pages/order-status-view.server");
  findings = await import("../../app/leads/findings");
});
afterAll(() => stopAdminApp(app));

let seq = 0;
async function seedLink(shop: string, data: Record<string, unknown>) {
  seq += 1;
  const orderId = String(5_500_000_000_000 + seq);
  const payload = {
    id: Number(orderId),
    name: `#${1000 + seq}`,
    phone: CUSTOMER.rawPhone,
    customer: { first_name: "Fatima Zahra", last_name: "Benali", phone: CUSTOMER.rawPhone },
    shipping_address: { name: CUSTOMER.name, phone: CUSTOMER.rawPhone, address1: CUSTOMER.address, city: "Casa" },
  };
  const lead = {
    customer_name: CUSTOMER.name,
    customer_phone: CUSTOMER.phone,
    address: CUSTOMER.address,
    city: 12,
    items: [{ sku: "ARG-50", quantity: 1 }],
  };
  const link = await db.orderLink.create({
    data: {
      shop,
      orderId,
      orderName: `#${1000 + seq}`,
      payload: JSON.stringify(payload),
      externalRef: `shopify:${orderId}`,
      phone: CUSTOMER.phone,
      leadJson: JSON.stringify(lead),
      ...data,
    },
  });
  return link;
}

async function getStatus(shop: string, orderId: string, headers: Record<string, string> = {}, query = "") {
  const request = await adminRequest(shop, `/api/orders/${encodeURIComponent(orderId)}/status${query}`, {
    as: "fetch",
    headers,
  });
  return statusRoute.loader({ request, params: { orderId }, context: {} });
}

async function postSend(shop: string, orderId: string) {
  const request = await adminRequest(shop, `/api/orders/${orderId}/send`, {
    as: "fetch",
    method: "POST",
    headers: { Origin: EXTENSION_ORIGIN },
  });
  return sendRoute.action({ request, params: { orderId }, context: {} });
}

const english = translator(loadLocale("order-status-block", "en"));

describe("GET /api/orders/:orderId/status", () => {
  let held: Awaited<ReturnType<typeof seedLink>>;
  let created: Awaited<ReturnType<typeof seedLink>>;

  beforeAll(async () => {
    const heldFindings = [
      findings.makeFinding("phone_invalid", "blocking", "customer_phone", { raw: CUSTOMER.rawPhone }),
      findings.makeFinding("sku_unmatched", "blocking", "items", {
        sku: "ARG-50",
        title: "Argan oil 50 ml",
        via: "sku",
      }),
      findings.makeFinding("name_missing", "warning", "customer_name", { name: "Fatima" }),
    ];
    held = await seedLink(SHOP_A, {
      state: "held",
      reason: heldFindings[0].message,
      findings: JSON.stringify(heldFindings),
    });
    created = await seedLink(SHOP_A, {
      state: "created",
      leadRef: "ATB-2001",
      confirmationStatus: "confirmed",
      shippingStatus: "shipped",
      trackingNumber: "AMA123456MA",
      anomalies: JSON.stringify([
        {
          code: "recent_duplicate",
          message: `Same customer phone (${CUSTOMER.phone}) and product as ATB-2000.`,
          field: "customer_phone",
        },
      ]),
    });
    await db.timelineEvent.createMany({
      data: [
        { shop: SHOP_A, linkId: created.id, kind: "posted", message: "Sent", at: new Date("2026-03-09T08:00:00Z") },
        {
          shop: SHOP_A,
          linkId: created.id,
          kind: "status_changed",
          message: "Shipped",
          at: new Date("2026-03-09T10:30:00Z"),
        },
        // Writing the outcome back to Shopify is not a status change.
        {
          shop: SHOP_A,
          linkId: created.id,
          kind: "written_back",
          message: "Tagged",
          at: new Date("2026-03-09T11:00:00Z"),
        },
      ],
    });
  });

  it("answers a held order's status with its findings, the send offer and the fix link", async () => {
    const response = await getStatus(SHOP_A, held.orderId);
    expect(response.status).toBe(200);
    const body = (await response.json()) as LinkStatus;
    expect(body).toMatchObject({
      state: "held",
      leadRef: null,
      confirmationStatus: null,
      shippingStatus: null,
      trackingNumber: null,
      anomalies: [],
      canSend: true,
      sendLabel: "send",
      fixUrl: `/app/orders/${held.id}`,
    });
    expect(body.findings).toEqual([
      { code: "phone_invalid", severity: "blocking", message: expect.any(String), params: {} },
      {
        code: "sku_unmatched",
        severity: "blocking",
        message: expect.any(String),
        params: { sku: "ARG-50", title: "Argan oil 50 ml", via: "sku" },
      },
      { code: "name_missing", severity: "warning", message: expect.any(String), params: {} },
    ]);
    expect(body.findings[0].message).toBe(
      "“•••” is not a valid Moroccan phone number. The platform needs a mobile number starting with 06 or 07.",
    );
    expect(body.reason).toBe(body.findings[0].message);
    expect(new Date(body.lastChangeAt).getTime()).not.toBeNaN();
    // The extension reads it as is.
    expect(parseStatusPayload(body)).toEqual(body);
  });

  it("never answers a key, the lead JSON, the payload or the customer's name, phone or address", async () => {
    for (const link of [held, created]) {
      const text = await (await getStatus(SHOP_A, link.orderId)).text();
      for (const secret of [
        CUSTOMER.name,
        "Fatima",
        "Benali",
        CUSTOMER.phone,
        CUSTOMER.rawPhone,
        "612345678",
        "612-345678",
        CUSTOMER.address,
        "Orangers",
        "shpat_",
        process.env.SHOPIFY_API_KEY!,
        process.env.SHOPIFY_API_SECRET!,
      ]) {
        expect(text, `${link.state} answer`).not.toContain(secret);
      }
      expect(Object.keys(JSON.parse(text) as object).sort()).toEqual(
        [
          "anomalies",
          "canSend",
          "confirmationStatus",
          "currency",
          "customer",
          "findings",
          "fixUrl",
          "hold",
          "lastChangeAt",
          "leadRef",
          "nextAction",
          "reason",
          "reasonText",
          "sendLabel",
          "shippingStatus",
          "stage",
          "state",
          "trackingNumber",
        ].sort(),
      );
    }
  });

  it("answers a created lead's statuses, tracking number, anomalies and last status change", async () => {
    const body = (await (await getStatus(SHOP_A, created.orderId)).json()) as LinkStatus;
    expect(body).toEqual({
      state: "created",
      reason: null,
      reasonText: null,
      currency: "MAD",
      leadRef: "ATB-2001",
      confirmationStatus: "confirmed",
      shippingStatus: "shipped",
      trackingNumber: "AMA123456MA",
      lastChangeAt: "2026-03-09T10:30:00.000Z",
      findings: [],
      anomalies: [{ code: "recent_duplicate", message: "Same customer phone (•••) and product as ATB-2000." }],
      canSend: false,
      sendLabel: null,
      fixUrl: `/app/orders/${created.id}`,
      // A phone with no record yet: a new customer.
      customer: {
        risk: "new",
        orders: 0,
        counts: { delivered: 0, returned: 0, refused: 0, cancelled: 0, wrong_number: 0, in_progress: 0 },
        lastOutcome: null,
        lastOutcomeAt: null,
      },
      hold: null,
      // As the app's pages say it: shipped, and nothing to do.
      stage: "shipped",
      nextAction: "none",
    });
  });

  it("answers the stored reason in the language the extension names, English by default", async () => {
    const ref = {
      key: "timeline.text.sendFailedFinal",
      params: { attempts: 3, cause: { key: "timeline.cause.unreachable" } },
    };
    const failed = await seedLink(SHOP_A, {
      state: "failed",
      reason: "Sending failed after 3 attempts: the platform could not be reached",
      reasonText: JSON.stringify(ref),
    });
    const french = (await (await getStatus(SHOP_A, failed.orderId, {}, "?locale=fr")).json()) as LinkStatus;
    expect(french).toMatchObject({
      reason: failed.reason,
      reasonText: "Échec de l'envoi après 3 essais : la plateforme est injoignable",
      currency: "MAD",
    });
    const english = (await (await getStatus(SHOP_A, failed.orderId)).json()) as LinkStatus;
    expect(english.reasonText).toBe("Sending failed after 3 attempts: the platform could not be reached");
    // A reason stored before sentences: only its English.
    const older = await seedLink(SHOP_A, { state: "failed", reason: "Sending failed after 10 attempts: 503" });
    expect(
      ((await (await getStatus(SHOP_A, older.orderId, {}, "?locale=fr")).json()) as LinkStatus).reasonText,
    ).toBeNull();
  });

  it("answers the customer's delivery record as counts and the customer hold's reason as data, never the phone", async () => {
    await db.customerRecord.create({
      data: {
        shop: SHOP_A,
        phoneKey: CUSTOMER.phone,
        orders: 4,
        delivered: 1,
        refused: 2,
        returned: 1,
        lastOutcome: "refused",
        lastOutcomeAt: new Date("2026-03-01T10:00:00Z"),
      },
    });
    const reason = { code: "customer_record", counts: { refused: 2, returned: 1 }, days: 90, blocked: false };
    const customerHeld = await seedLink(SHOP_A, {
      state: "held",
      reason: "2 refused and 1 returned in the last 90 days",
    });
    await db.timelineEvent.create({
      data: {
        shop: SHOP_A,
        linkId: customerHeld.id,
        kind: "customer_hold",
        message: customerHeld.reason!,
        data: JSON.stringify({ reason }),
      },
    });
    try {
      const response = await getStatus(SHOP_A, customerHeld.orderId);
      const text = await response.text();
      const body = parseStatusPayload(JSON.parse(text))! as LinkStatus;
      expect(body.customer).toEqual({
        risk: "high",
        orders: 4,
        counts: { delivered: 1, returned: 1, refused: 2, cancelled: 0, wrong_number: 0, in_progress: 0 },
        lastOutcome: "refused",
        lastOutcomeAt: "2026-03-01T10:00:00.000Z",
      });
      expect(body.hold).toEqual({ code: "customer_record", counts: { refused: 2, returned: 1 }, days: 90 });
      expect(text).not.toContain(CUSTOMER.phone);
      // Another shop's record of the same phone is not this shop's.
      await db.customerRecord.update({
        where: { shop_phoneKey: { shop: SHOP_A, phoneKey: CUSTOMER.phone } },
        data: { shop: SHOP_B },
      });
      const other = parseStatusPayload(await (await getStatus(SHOP_A, customerHeld.orderId)).json()) as LinkStatus;
      expect(other.customer).toMatchObject({ risk: "new", orders: 0 });

      // Sending it from Shopify's order page is "send anyway": the rule does not hold it again.
      const sent = await postSend(SHOP_A, customerHeld.orderId);
      expect(sent.status).toBe(200);
      const after = await db.orderLink.findUniqueOrThrow({ where: { id: customerHeld.id } });
      expect(JSON.parse(after.flags)).toContain("customer_hold_waived");
      expect((await db.timelineEvent.findMany({ where: { linkId: customerHeld.id } })).map((e) => e.kind)).toContain(
        "send_anyway",
      );
    } finally {
      await db.customerRecord.deleteMany({ where: { phoneKey: CUSTOMER.phone } });
    }
  });

  it("accepts the admin's gid as the order id", async () => {
    const body = (await (await getStatus(SHOP_A, `gid://shopify/Order/${created.orderId}`)).json()) as LinkStatus;
    expect(body.leadRef).toBe("ATB-2001");
  });

  it("answers { state: unknown } for an order the app has no link for, and for another shop's order", async () => {
    expect(await (await getStatus(SHOP_A, "999999")).json()).toEqual({ state: "unknown" });
    expect(await (await getStatus(SHOP_B, created.orderId)).json()).toEqual({ state: "unknown" });
  });

  it("refuses an order id that is neither numeric nor an order gid", async () => {
    const response = await getStatus(SHOP_A, "gid://shopify/Product/1");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "invalid order id" });
  });

  it("adds CORS headers for the admin extension's origin", async () => {
    const response = await getStatus(SHOP_A, created.orderId, { Origin: EXTENSION_ORIGIN });
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
  });

  it("answers the CORS preflight without a session token", async () => {
    const request = new Request(`${process.env.SHOPIFY_APP_URL}/api/orders/${created.orderId}/status`, {
      method: "OPTIONS",
      headers: {
        Origin: EXTENSION_ORIGIN,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization",
        "User-Agent": BROWSER_USER_AGENT,
      },
    });
    // Remix routes OPTIONS to the action; authenticate.admin throws the 204.
    const outcome = await statusRoute
      .action({ request, params: { orderId: created.orderId }, context: {} })
      .catch((thrown: unknown) => thrown);
    expect(outcome).toBeInstanceOf(Response);
    const response = outcome as Response;
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
  });

  it("rejects a request without a valid session token", async () => {
    const request = new Request(`${process.env.SHOPIFY_APP_URL}/api/orders/${created.orderId}/status`, {
      headers: { Authorization: "Bearer not-a-jwt", Origin: EXTENSION_ORIGIN, "User-Agent": BROWSER_USER_AGENT },
    });
    const outcome = await statusRoute
      .loader({ request, params: { orderId: created.orderId }, context: {} })
      .catch((thrown: unknown) => thrown);
    expect(outcome).toBeInstanceOf(Response);
    expect((outcome as Response).status).toBe(401);
    expect(app.shopifyCalls).toEqual([]);
  });
});

describe("POST /api/orders/:orderId/send", () => {
  it("sends a held order: back to received, queued, recorded with the staff user", async () => {
    const link = await seedLink(SHOP_A, {
      state: "held",
      reason: "Automatic sending is off: send this order from the app when it is ready",
    });
    const response = await postSend(SHOP_A, link.orderId);
    expect(response.status).toBe(200);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const body = (await response.json()) as LinkStatus;
    expect(body).toMatchObject({ state: "received", reason: null, canSend: false, sendLabel: null });

    const stored = await db.orderLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(stored).toMatchObject({ state: "received", resendBy: "staff 12345" });
    const job = await db.job.findUnique({ where: { key: `post-lead:${SHOP_A}:${link.orderId}` } });
    expect(job).toMatchObject({ kind: "post-lead", shop: SHOP_A, state: "pending" });
    expect(JSON.parse(job!.payload)).toEqual({ linkId: link.id });
    const timeline = await db.timelineEvent.findMany({ where: { linkId: link.id } });
    expect(timeline.map((e) => e.kind)).toEqual(["resend"]);
  });

  it("resends a failed order", async () => {
    const link = await seedLink(SHOP_A, { state: "failed", reason: "Sending failed after 10 attempts: 503" });
    const before = (await (await getStatus(SHOP_A, link.orderId)).json()) as LinkStatus;
    expect(before).toMatchObject({ canSend: true, sendLabel: "resend" });
    const response = await postSend(SHOP_A, link.orderId);
    expect(response.status).toBe(200);
    expect(await db.job.count({ where: { key: `post-lead:${SHOP_A}:${link.orderId}` } })).toBe(1);
  });

  it("answers 409 for an order being sent, and changes nothing", async () => {
    const link = await seedLink(SHOP_A, { state: "posting", postingSince: new Date() });
    const response = await postSend(SHOP_A, link.orderId);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: "this order cannot be sent while it is posting" });
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect((await db.orderLink.findUniqueOrThrow({ where: { id: link.id } })).state).toBe("posting");
    expect(await db.job.count({ where: { key: `post-lead:${SHOP_A}:${link.orderId}` } })).toBe(0);
  });

  it("answers the CORS preflight", async () => {
    const request = new Request(`${process.env.SHOPIFY_APP_URL}/api/orders/1/send`, {
      method: "OPTIONS",
      headers: { Origin: EXTENSION_ORIGIN, "Access-Control-Request-Method": "POST", "User-Agent": BROWSER_USER_AGENT },
    });
    const outcome = await sendRoute
      .action({ request, params: { orderId: "1" }, context: {} })
      .catch((thrown: unknown) => thrown);
    expect(outcome).toBeInstanceOf(Response);
    expect((outcome as Response).status).toBe(204);
    expect((outcome as Response).headers.get("Access-Control-Allow-Origin")).toBe("*");
  });

  it("answers 404 for another shop's order and leaves it alone", async () => {
    const link = await seedLink(SHOP_A, { state: "held" });
    const response = await postSend(SHOP_B, link.orderId);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "order not found" });
    expect((await db.orderLink.findUniqueOrThrow({ where: { id: link.id } })).state).toBe("held");
    expect(await db.job.count({ where: { key: { contains: link.orderId } } })).toBe(0);
  });
});

describe("the status view (pure part)", () => {
  it("gives each finding's translation the params it needs, and only public ones", () => {
    const all = [
      findings.makeFinding("not_cod", "blocking", "order", { reason: "gateway", gateways: "Stripe" }),
      findings.makeFinding("not_cod", "blocking", "order", { reason: "already_paid", financialStatus: "paid" }),
      findings.makeFinding("city_unmatched", "blocking", "city", { input: "Kasba" }),
      findings.makeFinding("city_fuzzy", "warning", "city", { input: "Casa", city: "Casablanca", score: 0.9 }),
      findings.makeFinding("city_from_address", "warning", "city", {
        cityField: CUSTOMER.address,
        city: "Rabat",
        source: "address1",
      }),
      findings.makeFinding("sku_missing", "blocking", "items", { title: "Serum" }),
      findings.makeFinding("sku_unmatched", "blocking", "items", { title: "Serum", unknown: "SKU X", via: "mapping" }),
      findings.makeFinding("item_out_of_stock", "warning", "items", { name: "Serum", sku: "SR-1" }),
      findings.makeFinding("currency_not_mad", "blocking", "total_client", { currency: "EUR" }),
      findings.makeFinding("total_invalid", "blocking", "total_client", { amount: "abc" }),
      findings.makeFinding("total_below_cost", "warning", "total_client", { total: "10.00", minimum: "99.00" }),
      findings.makeFinding("possible_duplicate", "warning", "order", { otherOrder: "#1001", minutesAgo: 5 }),
      findings.makeFinding("phone_foreign", "blocking", "customer_phone", {
        raw: "+33 6 12 34 56 78",
        callingCode: 33,
      }),
    ];
    const link = {
      id: "l1",
      shop: SHOP_A,
      state: "held",
      reason: null,
      leadRef: null,
      confirmationStatus: null,
      shippingStatus: null,
      trackingNumber: null,
      cancelledAt: null,
      updatedAt: new Date(),
      phone: null,
      leadJson: null,
      payload: "{}",
      findings: JSON.stringify(all),
      anomalies: "[]",
    };
    const view = views.toLinkStatusView(link as Parameters<ViewModule["toLinkStatusView"]>[0], null);
    const parsed = parseStatusPayload(JSON.parse(JSON.stringify(view))) as LinkStatus;
    for (const f of parsed.findings) expect(findingText(f, english), f.code).not.toContain("?");
    const text = JSON.stringify(view);
    expect(text).not.toContain("Orangers");
    expect(text).not.toContain("12 34 56 78");
  });

  it("masks personal values and phone-shaped numbers in free texts", () => {
    const values = views.personalValues({
      phone: "0612345678",
      leadJson: JSON.stringify({ customer_name: "Youssef El Amrani" }),
      payload: "{}",
      findings: "[]",
    });
    expect(views.maskPersonal("Youssef El Amrani called from 06 12 34 56 78 about SKU 1234567", values)).toBe(
      "••• called from ••• about SKU 1234567",
    );
    expect(views.maskPersonal("Ask Amrani, or +212612345678", values)).toBe("Ask •••, or •••");
  });

  it("reads the order id from a number or an order gid only", () => {
    expect(views.parseOrderIdParam("5501")).toBe("5501");
    expect(views.parseOrderIdParam("gid://shopify/Order/5501")).toBe("5501");
    expect(views.parseOrderIdParam("gid://shopify/Customer/5501")).toBeNull();
    expect(views.parseOrderIdParam("1; drop table")).toBeNull();
    expect(views.parseOrderIdParam(undefined)).toBeNull();
  });
});
