/**
 * One table of the platform's anomaly codes (app/models/anomaly-codes.ts): every
 * code it lists is filtered on by Orders, grouped by Anomalies, worded in both
 * catalogues of the app and of the order-page extension, and translated by the
 * extension. Adding a code to the table without the rest fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { en } from "../../app/i18n/en";
import { fr } from "../../app/i18n/fr";
import { ANOMALY_CODE_LIST, ANOMALY_CODES, anomalyFixOf, type AnomalyCodeInfo } from "../../app/models/anomaly-codes";
import { nextActionOf } from "../../app/models/next-action";
import { causeOf } from "../../app/models/attention";
import { causesOf } from "../../app/pages/anomalies.server";
import { ISSUE_KINDS } from "../../app/pages/orders.server";
import { anomalyText as extensionAnomalyText } from "../../extensions/order-status-block/src/view-model";

const locales = join(import.meta.dirname, "..", "..", "extensions", "order-status-block", "locales");
const extension = {
  en: JSON.parse(readFileSync(join(locales, "en.default.json"), "utf8")) as Record<string, unknown>,
  fr: JSON.parse(readFileSync(join(locales, "fr.json"), "utf8")) as Record<string, unknown>,
};
/** The extension's locale files nest keys by their dots. */
const lookup = (messages: Record<string, unknown>, key: string) =>
  key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);

describe.each(ANOMALY_CODE_LIST)("anomaly code %s", (code) => {
  const info: AnomalyCodeInfo = ANOMALY_CODES[code];

  it("has its label and its explanation in both of the app's catalogues, worded differently", () => {
    for (const messages of [en, fr] as Record<string, string>[]) {
      expect(messages[`code.${code}`]).toBeTruthy();
      expect(messages[`anomaly.${code}`]).toBeTruthy();
      expect(messages[`anomaly.${code}`]).not.toContain(code);
    }
    expect(fr[`anomaly.${code}` as keyof typeof fr]).not.toBe(en[`anomaly.${code}` as keyof typeof en]);
  });

  it("is worded by the order-page extension in both languages", () => {
    for (const messages of [extension.en, extension.fr])
      expect(typeof lookup(messages, `anomaly.${code}`)).toBe("string");
    const t = (key: string) => `T(${key})`;
    expect(extensionAnomalyText({ code, message: "raw platform words" }, t)).toBe(`T(anomaly.${code})`);
  });

  it("is found by the Orders filter of its family", () => {
    expect(ISSUE_KINDS[info.issue].anomalies).toContain(code);
  });

  it("makes an Anomalies group whose fix follows the table: a decision for a duplicate, the seller space otherwise", () => {
    const causes = causesOf({ state: "damaged", findings: "[]", anomalies: JSON.stringify([{ code, message: "m" }]) });
    const decide = info.fix === "decideDuplicate";
    expect(causes).toEqual([
      expect.objectContaining({
        key: `anomaly:${code}`,
        kind: "anomaly",
        fix: decide ? "decide" : "sellerSpace",
        cause: decide ? "duplicate" : "flagged",
      }),
    ]);
  });

  it("is one next action of a damaged lead, and Home counts its cause the same way", () => {
    const next = nextActionOf({
      state: "damaged",
      cancelled: false,
      leadRef: "ATB-1",
      blocking: [],
      anomalies: [code],
      heldByCustomer: false,
    });
    expect(next).toEqual({
      kind: info.fix === "decideDuplicate" ? "decideDuplicate" : "sellerSpace",
      canResend: true,
      secondLead: true,
    });
    expect(causeOf({ state: "damaged", blocking: [], anomalies: [code], heldByCustomer: false })).toBe(
      info.fix === "decideDuplicate" ? "duplicate" : "flagged",
    );
    expect(anomalyFixOf([code])).toBe(info.fix);
  });

  it("is explained on the order page in both languages, with the field the platform flagged", () => {
    expect(["items", "city", "total_client", "customer_phone"]).toContain(info.field);
    for (const messages of [en, fr] as Record<string, string>[]) expect(messages[`anomaly.${code}`]).toBeTruthy();
  });
});

it("shows a code the table does not know as the platform worded it", () => {
  expect(extensionAnomalyText({ code: "blacklisted_phone", message: "Phone is blacklisted" }, (key) => key)).toBe(
    "Phone is blacklisted",
  );
});
