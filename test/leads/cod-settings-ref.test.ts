/** Cash-on-delivery detection, the shop's settings completed with defaults, and external_ref. */
import { describe, expect, it } from "vitest";
import { compileGatewayPatterns, DEFAULT_COD_GATEWAY_PATTERNS, detectCod, isCodGateway } from "../../app/leads/cod";
import { externalRefFor, parseExternalRef } from "../../app/leads/external-ref";
import {
  DEFAULT_DUPLICATE_WINDOW_MINUTES,
  DEFAULT_HOLD_POLICY,
  DEFAULT_REFERENCE_MAX_AGE_MINUTES,
  DEFAULT_SETTINGS,
  resolveSettings,
} from "../../app/leads/settings";
import type { ShopOrder } from "../../app/leads";

const PATTERNS = compileGatewayPatterns(DEFAULT_COD_GATEWAY_PATTERNS);
const order = (paymentGatewayNames: unknown[], financialStatus?: string) =>
  ({ paymentGatewayNames, financialStatus }) as unknown as ShopOrder;

describe("detectCod", () => {
  it("recognises COD gateway names word by word, whatever the case and accents", () => {
    expect(detectCod(order(["paiement a la livraison (COD)"], "PENDING"), PATTERNS)).toEqual({
      cod: true,
      gateway: "paiement a la livraison (COD)",
    });
    expect(detectCod(order(["card", "Paiement à la réception"], ""), PATTERNS)).toEqual({
      cod: true,
      gateway: "Paiement à la réception",
    });
    expect(detectCod(order(["الدفع عند الاستلام"]), PATTERNS)).toEqual({ cod: true, gateway: "الدفع عند الاستلام" });
    expect(isCodGateway("Barcode", PATTERNS)).toBe(false);
    expect(isCodGateway("My COD", PATTERNS)).toBe(true);
    expect(isCodGateway("CODE", PATTERNS)).toBe(false);
  });

  it("says why an order is not COD", () => {
    expect(detectCod(order(["Barcode"], "pending"), PATTERNS)).toEqual({
      cod: false,
      reason: "other_gateway",
      gateways: ["Barcode"],
      financialStatus: "pending",
    });
    expect(detectCod(order([" ", "", 5]), PATTERNS)).toEqual({ cod: false, reason: "no_gateway", gateways: [] });
    expect(detectCod(order(["card"]), PATTERNS)).toEqual({ cod: false, reason: "other_gateway", gateways: ["card"] });
  });

  it("refuses a COD order that is already paid in part or in full", () => {
    for (const status of ["paid", "partially_paid", "authorized", "PAID"]) {
      expect(detectCod(order(["card", "COD"], status), PATTERNS)).toEqual({
        cod: false,
        reason: "already_paid",
        gateways: ["card", "COD"],
        financialStatus: status.toLowerCase(),
      });
    }
  });

  it("follows the shop's own patterns, dropping empty ones", () => {
    expect(compileGatewayPatterns(["", "  ", "!!", "Mon COD"])).toEqual(["mon cod"]);
    const own = compileGatewayPatterns(["Livraison payée à la porte"]);
    expect(detectCod(order(["livraison payee a la porte"], "pending"), own)).toMatchObject({ cod: true });
    expect(detectCod(order(["COD"], "pending"), own)).toMatchObject({ cod: false, reason: "other_gateway" });
    expect(detectCod(order(["COD"], "pending"), [])).toMatchObject({ cod: false });
  });

  it("stays right when more than a thousand gateway names have been seen", () => {
    for (let i = 0; i < 1100; i++) isCodGateway(`Gateway ${i}`, PATTERNS);
    expect(isCodGateway("COD", PATTERNS)).toBe(true);
    expect(isCodGateway("Gateway 5", PATTERNS)).toBe(false);
  });
});

