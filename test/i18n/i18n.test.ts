/** The two dictionaries stay in step, and the merchant's admin language picks one. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en } from "../../app/i18n/en";
import { fr } from "../../app/i18n/fr";
import { formatterFor, localeFromRequest, resolveLocale, t } from "../../app/i18n";
import { messageParams, parseMessage } from "../../app/i18n/message-format";
import { adminRequest } from "../helpers/admin";
import { SHOP_A, startAdminApp, stopAdminApp, type AdminApp } from "../pages/helpers";

const placeholders = messageParams;

describe("dictionaries", () => {
  it("have the same keys in English and French", () => {
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
  });

  it("parse as messages (placeholders, plurals with an other form)", () => {
    for (const [key, value] of [...Object.entries(en), ...Object.entries(fr)])
      expect(() => parseMessage(value), key).not.toThrow();
  });

  it("have no lazy (s) plural: counts go through plural forms", () => {
    for (const [key, value] of [...Object.entries(en), ...Object.entries(fr)])
      expect(value, key).not.toMatch(/\w\(s\)|\(e\)s?\b/);
  });

  it("have no empty message and the same placeholders in both languages", () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(en[key].trim(), key).not.toBe("");
      expect(fr[key].trim(), key).not.toBe("");
      expect(placeholders(fr[key]), key).toEqual(placeholders(en[key]));
    }
  });

  it("fills placeholders and leaves unknown ones visible", () => {
    expect(t("en", "settings.account.rateValue", { rate: 60 })).toBe("60 calls per minute");
    expect(t("fr", "settings.account.rateValue", { rate: 60 })).toBe("60 appels par minute");
    expect(t("en", "settings.account.rateValue")).toBe("{rate} per minute");
  });

  it("name every code the pages show: job kinds, timeline steps, order states, why an item is proposed", async () => {
    const { JOB_KINDS } = await import("../../app/models/job-kinds");
    const { TIMELINE_KINDS } = await import("../../app/models/timeline.server");
    const { LINK_STATES } = await import("../../app/models/order-link-state");
    const { CITY_REASONS, PRODUCT_REASONS } = await import("../../app/leads/types");
    const keys = [
      ...JOB_KINDS.map((k) => `activity.jobKind.${k}`),
      ...TIMELINE_KINDS.map((k) => `timeline.${k}`),
      ...LINK_STATES.map((s) => `state.${s}`),
      ...PRODUCT_REASONS.map((r) => `suggestions.why.product.${r}`),
      ...CITY_REASONS.map((r) => `suggestions.why.city.${r}`),
    ];
    expect(keys.filter((key) => !(key in en))).toEqual([]);
  });

  it("chooses the plural form with the language's rules (French 0 and 1 are singular)", () => {
    expect(t("en", "anomalies.orders", { count: 0 })).toBe("0 orders");
    expect(t("en", "anomalies.orders", { count: 1 })).toBe("1 order");
    expect(t("fr", "anomalies.orders", { count: 0 })).toBe("0 commande");
    expect(t("fr", "anomalies.orders", { count: 1 })).toBe("1 commande");
    expect(t("fr", "anomalies.orders", { count: 1234 })).toBe("1\u202f234 commandes");
    expect(t("fr", "customers.card.orders", { count: 0 })).toBe("Aucune commande envoyée à la plateforme");
  });

  it("formats money and rates the same way on server and client", () => {
    expect(formatterFor("en").money(144899)).toBe("1,448.99 MAD");
    expect(formatterFor("fr").money(144899)).toBe("1\u202f448,99\u00a0MAD");
    expect(formatterFor("en").money(5)).toBe("0.05 MAD");
    expect(formatterFor("en").percent(2 / 3)).toBe("66.7%");
    expect(formatterFor("fr").percent(0.5)).toBe("50\u202f%");
  });
});

describe("locale", () => {
  it("is French for any fr* locale and English otherwise", () => {
    expect(["fr", "fr-FR", "FR_ca", "fr-MA"].map((l) => resolveLocale(l))).toEqual(["fr", "fr", "fr", "fr"]);
    expect(["en", "en-US", "ar", "es", "", null, undefined, "french", "en-XA"].map((l) => resolveLocale(l))).toEqual(
      Array(9).fill("en"),
    );
  });

  it("comes from Shopify's locale parameter, else Accept-Language", () => {
    const req = (url: string, lang?: string) => new Request(url, { headers: lang ? { "Accept-Language": lang } : {} });
    expect(localeFromRequest(req("https://app.test/app?locale=fr", "en-US"))).toBe("fr");
    expect(localeFromRequest(req("https://app.test/app?locale=en-GB", "fr-FR"))).toBe("en");
    expect(localeFromRequest(req("https://app.test/app", "fr-FR,fr;q=0.9,en;q=0.8"))).toBe("fr");
    expect(localeFromRequest(req("https://app.test/app"))).toBe("en");
  });

  describe("in the app layout", () => {
    let app: AdminApp;
    beforeAll(async () => {
      app = await startAdminApp({}, [SHOP_A]);
    });
    afterAll(() => stopAdminApp(app));

    it("chooses French for locale=fr and English for locale=en", async () => {
      const { loader } = await import("../../app/routes/app");
      const call = async (path: string) =>
        (await loader({ request: await adminRequest(SHOP_A, path), params: {}, context: {} })) as { locale: string };
      expect((await call("/app?locale=fr")).locale).toBe("fr");
      expect((await call("/app?locale=fr-CA")).locale).toBe("fr");
      expect((await call("/app?locale=en")).locale).toBe("en");
      expect(app.shopifyCalls).toEqual([]);
    });

    it("keeps the first load's language on links that drop the parameter", async () => {
      const { shouldRevalidate } = await import("../../app/routes/app");
      const args = (current: string, next: string) =>
        ({
          currentUrl: new URL(current, "https://app.test"),
          nextUrl: new URL(next, "https://app.test"),
          defaultShouldRevalidate: true,
        }) as Parameters<typeof shouldRevalidate>[0];
      expect(shouldRevalidate(args("/app?locale=fr", "/app/settings"))).toBe(false);
      expect(shouldRevalidate(args("/app?locale=fr", "/app/settings?locale=fr"))).toBe(false);
      expect(shouldRevalidate(args("/app?locale=fr", "/app?locale=en"))).toBe(true);
    });
  });
});
