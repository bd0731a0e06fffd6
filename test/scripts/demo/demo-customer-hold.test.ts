/**
 * The demo's returning customer: her settled history (refused, returned, fake)
 * is counted into her delivery record, the demo shop's hold rule is on, and her
 * new built-in order #1037 is the one the customer hold keeps back; the summary
 * says so. The whole run is in demo.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { RETURNING_CUSTOMER_PHONE, seedDemoHistory } from "../../../scripts/dev/demo/history";
import { DEMO_WRITE_BACK_SETTINGS } from "../../../scripts/dev/demo/demo-shop";
import { BUILT_IN_ORDERS_DIR, expectationsOf } from "../../../scripts/dev/demo/run-demo";
import { customerHoldLines, type OrderSummary } from "../../../scripts/dev/demo/summary";
import { readOrderFiles } from "../../../scripts/dev/lib/order-files";
import { customerHistory } from "../../../app/customers/records.server";
import { customerHold } from "../../../app/customers/risk";
import { holdReasonText } from "../../../app/customers/hold-reason";
import { normalizeMoroccanPhone } from "../../../app/leads/phone";
import { readShopSettings } from "../../../app/models/shop-settings";
import { t } from "../../../app/i18n";

const SHOP = "atlas-beauty.myshopify.com";
const NOW = new Date("2026-11-24T10:00:00Z");
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoHistory(database.prisma, SHOP, { now: NOW });
});
afterAll(() => database?.cleanup());

const phoneOf = (payload: Record<string, unknown>) => {
  const address = payload.shipping_address as { phone?: string } | undefined;
  const phone = normalizeMoroccanPhone(address?.phone ?? String(payload.phone ?? ""));
  return phone.ok ? phone.phone : null;
};

describe("the demo's returning customer", () => {
  it("has a bad delivery record from the seeded history", async () => {
    const record = await database.prisma.customerRecord.findUniqueOrThrow({
      where: { shop_phoneKey: { shop: SHOP, phoneKey: RETURNING_CUSTOMER_PHONE } },
    });
    expect(record).toMatchObject({ orders: 3, refused: 1, returned: 1, cancelled: 1, delivered: 0 });
  });

  it("is held by the demo shop's hold rule, and no other built-in order's customer is", async () => {
    const rule = readShopSettings(JSON.stringify(DEMO_WRITE_BACK_SETTINGS)).customerHold;
    expect(rule.enabled).toBe(true);
    const deliveries = readOrderFiles(BUILT_IN_ORDERS_DIR);
    const expected = expectationsOf(deliveries);
    const heldByRule: string[] = [];
    for (const { payload } of deliveries) {
      const phone = phoneOf(payload);
      if (!phone) continue;
      const decision = customerHold(await customerHistory(database.prisma, SHOP, phone), rule, NOW);
      if (decision.hold) {
        heldByRule.push(String(payload.name));
        expect(holdReasonText((key, params) => t("en", key, params), decision.reason)).toBe(
          "1 refused, 1 returned and 1 cancelled or fake in the last 90 days",
        );
      }
    }
    expect(heldByRule).toEqual(["#1037"]);
    expect(expected.get("6180000001037")).toEqual({ state: "held", findings: [], anomalies: [] });
  });

  it("is named in the summary's customer hold line", () => {
    const row = (name: string, hold: string | null) => ({ order_name: name, customer_hold: hold }) as OrderSummary;
    expect(
      customerHoldLines([
        row("#1001", null),
        row("#1037", "1 refused, 1 returned and 1 cancelled or fake in the last 90 days"),
      ]),
    ).toEqual([
      "Customer hold: #1037 held before sending, its returning customer's record says 1 refused, 1 returned and 1 cancelled or fake in the last 90 days. Send it anyway from its page or Anomalies.",
    ]);
    expect(customerHoldLines([row("#1001", null)])).toEqual([
      "Customer hold: on, no order held by a customer's delivery record.",
    ]);
  });
});