describe("resolveSettings", () => {
  it("uses the defaults without settings", () => {
    expect(resolveSettings(undefined)).toBe(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toMatchObject({
      sendAllOrders: false,
      sendTestOrders: false,
      duplicateWindowMinutes: DEFAULT_DUPLICATE_WINDOW_MINUTES,
      referenceMaxAgeMinutes: DEFAULT_REFERENCE_MAX_AGE_MINUTES,
      holdPolicy: DEFAULT_HOLD_POLICY,
    });
    expect(resolveSettings({})).toEqual({ ...DEFAULT_SETTINGS });
  });

  it("completes partial settings, keeping only what is well typed", () => {
    const resolved = resolveSettings({
      codGatewayPatterns: ["COD", 5 as unknown as string, "Cash"],
      sendAllOrders: "yes" as unknown as boolean,
      sendTestOrders: true,
      holdPolicy: { city_fuzzy: "hold" },
      shopCurrency: "MAD",
    });
    expect(resolved.codGatewayPatterns).toEqual(["COD", "Cash"]);
    expect(resolved.sendAllOrders).toBe(false);
    expect(resolved.sendTestOrders).toBe(true);
    expect(resolved.holdPolicy).toEqual({ ...DEFAULT_HOLD_POLICY, city_fuzzy: "hold" });
    expect(resolved.shopCurrency).toBe("MAD");
    expect(resolveSettings({ sendAllOrders: true }).sendAllOrders).toBe(true);
    expect(resolveSettings({ shopCurrency: 5 as unknown as string })).not.toHaveProperty("shopCurrency");
    expect(resolveSettings({ codGatewayPatterns: "COD" as unknown as string[] }).codGatewayPatterns).toEqual(
      DEFAULT_SETTINGS.codGatewayPatterns,
    );
  });

  it("clamps numbers to their range and ignores non-numbers", () => {
    const week = 7 * 24 * 60;
    expect(
      resolveSettings({ duplicateWindowMinutes: -5, cityFuzzyThreshold: 0.2, referenceMaxAgeMinutes: -1 }),
    ).toMatchObject({
      duplicateWindowMinutes: 0,
      cityFuzzyThreshold: 0.5,
      referenceMaxAgeMinutes: 0,
    });
    expect(
      resolveSettings({ duplicateWindowMinutes: week + 1, cityFuzzyThreshold: 1.5, referenceMaxAgeMinutes: week + 1 }),
    ).toMatchObject({
      duplicateWindowMinutes: week,
      cityFuzzyThreshold: 1,
      referenceMaxAgeMinutes: week,
    });
    expect(
      resolveSettings({ duplicateWindowMinutes: 30, cityFuzzyThreshold: 0.7, referenceMaxAgeMinutes: 5 }),
    ).toMatchObject({
      duplicateWindowMinutes: 30,
      cityFuzzyThreshold: 0.7,
      referenceMaxAgeMinutes: 5,
    });
    expect(
      resolveSettings({
        duplicateWindowMinutes: Number.NaN,
        cityFuzzyThreshold: Infinity,
        referenceMaxAgeMinutes: "5" as unknown as number,
      }),
    ).toMatchObject({
      duplicateWindowMinutes: DEFAULT_DUPLICATE_WINDOW_MINUTES,
      cityFuzzyThreshold: DEFAULT_SETTINGS.cityFuzzyThreshold,
      referenceMaxAgeMinutes: DEFAULT_REFERENCE_MAX_AGE_MINUTES,
    });
  });

  it("resolves the same settings object once", () => {
    const partial = { duplicateWindowMinutes: 30 };
    expect(resolveSettings(partial)).toBe(resolveSettings(partial));
    expect(resolveSettings({ duplicateWindowMinutes: 30 })).not.toBe(resolveSettings(partial));
  });
});

describe("external_ref", () => {
  it("joins the numeric order id and the trimmed name", () => {
    expect(externalRefFor({ id: "5551234567890", name: " #1001 " })).toBe("shopify:5551234567890 #1001");
    expect(externalRefFor({ id: "5551234567890", name: "  " })).toBe("shopify:5551234567890");
    expect(externalRefFor({ id: "5551234567890", name: undefined as unknown as string })).toBe("shopify:5551234567890");
  });

  it("gives no ref for an id that is not all digits", () => {
    for (const id of ["", "gid://shopify/Order/1", "12a", "a12", " 12"])
      expect(externalRefFor({ id, name: "#1" }), id).toBeUndefined();
  });

  it("reads back only refs it wrote", () => {
    expect(parseExternalRef("shopify:5551234567890 #1001")).toEqual({ orderId: "5551234567890", orderName: "#1001" });
    expect(parseExternalRef("shopify:5551234567890")).toEqual({ orderId: "5551234567890" });
    expect(parseExternalRef("shopify:5551234567890")).not.toHaveProperty("orderName");
    for (const ref of ["shopify:", "shopify:12a", "xshopify:12", "shopify:12 ", "SHOPIFY:12", "other:12 #1"])
      expect(parseExternalRef(ref), ref).toBeUndefined();
  });
});
