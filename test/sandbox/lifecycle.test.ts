import { describe, expect, it } from "vitest";
import { SandboxControlError } from "../../sandbox/index";
import {
  CONFIRMATION_STATUSES,
  CONFIRMATION_TRANSITIONS,
  SHIPPING_STATUSES,
  confirmationRefusal,
  shippingRefusal,
} from "../../sandbox/lifecycle";
import { type DetailBody, type ListBody, useSandbox, uniquePhone, validLead } from "./helpers";

const sb = useSandbox();

async function newLead(overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await sb.createLead(validLead({ customer_phone: uniquePhone(), ...overrides }));
  return res.body.data.ref;
}

const detail = async (ref: string) => (await sb.call<DetailBody>("GET", `/v1/leads/${ref}`)).body.data;

async function expectRefused(promise: Promise<unknown>, field?: string) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SandboxControlError);
  expect((err as SandboxControlError).status).toBe(422);
  if (field) expect((err as SandboxControlError).body).toMatchObject({ error: { code: "illegal_transition", field } });
}

describe("lead lifecycle", () => {
  it("GIVEN a delivered lead THEN detail shows its tracking number (from pickup) and seller_profit = collected - platform prices - delivery fee", async () => {
    // 2 x ARG-OIL-50 (45.00) + 1 x AMLOU-250 (38.00) = 128.00; Casablanca fee 20.00; collected 300.00 -> 152.00
    const ref = await newLead({
      total_client: "300.00",
      items: [
        { sku: "ARG-OIL-50", quantity: 2 },
        { product_id: 1003, quantity: 1 },
      ],
    });
    await sb.control.advance(ref, { confirmation_status: "confirmed" });
    expect(await detail(ref)).toMatchObject({
      confirmation_status: "confirmed",
      shipping_status: "pending",
      tracking_number: null,
    });

    await sb.control.advance(ref, { shipping_status: "picked_up" });
    const picked = await detail(ref);
    expect(picked.tracking_number).toMatch(/^SBX\d{9}MA$/);
    expect(picked.seller_profit).toBeNull();

    await sb.control.advance(ref, { shipping_status: "shipped" });
    await sb.control.advance(ref, { shipping_status: "delivered" });
    expect(await detail(ref)).toMatchObject({
      shipping_status: "delivered",
      seller_profit: "152.00",
      tracking_number: picked.tracking_number,
    });
    await sb.control.advance(ref, { shipping_status: "paid" });
    expect(await detail(ref)).toMatchObject({ shipping_status: "paid", seller_profit: "152.00" });
  });

  it("keeps a tracking number given at pickup, and reports a loss as a negative profit", async () => {
    // A lead later accepted at a low total (the seller's call) delivers at a loss: 100.00 - 119.00 - 30.00 (Kénitra)
    const ref = await newLead({ city: "Kénitra", total_client: "100.00", items: [{ sku: "SMW-X8-SLV", quantity: 1 }] });
    await sb.control.correct(ref);
    await sb.control.advance(ref, {
      confirmation_status: "confirmed",
      shipping_status: "picked_up",
      tracking_number: "AMANA-123",
    });
    await sb.control.advance(ref, { shipping_status: "shipped" });
    await sb.control.advance(ref, { shipping_status: "delivered" });
    expect(await detail(ref)).toMatchObject({ tracking_number: "AMANA-123", seller_profit: "-49.00" });
  });

  it("walks the call centre's no-answer chain to a final status", async () => {
    const ref = await newLead();
    for (const s of ["no_answer_1", "no_answer_2", "no_answer_3", "callback", "callback", "canceled"] as const) {
      await sb.control.advance(ref, { confirmation_status: s });
    }
    expect(await detail(ref)).toMatchObject({ confirmation_status: "canceled", shipping_status: "pending" });
    await expectRefused(sb.control.advance(ref, { confirmation_status: "confirmed" }), "confirmation_status");
  });

  it("refuses a parcel before confirmation: shipping_status stays pending", async () => {
    const ref = await newLead();
    await expectRefused(sb.control.advance(ref, { shipping_status: "picked_up" }), "shipping_status");
    await sb.control.advance(ref, { confirmation_status: "fake" });
    await expectRefused(sb.control.advance(ref, { shipping_status: "picked_up" }), "shipping_status");
    expect((await detail(ref)).shipping_status).toBe("pending");
  });

  it("refuses skipped or backward steps, and a refused request changes nothing", async () => {
    const ref = await newLead();
    await expectRefused(sb.control.advance(ref, { confirmation_status: "no_answer_2" }), "confirmation_status");
    await sb.control.advance(ref, { confirmation_status: "confirmed" });
    await expectRefused(sb.control.advance(ref, { shipping_status: "delivered" }), "shipping_status");
    await expectRefused(sb.control.advance(ref, { tracking_number: "X1" }), "tracking_number");
    await sb.control.advance(ref, { shipping_status: "picked_up" });
    // the call centre cannot cancel a parcel that left
    await expectRefused(sb.control.advance(ref, { confirmation_status: "canceled" }), "confirmation_status");
    await sb.control.advance(ref, { shipping_status: "shipped" });
    await expectRefused(sb.control.advance(ref, { shipping_status: "paid" }), "shipping_status");
    await sb.control.advance(ref, { shipping_status: "returned" });
    await expectRefused(sb.control.advance(ref, { shipping_status: "delivered" }), "shipping_status");
    expect(await detail(ref)).toMatchObject({
      confirmation_status: "confirmed",
      shipping_status: "returned",
      seller_profit: null,
    });
  });

  it("checks a two-field request as a whole: when the second change is illegal, neither applies", async () => {
    const ref = await newLead();
    await expectRefused(
      sb.control.advance(ref, { confirmation_status: "confirmed", shipping_status: "delivered" }),
      "shipping_status",
    );
    expect(await detail(ref)).toMatchObject({ confirmation_status: "new", shipping_status: "pending" });
  });

  it("lets a confirmed lead be canceled before pickup", async () => {
    const ref = await newLead();
    await sb.control.advance(ref, { confirmation_status: "confirmed" });
    await sb.control.advance(ref, { confirmation_status: "canceled" });
    expect(await detail(ref)).toMatchObject({ confirmation_status: "canceled", shipping_status: "pending" });
  });

  it("is not reachable through the public API: no endpoint changes a status", async () => {
    const ref = await newLead();
    for (const method of ["PUT", "PATCH", "DELETE", "POST"]) {
      const res = await fetch(`${sb.url}/v1/leads/${ref}`, {
        method,
        headers: { Authorization: `Bearer ${sb.keys[0].key}`, "Content-Type": "application/json" },
        body: method === "DELETE" ? undefined : JSON.stringify({ confirmation_status: "canceled" }),
      });
      expect(res.status, method).toBe(404);
    }
    expect((await detail(ref)).confirmation_status).toBe("new");
  });
});

