import { describe, expect, it } from "vitest";
import { holdReasonRef, holdReasonText, parseHoldReason, type HoldReason } from "../../app/customers/hold-reason";
import { t, type MessageKey, type MessageParams } from "../../app/i18n";
import { createFormatter } from "../../app/i18n/format";
import { FORMATS } from "../../app/i18n/formats";
import { renderMessage } from "../../app/i18n/message-ref";
import type { OrderFacts } from "../../app/odds/features";
import { oddsReasonRef, oddsReasons, parseOddsReasons, MIN_REASON_EFFECT } from "../../app/odds/explain";
import { compileModel, priorModel, scoreOrder } from "../../app/odds/model";

const model = compileModel({
  ...priorModel(),
  shop: { delivered: 650, settled: 1000 },
  cities: [[113, 20, 60]],
  products: [
    ["product:1001", 90, 100],
    ["product:1022", 10, 40],
  ],
  medianAmountCents: 18_900,
});
const facts: OrderFacts = {
  amountCents: 59_900,
  quantity: 1,
  cityId: 113,
  productKeys: ["product:1022"],
  addressIncomplete: true,
  customer: { delivered: 0, failed: 2, wrongNumber: 0, inProgress: 0, recentOrders: 0 },
};
const render = (locale: "en" | "fr") => (ref: ReturnType<typeof oddsReasonRef>) =>
  renderMessage(ref, {
    t: (key: MessageKey, params?: MessageParams) => t(locale, key, params),
    format: createFormatter(FORMATS[locale]),
  });

describe("why an order got its odds", () => {
  const score = scoreOrder(model, facts);
  const reasons = oddsReasons(model, facts, score, {
    city: "Azemmour",
    product: (key) => (key === "product:1022" ? "Parfum Oud 100 ml" : null),
  });

  it("GIVEN an order's contributions THEN the largest come first and the small ones are left out", () => {
    expect(reasons.map((r) => r.feature)).toEqual(["customer_failed", "product", "city", "address"]);
    const effects = reasons.map((r) => Math.abs(r.effect));
    expect(effects).toEqual([...effects].sort((a, b) => b - a));
    expect(Math.min(...effects)).toBeGreaterThanOrEqual(MIN_REASON_EFFECT);
    expect(reasons.every((r) => r.effect < 0)).toBe(true);
  });

  it("GIVEN the reasons THEN a merchant reads them in French and English, with the shop's own rates", () => {
    expect(reasons.map(oddsReasonRef).map(render("fr"))).toEqual([
      "A refusé, renvoyé ou annulé 2 commandes précédentes",
      // Shop (650 + 20 x 0.6) / 1020; product (10 + 20 x 0.649) / 60; city (20 + 20 x 0.649) / 80.
      "Parfum Oud 100 ml : 38 % livrées dans votre boutique (tous produits 65 %)",
      "Azemmour : 41 % livrées dans votre boutique (toutes villes 65 %)",
      "Adresse courte ou incomplète",
    ]);
    expect(render("en")(oddsReasonRef(reasons[0]))).toBe("Refused, returned or cancelled 2 earlier orders");
  });

  it("GIVEN a dear order THEN the amount reason says the amount and the usual one in the reader's money format", () => {
    const amount = oddsReasons(
      model,
      { ...facts, customer: null, cityId: null, productKeys: [], addressIncomplete: false },
      scoreOrder(model, { ...facts, customer: null, cityId: null, productKeys: [], addressIncomplete: false }),
    ).find((r) => r.feature === "amount")!;
    expect(amount.params).toEqual({ amount: "599.00", usual: "189.00" });
    expect(render("fr")(oddsReasonRef(amount))).toMatch(
      /^Montant 599\sMAD, votre commande habituelle est de 189\sMAD$/,
    );
  });

  it("GIVEN stored reasons THEN they read back; unknown features and bad values are dropped", () => {
    expect(parseOddsReasons(JSON.parse(JSON.stringify(reasons)))).toEqual(reasons);
    expect(
      parseOddsReasons([{ feature: "zodiac", effect: 1, params: {} }, { feature: "city", effect: "x" }, null]),
    ).toEqual([]);
    expect(parseOddsReasons("nope")).toEqual([]);
  });
});

describe("an order held by its delivery odds", () => {
  const en = (key: MessageKey, params?: MessageParams) => t("en", key, params);
  const fr = (key: MessageKey, params?: MessageParams) => t("fr", key, params);
  const held = (odds: Partial<NonNullable<HoldReason["odds"]>>): HoldReason => ({
    code: "delivery_odds",
    counts: {},
    days: 0,
    blocked: false,
    odds: { probability: 0.38, rule: "below_probability", releaseAt: 0.5, valueCents: 1200, reasons: [], ...odds },
  });

  it("GIVEN the shop's threshold THEN the reason names the odds and the threshold, in both languages", () => {
    expect(holdReasonText(en, held({}))).toBe("Delivery odds 38%, under your 50%");
    expect(holdReasonText(fr, held({}))).toBe("Chances de livraison 38 %, sous vos 50 %");
    expect(holdReasonRef(held({}))).toEqual({ key: "odds.hold.below", params: { probability: 38, threshold: 50 } });
  });

  it("GIVEN a negative expected value THEN it names the break-even, or says sending never pays", () => {
    expect(holdReasonText(en, held({ rule: "negative_value", releaseAt: 0.55, valueCents: -900 }))).toBe(
      "Delivery odds 38%, under the 55% where sending pays for itself",
    );
    expect(holdReasonText(fr, held({ rule: "negative_value", releaseAt: null }))).toBe(
      "Chances de livraison 38 % : l'envoi fait perdre de l'argent même livrée",
    );
  });

  it("GIVEN the stored reason THEN it reads back; a damaged one reads as no reason", () => {
    const reason = held({ reasons: [{ feature: "address", effect: -0.4, params: {} }] });
    expect(parseHoldReason(JSON.parse(JSON.stringify(reason)))).toEqual(reason);
    expect(parseHoldReason({ code: "delivery_odds", odds: { probability: 3, rule: "below_probability" } })).toBeNull();
    expect(parseHoldReason({ code: "delivery_odds" })).toBeNull();
  });
});
