/**
 * orderRiskAssessmentCreate on the stand-in: the assessment is recorded on the order,
 * read back through the order's risk summary (each app's latest), shown on the order
 * page; Shopify's refusals (unknown order, fulfilled order, too many facts) as userErrors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as documents from "../../app/shopify/documents";
import {
  orderPageUrl,
  shopifyAdminControl,
  startShopifyAdmin,
  type RunningShopifyAdmin,
} from "../../shopify-admin/index";
import { graphql } from "./helpers";

const SHOP = "risk.myshopify.com";
let admin: RunningShopifyAdmin;
let control: ReturnType<typeof shopifyAdminControl>;

beforeAll(async () => {
  admin = await startShopifyAdmin({ quiet: true });
  control = shopifyAdminControl(admin.url);
  admin.shop(SHOP);
});
afterAll(() => admin?.close());

const assess = async (orderId: string, riskLevel: string, facts: { description: string; sentiment: string }[]) => {
  const answer = await graphql(admin.url, SHOP, documents.ORDER_RISK_ASSESSMENT_CREATE, {
    input: { orderId, riskLevel, facts },
  });
  expect(answer.body.errors).toBeUndefined();
  return (
    answer.body.data as { orderRiskAssessmentCreate: { orderRiskAssessment: unknown; userErrors: { code: string }[] } }
  ).orderRiskAssessmentCreate;
};
const summary = async (id: string) =>
  (
    (await graphql(admin.url, SHOP, documents.ORDER_RISK_SUMMARY, { id })).body.data as {
      order: {
        risk: {
          recommendation: string;
          assessments: { riskLevel: string; facts: { description: string; sentiment: string }[] }[];
        };
      };
    }
  ).order.risk;

describe("the stand-in's orderRiskAssessmentCreate", () => {
  it("GIVEN an order WHEN the app assesses it THEN the order's risk card holds the level and the facts", async () => {
    const order = await control.addOrder(SHOP, {});
    expect((await summary(order.id)).assessments).toEqual([]);
    const created = await assess(order.id, "HIGH", [
      { description: "Delivery odds 38% (shop average 65%)", sentiment: "NEGATIVE" },
      { description: "Received 2 earlier orders", sentiment: "POSITIVE" },
    ]);
    expect(created).toEqual({ orderRiskAssessment: { riskLevel: "HIGH" }, userErrors: [] });
    expect(await summary(order.id)).toEqual({
      recommendation: "INVESTIGATE",
      assessments: [
        {
          riskLevel: "HIGH",
          facts: [
            { description: "Delivery odds 38% (shop average 65%)", sentiment: "NEGATIVE" },
            { description: "Received 2 earlier orders", sentiment: "POSITIVE" },
          ],
          provider: { title: "COD Lead Sync" },
        },
      ],
    });
    expect((await control.order(SHOP, order.id)).riskAssessments).toHaveLength(1);
  });

  it("GIVEN a second assessment by the app THEN the risk card shows the latest; the order keeps both", async () => {
    const order = await control.addOrder(SHOP, {});
    await assess(order.id, "HIGH", [{ description: "first", sentiment: "NEGATIVE" }]);
    await assess(order.id, "LOW", [{ description: "x".repeat(300), sentiment: "POSITIVE" }]);
    const risk = await summary(order.id);
    expect(risk.recommendation).toBe("ACCEPT");
    expect(risk.assessments.map((a) => a.riskLevel)).toEqual(["LOW"]);
    expect(risk.assessments[0].facts[0].description).toHaveLength(256);
    expect((await control.order(SHOP, order.id)).riskAssessments!.map((a) => a.riskLevel)).toEqual(["HIGH", "LOW"]);
  });

  it("GIVEN an unknown order, a fulfilled one or too many facts THEN Shopify's userErrors and nothing recorded", async () => {
    expect((await assess("gid://shopify/Order/999999", "LOW", [])).userErrors).toEqual([
      expect.objectContaining({ code: "NOT_FOUND" }),
    ]);
    const order = await control.addOrder(SHOP, {});
    const facts = Array.from({ length: 21 }, (_, i) => ({ description: `fact ${i}`, sentiment: "NEUTRAL" }));
    expect((await assess(order.id, "LOW", facts)).userErrors).toEqual([
      expect.objectContaining({ code: "TOO_MANY_FACTS" }),
    ]);
    const fulfilled = await control.addOrder(SHOP, { fields: { displayFulfillmentStatus: "FULFILLED" } });
    expect((await assess(fulfilled.id, "LOW", [])).userErrors).toEqual([
      expect.objectContaining({ code: "ORDER_ALREADY_FULFILLED" }),
    ]);
    expect((await control.order(SHOP, order.id)).riskAssessments).toEqual([]);
  });

  it("GIVEN an assessment THEN the stand-in's order page shows its level and facts", async () => {
    const order = await control.addOrder(SHOP, {});
    await assess(order.id, "MEDIUM", [{ description: "Short or incomplete address <b>", sentiment: "NEGATIVE" }]);
    const html = await (await fetch(orderPageUrl(admin.url, SHOP, order.id))).text();
    expect(html).toContain('data-risk-level="MEDIUM"');
    expect(html).toContain('data-sentiment="NEGATIVE">Short or incomplete address &#60;b&#62;</li>');
    expect(html).toContain('data-risk-recommendation="INVESTIGATE"');
  });
});
