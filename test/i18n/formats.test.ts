/**
 * One table of formats per locale, read by every formatter; stored sentences
 * rendered in the reader's language; pseudo-locales generated from the English
 * catalogue, which prove that a language is only a catalogue and a format row.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  english,
  formatOf,
  formatterFor,
  isMessageKey,
  LANGUAGE_CODES,
  messagesOf,
  polarisStringsOf,
  resolveLocale,
  t,
  type Locale,
} from "../../app/i18n";
import { en } from "../../app/i18n/en";
import { FORMATS } from "../../app/i18n/formats";
import { msg, parseMessageRef, readMessageRef, renderMessage } from "../../app/i18n/message-ref";
import { EN_XA_CLOSE, EN_XA_OPEN, PDF, RLO, PSEUDO_LOCALES } from "../../app/i18n/pseudo";
import { messageParams } from "../../app/i18n/message-format";
import {
  checkedText,
  findingRef,
  leadAnsweredText,
  notInstalledText,
  sendFailedText,
  statusChangedText,
  writtenBackText,
} from "../../app/models/order-texts";
import { APP_NOT_INSTALLED_REASON } from "../../app/sync/shop-pause.server";

const render = (locale: Locale, ref: Parameters<typeof renderMessage>[0], currency: "MAD" | "DH" = "MAD") =>
  renderMessage(ref, { t: (key, params) => t(locale, key, params), format: formatterFor(locale, { currency }) });

describe("the format table", () => {
  it("writes French money as Moroccans read it: 229,50 DH, whole dirhams without decimals", () => {
    const dh = formatterFor("fr", { currency: "DH" });
    expect(dh.money(22950)).toBe("229,50\u00a0DH");
    expect(dh.money(22900)).toBe("229\u00a0DH");
    expect(dh.moneyText("1234567.00")).toBe("1\u202f234\u202f567\u00a0DH");
    expect(formatterFor("fr").money(22900)).toBe("229\u00a0MAD");
    expect(formatterFor("en", { currency: "DH" }).money(-1050)).toBe("-10.50 DH");
    expect(formatterFor("en").moneyText("12.00", "EUR")).toBe("12.00 EUR");
    expect(formatterFor("en").moneyText("not a number")).toBe("not a number");
  });

  it("GIVEN a headline total with centimes WHEN written whole THEN it is rounded to the dirham like the whole amounts beside it", () => {
    const dh = formatterFor("fr", { currency: "DH" });
    expect(dh.money(723724, { whole: true })).toBe("7\u202f237\u00a0DH");
    expect(dh.money(723750, { whole: true })).toBe("7\u202f238\u00a0DH");
    expect(formatterFor("en").money(60588, { whole: true })).toBe("606 MAD");
    expect(dh.money(723724)).toBe("7\u202f237,24\u00a0DH");
  });

  it("writes French dates as 26/11 à 12:41 and English ones as Nov 26, 12:41", () => {
    const local = "2026-11-26 12:41:07";
    expect(formatterFor("fr").dateTime(local)).toBe("26/11 à 12:41");
    expect(formatterFor("fr").dateTime(local, { year: true, seconds: true })).toBe("26/11/2026 à 12:41:07");
    expect(formatterFor("en").dateTime(local)).toBe("Nov 26, 12:41");
    expect(formatterFor("en").date("2026-01-05")).toBe("Jan 5, 2026");
    expect(formatterFor("fr").dayMonth("2026-01-05")).toBe("05/01");
    expect(formatterFor("fr").time(local)).toBe("12:41");
  });

  it("writes numbers and percentages from the row's symbols", () => {
    expect(formatterFor("fr").integer(1234567)).toBe("1\u202f234\u202f567");
    expect(formatterFor("fr").decimal(2.5, 1)).toBe("2,5");
    expect(formatterFor("en").percent(0.8125)).toBe("81.3%");
    expect(formatterFor("en").percent(1)).toBe("100%");
    expect(formatterFor("ar-XB").integer(1234)).toBe("١٬٢٣٤");
    expect(formatterFor("ar-XB").percent(0.5)).toBe("٥٠٪");
  });

  it("is the only place that knows a language: no code compares locale codes", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (
          /\.tsx?$/.test(name) &&
          /(?:locale|lang)\w*\s*[!=]==\s*"(?:en|fr|ar)/i.test(readFileSync(path, "utf8"))
        )
          offenders.push(path);
      }
    };
    walk(join(import.meta.dirname, "..", "..", "app"));
    walk(join(import.meta.dirname, "..", "..", "extensions"));
    expect(offenders).toEqual([]);
  });
});

describe("stored sentences", () => {
  it("render a status change in the reader's language, statuses by their names", () => {
    const ref = statusChangedText(
      "ATB-100001",
      { confirmationStatus: "new", shippingStatus: "pending" },
      { confirmationStatus: "callback", shippingStatus: "pending" },
    );
    expect(render("fr", ref)).toBe("Lead ATB-100001 : confirmation Nouveau → À rappeler");
    expect(english(ref)).toBe("Lead ATB-100001: confirmation New → Call back");
  });

  it("render lists, money and plurals, never a raw tag, and the same words once", () => {
    expect(render("fr", writtenBackText([{ kind: "tagsAdd", tags: ["cod:new"] }, { kind: "markAsPaid" }]))).toBe(
      "Commande Shopify mise à jour : balises de statut mises à jour et marquée comme payée",
    );
    expect(
      render(
        "fr",
        writtenBackText([
          { kind: "tagsAdd", tags: ["cod:confirmed"] },
          { kind: "tagsRemove", tags: ["cod:new"] },
        ]),
      ),
    ).toBe("Commande Shopify mise à jour : balises de statut mises à jour");
    expect(render("fr", checkedText("hold", 1, 0))).toBe("Vérifiée : 1 problème à corriger avant l'envoi");
    expect(render("en", checkedText("send", 0, 2))).toBe("Checked: ready to send, with 2 warnings");
    const below = findingRef({ code: "total_below_cost", params: { total: "150.00", minimum: "229.50" } })!;
    expect(render("fr", below, "DH")).toBe(
      "Le montant à encaisser (150\u00a0DH) est inférieur au prix plateforme des articles plus la livraison (229,50\u00a0DH).",
    );
    expect(
      render("fr", leadAnsweredText("ATB-1", [{ code: "unknown_sku" }, { code: "recent_duplicate" }], false)),
    ).toBe("Lead ATB-1 créé avec anomalies : Plateforme : produit inconnu et Plateforme : doublon récent");
    expect(render("fr", sendFailedText("unreachable", 5, true))).toBe(
      "Échec de l'envoi après 5 essais : la plateforme est injoignable",
    );
  });

  it("read back from JSON; an unknown key or a damaged value gives null (the stored English is shown)", () => {
    const ref = statusChangedText(
      "ATB-1",
      { confirmationStatus: null, shippingStatus: null },
      { confirmationStatus: "new", shippingStatus: "pending", sellerProfit: "45.00" },
    );
    expect(readMessageRef(JSON.stringify(ref), isMessageKey)).toEqual(ref);
    expect(parseMessageRef({ key: "no.such.key" }, isMessageKey)).toBeNull();
    expect(
      parseMessageRef({ key: "timeline.text.leadCreated", params: { ref: { nope: 1 } } }, isMessageKey),
    ).toBeNull();
    expect(readMessageRef("{not json", isMessageKey)).toBeNull();
    expect(render("en", msg("timeline.text.leadCreated", { ref: "X" }))).toBe("Lead X created");
  });

  it("keep the English the pipeline matches on", () => {
    expect(english(notInstalledText())).toBe(APP_NOT_INSTALLED_REASON);
  });
});

describe("pseudo-locales", () => {
  it("are offered only when asked for (tests and developers)", () => {
    expect(resolveLocale("en-XA")).toBe("en");
    expect(resolveLocale("en-XA", { pseudo: true })).toBe("en-XA");
    expect(resolveLocale("ar_xb", { pseudo: true })).toBe("ar-XB");
  });

  it("en-XA: every message accented, 40 % longer and bracketed, placeholders and plurals kept", () => {
    const catalogue = messagesOf("en-XA");
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      const value = catalogue[key];
      expect(value.startsWith(EN_XA_OPEN) && value.endsWith(EN_XA_CLOSE), key).toBe(true);
      expect(messageParams(value), key).toEqual(messageParams(en[key]));
    }
    expect(t("en-XA", "common.save")).toMatch(/^⟦Šàṽé ·+⟧$/);
    expect(t("en-XA", "anomalies.orders", { count: 3 })).toMatch(/^⟦3 öŕđéŕš ·+⟧$/);
    expect(t("en-XA", "anomalies.orders", { count: 3 }).length).toBeGreaterThan(
      t("en", "anomalies.orders", { count: 3 }).length * 1.4,
    );
  });

  it("ar-XB: every message mirrored, the page right to left", () => {
    expect(t("ar-XB", "common.save")).toBe(`${RLO}Save${PDF}`);
    expect(formatOf("ar-XB").dir).toBe("rtl");
    expect(formatOf("fr").dir).toBe("ltr");
  });

  it("translate Polaris' own strings too", () => {
    expect(JSON.stringify(polarisStringsOf("en-XA"))).not.toMatch(/"Next"|"Previous"/);
    expect(polarisStringsOf("fr")).not.toBe(polarisStringsOf("en"));
  });

  it("each language has a format row and a catalogue, nothing more", () => {
    for (const language of LANGUAGE_CODES) {
      expect(FORMATS[language]).toBeDefined();
      expect(Object.keys(messagesOf(language)).sort()).toEqual(Object.keys(en).sort());
    }
    for (const pseudo of PSEUDO_LOCALES) expect(Object.keys(messagesOf(pseudo)).sort()).toEqual(Object.keys(en).sort());
  });
});
