/**
 * The Flow extensions as Shopify reads them at deploy: each trigger's TOML declares
 * exactly the fields the worker sends (app/flow/triggers.ts), with types and handles
 * the Shopify CLI accepts, and the action points at the app's runtime route.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import {
  FLOW_TRIGGER,
  FLOW_TRIGGER_FIELDS,
  deliveryOddsFiring,
  paymentOverdueFiring,
  triggerFiringsFor,
  type FlowLinkFacts,
} from "../../app/flow/triggers";
import { FLOW_SEND_ORDER_HANDLE } from "../../app/pages/flow-send-order.server";
import { flowDefinitionsFrom, referenceKey, validateTriggerPayload } from "../../shopify-admin/flow";
import { type LeadEvent } from "../../app/models/lead-events";

const root = join(import.meta.dirname, "..", "..");
const extensionsDir = join(root, "extensions");
const definitions = flowDefinitionsFrom(extensionsDir);
// The Shopify CLI's accepted Flow field types (its flow_trigger / flow_action schema).
const CLI_FIELD_TYPES = new Set([
  "order_reference",
  "customer_reference",
  "product_reference",
  "boolean",
  "email",
  "multi_line_text_field",
  "number_integer",
  "single_line_text_field",
  "url",
  "number_decimal",
]);

describe("Flow trigger extensions", () => {
  it.each(Object.values(FLOW_TRIGGER))("declares %s with the fields the worker sends", (handle) => {
    const definition = definitions.triggers.find((t) => t.handle === handle);
    expect(definition, `extensions/flow-${handle}/shopify.extension.toml`).toBeDefined();
    expect(definition!.fields.map((f) => ({ type: f.type, key: f.key }))).toEqual(
      FLOW_TRIGGER_FIELDS[handle].map((f) => ({ type: f.type, key: f.key })),
    );
  });

  it("uses handles and field types the CLI accepts, and an order reference on every trigger", () => {
    expect(definitions.triggers).toHaveLength(Object.values(FLOW_TRIGGER).length);
    for (const { handle, fields } of [...definitions.triggers, ...definitions.actions]) {
      expect(handle).toMatch(/^[a-z0-9-]{1,30}$/);
      for (const field of fields) expect(CLI_FIELD_TYPES.has(field.type), field.type).toBe(true);
      expect(fields.filter((f) => f.type === "order_reference")).toHaveLength(1);
      // Keys are unique, so no two fields collide in Flow's variables.
      const keys = fields.map((f) => referenceKey(f.type) ?? f.key);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it("declares the Send order action on the app's runtime route, with a required order", () => {
    expect(definitions.actions).toEqual([
      {
        handle: FLOW_SEND_ORDER_HANDLE,
        name: "Send order to the COD platform",
        runtimeUrl: "/flow/actions/send-order",
        fields: [{ type: "order_reference", required: true }],
      },
    ]);
    const route = join(root, "app", "routes", "flow.actions.send-order.tsx");
    expect(existsSync(route)).toBe(true);
  });

  it("every extension folder holds one TOML with a name and description", () => {
    for (const handle of [...Object.values(FLOW_TRIGGER), "send-order"]) {
      const toml = parse(readFileSync(join(extensionsDir, `flow-${handle}`, "shopify.extension.toml"), "utf8")) as {
        extensions: { name: string; description: string }[];
      };
      expect(toml.extensions).toHaveLength(1);
      expect(toml.extensions[0].name.length).toBeGreaterThan(3);
      expect(toml.extensions[0].description.length).toBeGreaterThan(10);
    }
  });
});

describe("payloads against the declared fields", () => {
  const link: FlowLinkFacts = {
    id: "l1",
    orderId: "5550001",
    orderName: "#1001",
    leadRef: "ATB-1",
    cityName: "Casablanca",
    totalClient: "249.00",
    reason: "Held: unknown SKU",
    findings: JSON.stringify([{ message: "SKU “X-1” is not in the catalogue." }]),
    anomalies: "[]",
    trackingNumber: "TRK-1",
    sellerProfit: "180.50",
  };
  const snapshot = (state: string, confirmationStatus: string | null = null, shippingStatus: string | null = null) => ({
    state,
    confirmationStatus,
    shippingStatus,
    sellerProfit: null,
  });
  const events: LeadEvent[] = [
    {
      linkId: "l1",
      kind: "answered",
      before: snapshot("posting"),
      after: snapshot("created", "new", "pending"),
      at: new Date(1),
    },
    {
      linkId: "l1",
      kind: "answered",
      before: snapshot("posting"),
      after: snapshot("damaged", "new", "pending"),
      at: new Date(2),
    },
    {
      linkId: "l1",
      kind: "status",
      before: snapshot("created", "new", "pending"),
      after: snapshot("created", "confirmed", "delivered"),
      at: new Date(3),
    },
    {
      linkId: "l1",
      kind: "stopped",
      before: snapshot("received"),
      after: snapshot("held"),
      reason: "Held",
      at: new Date(4),
    },
  ];

  it("every firing passes the stand-in's check of the declared fields", () => {
    const firings = events.flatMap((e) => triggerFiringsFor(e, link));
    expect(firings.map((f) => f.handle).sort()).toEqual([
      "lead-created",
      "lead-created",
      "lead-status-changed",
      "order-needs-attention",
      "order-needs-attention",
    ]);
    for (const firing of firings) {
      const definition = definitions.triggers.find((t) => t.handle === firing.handle);
      expect(validateTriggerPayload(definition, firing.handle, firing.payload)).toEqual([]);
    }
  });

  it("a Payment overdue firing passes the check too, with a whole number of days unpaid", () => {
    const definition = definitions.triggers.find((t) => t.handle === FLOW_TRIGGER.paymentOverdue);
    const firing = paymentOverdueFiring({
      orderId: "5550001",
      leadRef: "ATB-1",
      deliveredDay: "2026-11-02",
      totalCents: 24900,
      profitCents: 8050,
      daysUnpaid: 17,
    });
    expect(firing.payload).toEqual({
      order_id: 5550001,
      "Lead reference": "ATB-1",
      "Amount collected": 249,
      "Seller profit": 80.5,
      "Delivered on": "2026-11-02",
      "Days unpaid": 17,
    });
    expect(validateTriggerPayload(definition, firing.handle, firing.payload)).toEqual([]);
    // A profit the platform has not given yet is sent as 0, still a number.
    const unknown = paymentOverdueFiring({
      orderId: "5550002",
      leadRef: null,
      deliveredDay: "2026-11-02",
      totalCents: 24900,
      profitCents: null,
      daysUnpaid: 20,
    });
    expect(validateTriggerPayload(definition, unknown.handle, unknown.payload)).toEqual([]);
    expect(
      validateTriggerPayload(definition, firing.handle, { ...firing.payload, "Days unpaid": 1.5 })[0].message,
    ).toBe("Days unpaid must be an integer");
  });

  it("GIVEN an order's delivery odds THEN its firing carries the probability in percent, the value in MAD and the reasons", () => {
    const definition = definitions.triggers.find((t) => t.handle === FLOW_TRIGGER.deliveryOdds);
    const odds = {
      orderId: "5550001",
      probability: 0.3847,
      valueCents: -1234,
      level: "HIGH",
      held: true,
      reasons: ["Refused, returned or cancelled 2 earlier orders", "Short or incomplete address"],
    };
    const firing = deliveryOddsFiring(odds);
    expect(firing.payload).toEqual({
      order_id: 5550001,
      "Delivery probability": 38.5,
      "Expected value": -12.34,
      "Risk level": "HIGH",
      Decision: "hold",
      Reasons: "Refused, returned or cancelled 2 earlier orders\nShort or incomplete address",
    });
    expect(validateTriggerPayload(definition, firing.handle, firing.payload)).toEqual([]);
    // The same score again is the same event (one firing); another score is a new one.
    expect(deliveryOddsFiring(odds).eventKey).toBe(firing.eventKey);
    expect(deliveryOddsFiring({ ...odds, probability: 0.6, held: false }).eventKey).not.toBe(firing.eventKey);
    expect(deliveryOddsFiring({ ...odds, valueCents: null }).payload["Expected value"]).toBe(0);
  });

  it("the stand-in refuses a payload missing a field, with a wrong type or an undeclared key", () => {
    const definition = definitions.triggers.find((t) => t.handle === FLOW_TRIGGER.leadCreated);
    const good = triggerFiringsFor(events[0], link)[0].payload;
    const { City: _city, ...missing } = good;
    expect(validateTriggerPayload(definition, "lead-created", missing)).toEqual([
      { field: ["payload", "City"], message: "City is missing" },
    ]);
    expect(
      validateTriggerPayload(definition, "lead-created", { ...good, "Amount to collect": "249.00" })[0].message,
    ).toBe("Amount to collect must be a number");
    expect(validateTriggerPayload(definition, "lead-created", { ...good, extra: 1 })[0].message).toBe(
      "extra is not a field of the trigger",
    );
    expect(validateTriggerPayload(undefined, "nope", good)[0].message).toBe("Trigger with handle 'nope' not found");
  });
});
