/**
 * The feed's pure decisions: which outcome a lead reached (a jump counts the
 * steps before), what an order gives to hash, and whether an outcome is sent,
 * too late, without consent or erased.
 */
import { describe, expect, it } from "vitest";
import type { LeadSnapshot } from "../../app/models/lead-events";
import { newlyReached, reachedStages } from "../../app/ad-feed/stages";
import { decide, MAX_EVENT_AGE_MS, type ConsentSignal } from "../../app/ad-feed/decide";
import { orderFacts, parseOrderSnapshot } from "../../app/ad-feed/order-facts";
import { wantedStages } from "../../app/ad-feed/feed-settings";
import { eventNameFor, sha256Hex } from "../../app/ad-platforms/index";

const lead = (confirmationStatus: string | null, shippingStatus: string | null, state = "created"): LeadSnapshot => ({
  state,
  confirmationStatus,
  shippingStatus,
  sellerProfit: null,
});

describe("stages a lead reached", () => {
  it("GIVEN each status WHEN read THEN the outcomes reached so far", () => {
    expect([...reachedStages(lead("new", "pending"))]).toEqual([]);
    expect([...reachedStages(lead("confirmed", "pending"))]).toEqual(["confirmed"]);
    expect([...reachedStages(lead("confirmed", "shipped"))]).toEqual(["confirmed", "shipped"]);
    expect([...reachedStages(lead("confirmed", "paid"))]).toEqual(["confirmed", "shipped", "delivered"]);
    expect([...reachedStages(lead("confirmed", "returned"))]).toEqual(["confirmed", "shipped", "returned"]);
    expect([...reachedStages(lead("canceled", "pending"))]).toEqual(["refused"]);
    // Not sent to the platform: nothing reached, whatever the statuses say.
    expect([...reachedStages(lead("confirmed", "delivered", "held"))]).toEqual([]);
  });

  it("GIVEN a lead seen first as delivered WHEN it moves THEN the counted stage is reached once, at that move", () => {
    const wanted = wantedStages({ stage: "shipped", negativeOutcomes: true });
    expect(newlyReached(lead("new", "pending"), lead("confirmed", "delivered"), wanted)).toEqual(["shipped"]);
    expect(newlyReached(lead("confirmed", "delivered"), lead("confirmed", "paid"), wanted)).toEqual([]);
    expect(newlyReached(lead("confirmed", "shipped"), lead("confirmed", "returned"), wanted)).toEqual(["returned"]);
    expect(
      newlyReached(null, lead("canceled", "pending"), wantedStages({ stage: "delivered", negativeOutcomes: false })),
    ).toEqual([]);
  });

  it("GIVEN the naming WHEN an event is named THEN a custom event, or each platform's purchase for the counted stage only", () => {
    expect(eventNameFor("meta", "delivered", "delivered", "custom")).toBe("CODDelivered");
    expect(eventNameFor("meta", "delivered", "delivered", "purchase")).toBe("Purchase");
    expect(eventNameFor("tiktok", "delivered", "delivered", "purchase")).toBe("CompletePayment");
    expect(eventNameFor("meta", "returned", "delivered", "purchase")).toBe("CODReturned");
  });
});

const checkoutOrder = {
  id: 5550001,
  email: " Salma.Bennani@Example.ma ",
  phone: "+212 6 12 34 56 78",
  checkout_token: "chk-abc",
  order_status_url: "https://atlas-beauty.ma/orders/abc/authenticate",
  client_details: { browser_ip: "105.66.12.34", user_agent: "Mozilla/5.0 (Android)" },
  customer: { id: 7001, first_name: "Salma", last_name: "Bennani" },
  shipping_address: {
    first_name: "Salma",
    last_name: "Bennani",
    city: "Casablanca",
    country_code: "MA",
    phone: "0612345678",
  },
  line_items: [{ sku: "ARGAN-50", title: "Argan oil", quantity: 2, price: "120.00" }],
};

