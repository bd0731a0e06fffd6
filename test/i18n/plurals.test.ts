/**
 * Counts read right in both languages: each is written with the catalogues' plural forms
 * (Intl.PluralRules: French says "0 annulée" and "1 annulée", English "0 orders"), never
 * "{count} {word}" with the word in the plural whatever the number.
 */
import { describe, expect, it } from "vitest";
import { LOSS_CAUSES } from "../../app/analytics/report";
import { t, type MessageKey } from "../../app/i18n";
import { en } from "../../app/i18n/en";
import { fr } from "../../app/i18n/fr";
import { messageParams } from "../../app/i18n/message-format";

const CAUSES = [...new Set(Object.values(LOSS_CAUSES).flat())];
const render = (lang: "en" | "fr", key: string, values: Record<string, number | string>) =>
  t(lang, key as MessageKey, values);

describe("counts in the catalogues", () => {
  it("GIVEN Analytics' losses WHEN 0, 1 and 2 orders are lost to a cause THEN each reads with its number's form in English and French", () => {
    expect(CAUSES.length).toBeGreaterThanOrEqual(9);
    const lost = (lang: "en" | "fr", count: number) =>
      CAUSES.map((cause) => render(lang, `analytics.loss.${cause}`, { count }));
    expect(lost("fr", 0)).toContain("0 annulée à l'appel");
    expect(lost("fr", 1)).toEqual([
      "1 retenue pour correction",
      "1 échec d'envoi",
      "1 refusée par la plateforme",
      "1 annulée avant l'envoi",
      "1 client injoignable",
      "1 annulée à l'appel",
      "1 erronée, fausse ou en double",
      "1 annulée avant l'expédition",
      "1 refusée à la porte ou retournée",
    ]);
    expect(lost("fr", 2)).toEqual([
      "2 retenues pour correction",
      "2 échecs d'envoi",
      "2 refusées par la plateforme",
      "2 annulées avant l'envoi",
      "2 clients injoignables",
      "2 annulées à l'appel",
      "2 erronées, fausses ou en double",
      "2 annulées avant l'expédition",
      "2 refusées à la porte ou retournées",
    ]);
    expect(lost("en", 0)).toContain("0 customers unreachable");
    expect(lost("en", 1)).toContain("1 customer unreachable");
    expect(lost("en", 1)).toContain("1 cancelled on the call");
    expect(lost("en", 2)).toContain("2 customers unreachable");
    // The number in the reader's format.
    expect(render("fr", "analytics.loss.cancelled_on_call", { count: 1234 })).toBe("1\u202f234 annulées à l'appel");
  });

  it.each([
    ["anomalies.group.stale", { days: 1, orders: "2 commandes" }, "Passées il y a plus de 1 jour : 2 commandes"],
    ["anomalies.group.stale", { days: 2, orders: "2 commandes" }, "Passées il y a plus de 2 jours : 2 commandes"],
    ["home.checklist.progress", { done: 0, total: 4 }, "0 étape sur 4 terminée"],
    ["home.checklist.progress", { done: 1, total: 4 }, "1 étape sur 4 terminée"],
    ["home.checklist.progress", { done: 2, total: 4 }, "2 étapes sur 4 terminées"],
    ["mappings.csv.more", { count: 1 }, "… et 1 autre"],
    ["mappings.csv.more", { count: 2 }, "… et 2 autres"],
    ["mappings.variants.summary", { matched: 1, unmatched: 0 }, "Sur cette page : 1 reconnu, 0 à faire correspondre"],
    ["cash.filter.maxAge", { max: 1 }, "Livrés il y a 1 jour au plus"],
    ["cash.filter.minAge", { days: 1 }, "Livrés il y a plus de 1 jour"],
    ["cash.filter.minAge", { days: 14 }, "Livrés il y a plus de 14 jours"],
    ["home.cash.ofWhich", { amount: "2 300 DH", days: 14 }, "dont 2 300 DH en retard (livrés il y a plus de 14 jours)"],
    ["settings.account.rateValue", { rate: 1 }, "1 appel par minute"],
    ["syncLedger.stuck.none", { minutes: 1 }, "Aucune commande n'attend depuis plus de 1 minute."],
  ] as const)("GIVEN %s in French WHEN it counts %j THEN it reads %s", (key, values, expected) => {
    expect(render("fr", key, values)).toBe(expected);
  });

  it.each([
    ["anomalies.group.stale", { days: 1, orders: "2 orders" }, "Placed more than 1 day ago: 2 orders"],
    ["next.stale.body", { date: "2 Nov", limit: 1, amount: "229 MAD" }, "longer ago than your limit of 1 day,"],
    ["bulk.staleWarning", { days: 1 }, "They were placed more than 1 day ago:"],
    ["cash.overdueRule", { days: 1 }, "After 1 day without payment"],
    ["analytics.others.note", { count: 1 }, "The smallest line is counted in “Others”"],
    ["analytics.others.note", { count: 12 }, "The smallest 12 lines are added up in “Others”"],
    ["settings.odds.model.quality", { count: 1, auc: "0.6", brier: "0.2" }, "On its latest order:"],
    ["syncLedger.alert.title", { count: 1, minutes: 1 }, "1 order has not reached your COD platform for over 1 minute"],
  ] as const)("GIVEN %s in English WHEN it counts %j THEN it reads %s", (key, values, expected) => {
    expect(render("en", key, values)).toContain(expected);
  });

  it("GIVEN any message WHEN its counts are 1 THEN none reads a plural noun after the 1", () => {
    // Numbers that are fixed limits, never 1 (a period's longest, the scan's size, a line count over the maximum).
    const limits = new Set([
      "analytics.period.error.too_long",
      "anomalies.truncated",
      "finding.too_many_items",
      "mappings.csv.error.too_many_rows",
      // "1 of 4 steps done" is right.
      "home.checklist.progress",
    ]);
    const plurals =
      /(?:^|[\s(])1\s+(jours|days|commandes|orders|annulées|retenues|refusées|clients|customers|étapes|autres|reconnus|appels|calls|lignes|lines|minutes|seconds|secondes)\b/u;
    const wrong: string[] = [];
    for (const [lang, catalogue] of [
      ["en", en],
      ["fr", fr],
    ] as const) {
      for (const [key, template] of Object.entries(catalogue)) {
        if (limits.has(key)) continue;
        const out = render(lang, key, Object.fromEntries(messageParams(template).map((p) => [p, 1])));
        if (plurals.test(out)) wrong.push(`${lang} ${key}: ${out}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