describe("damaged leads wait for a correction in the seller's space", () => {
  it("GIVEN a damaged lead THEN no status change is possible until it is corrected", async () => {
    const ref = await newLead({ city: "Casablanka" });
    await expectRefused(sb.control.advance(ref, { confirmation_status: "confirmed" }));
    expect((await detail(ref)).confirmation_status).toBe("new");
  });

  it("refuses a correction that leaves an unknown city or SKU, and applies one that fixes them", async () => {
    const ref = await newLead({ city: "Casablanka", items: [{ sku: "ARG-OIL-5O", quantity: 1 }] });
    await expect(sb.control.correct(ref)).rejects.toMatchObject({ status: 422 });
    await expect(sb.control.correct(ref, { items: [{ sku: "ARG-OIL-50", quantity: 1 }] })).rejects.toMatchObject({
      status: 422,
    });
    await expect(
      sb.control.correct(ref, { city: "Casablanca", items: [{ sku: "NOPE", quantity: 1 }] }),
    ).rejects.toMatchObject({ status: 422 });

    const fixed = await sb.control.correct(ref, { city: "Casablanca", items: [{ sku: "ARG-OIL-50", quantity: 1 }] });
    expect(fixed).toMatchObject({ damaged: false, anomalies: [], city_id: 101 });
    expect(fixed.corrected_anomalies.map((a) => a.code)).toEqual(["unknown_sku", "unknown_city"]);
    const list = await sb.call<ListBody>("GET", "/v1/leads");
    expect(list.body.data[0]).toMatchObject({ ref, damaged: false, anomalies: [], confirmation_status: "new" });
    await sb.control.advance(ref, { confirmation_status: "confirmed" });
    expect((await detail(ref)).confirmation_status).toBe("confirmed");
  });

  it("lets the seller accept a low total or a duplicate as it is", async () => {
    const ref = await newLead({ total_client: "10.00" });
    expect((await sb.control.correct(ref)).damaged).toBe(false);
    await expect(sb.control.correct(ref)).rejects.toMatchObject({ status: 422 });
  });

  it("validates corrected fields like creation does", async () => {
    const ref = await newLead({ city: "Atlantis" });
    await expect(sb.control.correct(ref, { city: "Casablanca", customer_phone: "0812345678" })).rejects.toMatchObject({
      status: 422,
      body: { error: { field: "customer_phone" } },
    });
  });
});

describe("transition rules (pure)", () => {
  it("final confirmation statuses have no way out, and the no-answer chain never skips a step", () => {
    for (const s of ["canceled", "wrong", "fake", "duplicate"] as const)
      expect(CONFIRMATION_TRANSITIONS[s]).toEqual([]);
    expect(
      confirmationRefusal({ confirmation_status: "new", shipping_status: "pending" }, "no_answer_3"),
    ).not.toBeNull();
    expect(
      confirmationRefusal({ confirmation_status: "no_answer_1", shipping_status: "pending" }, "no_answer_3"),
    ).not.toBeNull();
    expect(
      confirmationRefusal({ confirmation_status: "no_answer_2", shipping_status: "pending" }, "no_answer_3"),
    ).toBeNull();
  });

  it("no shipping change is legal for any status but confirmed", () => {
    for (const c of CONFIRMATION_STATUSES) {
      for (const s of SHIPPING_STATUSES) {
        const refusal = shippingRefusal({ confirmation_status: c, shipping_status: "pending" }, s);
        expect(refusal === null, `${c} pending -> ${s}`).toBe(c === "confirmed" && s === "picked_up");
      }
    }
  });
});