describe("an order's facts", () => {
  it("GIVEN a checkout order WHEN read THEN its customer fields, browser and lines", () => {
    const facts = orderFacts(checkoutOrder, "0611111111");
    expect(facts.customer).toMatchObject({
      email: "Salma.Bennani@Example.ma",
      phone: "+212611111111",
      city: "Casablanca",
      customerId: "7001",
    });
    expect(facts.browser).toEqual({ ip: "105.66.12.34", userAgent: "Mozilla/5.0 (Android)" });
    expect(facts.fromCheckout).toBe(true);
    expect(facts.items).toEqual([{ id: "ARGAN-50", name: "Argan oil", quantity: 2, price: 120 }]);
  });

  it("GIVEN an order a form app created WHEN read THEN no browser and not from a checkout", () => {
    const { client_details: _c, checkout_token: _t, ...apiOrder } = checkoutOrder;
    const facts = orderFacts(apiOrder, null);
    expect(facts.fromCheckout).toBe(false);
    expect(facts.browser).toEqual({ ip: null, userAgent: null });
    expect(facts.customer.phone).toBe("0612345678");
  });

  it("GIVEN an erased snapshot WHEN parsed THEN nothing to tell", () => {
    expect(parseOrderSnapshot(JSON.stringify({ id: 1, name: "#1", redacted: true }))).toBeNull();
    expect(parseOrderSnapshot("{broken")).toBeNull();
  });
});

describe("deciding an outcome", () => {
  const nowMs = Date.parse("2026-11-27T12:00:00Z");
  const outcome = {
    orderId: "5550001",
    orderName: "#1001",
    stage: "delivered" as const,
    occurredAt: new Date(nowMs - 3600_000),
    value: 240,
  };
  const facts = orderFacts(checkoutOrder, "0612345678");
  const consent: ConsentSignal = {
    checkoutToken: "chk-abc",
    marketing: true,
    clicks: { fbp: "fb.1.1700000000000.42" },
    pageUrl: null,
  };
  const options = { withoutConsentSignal: false, nowMs, storeUrl: "https://atlas.myshopify.com/" };

  it("GIVEN consent at checkout WHEN decided THEN sent with the click ids, the hashed customer and the order's value", () => {
    const decision = decide(outcome, facts, consent, options);
    if (decision.kind !== "send") throw new Error(decision.kind);
    expect(decision.conversion).toMatchObject({
      eventId: "cod-5550001-delivered",
      eventTime: Math.floor((nowMs - 3600_000) / 1000),
      clicks: { fbp: "fb.1.1700000000000.42" },
      value: 240,
      currency: "MAD",
      orderId: "#1001",
      pageUrl: "https://atlas-beauty.ma/orders/abc/authenticate",
    });
    expect(decision.conversion.customer.email).toBe(sha256Hex("salma.bennani@example.ma"));
    expect(decision.fromCustomerDataOnly).toBe(false);
  });

  it("GIVEN an outcome reached more than 7 days ago WHEN decided THEN too late, never sent", () => {
    expect(
      decide({ ...outcome, occurredAt: new Date(nowMs - MAX_EVENT_AGE_MS - 1) }, facts, consent, options).kind,
    ).toBe("too_late");
  });

  it("GIVEN a refusal, no signal, or a signal for another checkout WHEN consent is asked THEN not sent", () => {
    expect(decide(outcome, facts, { ...consent, marketing: false }, options).kind).toBe("no_consent");
    expect(decide(outcome, facts, null, options).kind).toBe("no_consent");
    expect(decide(outcome, facts, { ...consent, checkoutToken: "someone-elses" }, options).kind).toBe("no_consent");
  });

  it("GIVEN no signal and the merchant's setting on WHEN decided THEN sent from customer data alone, without click ids", () => {
    const { client_details: _c, checkout_token: _t, ...apiOrder } = checkoutOrder;
    const decision = decide(outcome, orderFacts(apiOrder, "0612345678"), null, {
      ...options,
      withoutConsentSignal: true,
    });
    if (decision.kind !== "send") throw new Error(decision.kind);
    expect(decision.fromCustomerDataOnly).toBe(true);
    expect(decision.conversion.clicks).toEqual({});
    // A refusal stays a refusal, whatever the setting.
    expect(
      decide(outcome, facts, { ...consent, marketing: false }, { ...options, withoutConsentSignal: true }).kind,
    ).toBe("no_consent");
  });

  it("GIVEN an order whose data was erased WHEN decided THEN erased", () => {
    expect(decide(outcome, null, consent, options).kind).toBe("erased");
  });
});
