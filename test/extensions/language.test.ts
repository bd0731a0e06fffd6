/**
 * The order-page extensions entirely in the admin's language: every state,
 * every finding and anomaly, the customer's record, the hold and the reasons
 * the app stores, rendered through the real status view (the app's sentences
 * in the language the extension asks for) and the view model. In French no
 * string may read as English or show a raw code; in English, none as French.
 */
import type { OrderLink } from "@prisma/client";
import { describe, expect, it } from "vitest";
import { en as appEn } from "../../app/i18n/en";
import { fr as appFr } from "../../app/i18n/fr";
import { toLinkStatusView } from "../../app/pages/order-status-view.server";
import { reasonFields } from "../../app/models/timeline.server";
import {
  autoSendOffText,
  cancelledReasonText,
  heldByRulesText,
  keyRejectedText,
  notInstalledText,
  rateLimitedText,
  refusedText,
  sendFailedText,
  waitingForKeyText,
} from "../../app/models/order-texts";
import { ANOMALY_CODE_LIST } from "../../app/models/anomaly-codes";
import type { MessageRef } from "../../app/i18n/message-ref";
import {
  actionView,
  blockView,
  FINDING_KEYS,
  LINK_STATES,
  parseStatusPayload,
  type BlockView,
  type ActionView,
  type LinkState,
  type SendOutcome,
  type StatusPayload,
} from "../../extensions/order-status-block/src/view-model";
import { languageProblems } from "../helpers/language-check";
import { loadLocale, translator, type Lang } from "./locales";

const PARAMS: Record<string, Record<string, string | number>> = {
  not_cod: { gateways: "Carte bancaire" },
  not_cod_paid: { reason: "already_paid", financialStatus: "paid" },
  not_cod_no_gateway: { reason: "no_gateway" },
  city_unmatched: { input: "Sebt Gzoula" },
  city_fuzzy: { input: "Casablnaca", city: "Casablanca", score: 0.87 },
  city_from_address: { city: "Rabat" },
  sku_missing: { title: "Lampe zellige" },
  sku_unmatched: { sku: "ZELLIGE-LAMP-01", title: "Lampe zellige" },
  sku_unmatched_mapping: { title: "Lampe zellige", unknown: "ZL-9", via: "mapping" },
  item_out_of_stock: { name: "Rasoir 3D", sku: "SHAVER-3D" },
  currency_not_mad: { currency: "EUR" },
  total_invalid: { amount: "abc" },
  total_below_cost: { total: "150.00", minimum: "229.50" },
  possible_duplicate: { otherOrder: "#1001", minutesAgo: 4 },
};

/** Every reason the pipeline stores on an order. */
const REASONS: MessageRef[] = [
  autoSendOffText(),
  cancelledReasonText(),
  heldByRulesText(),
  keyRejectedText(),
  notInstalledText(),
  rateLimitedText(30),
  refusedText("customer_phone"),
  refusedText(undefined),
  sendFailedText("timeout", 1, false),
  sendFailedText("server", 10, true),
  waitingForKeyText(true),
  waitingForKeyText(false),
];

function link(state: LinkState, reason: MessageRef | null, findings: unknown[]): OrderLink {
  return {
    id: "link_1",
    shop: "atlas-beauty.myshopify.com",
    orderId: "6180000001019",
    orderName: "#1019",
    state,
    ...reasonFields(reason),
    leadRef: state === "created" || state === "damaged" ? "ATB-100019" : null,
    confirmationStatus: state === "created" ? "callback" : null,
    shippingStatus: state === "created" ? "pending" : null,
    trackingNumber: null,
    phone: "0612345619",
    leadJson: null,
    payload: "{}",
    findings: JSON.stringify(findings),
    anomalies: JSON.stringify(
      state === "damaged" ? ANOMALY_CODE_LIST.map((code) => ({ code, message: `${code} said in English` })) : [],
    ),
    cancelledAt: null,
    updatedAt: new Date("2026-11-26T11:41:00Z"),
  } as unknown as OrderLink;
}

/** Every payload the extension can be given, the app's sentences in `lang`. */
function payloads(lang: Lang): StatusPayload[] {
  const findings = Object.keys(FINDING_KEYS).map((variant) => ({
    code: variant.startsWith("not_cod") ? "not_cod" : variant === "sku_unmatched_mapping" ? "sku_unmatched" : variant,
    severity: "blocking",
    message: `${variant} said in English`,
    params: PARAMS[variant] ?? {},
  }));
  const views = LINK_STATES.flatMap((state) =>
    [null, ...REASONS].map((reason, i) =>
      toLinkStatusView(
        link(state, reason, i === 0 ? findings : []),
        null,
        {
          record: {
            standing: null,
            orders: 3,
            delivered: 1,
            returned: 1,
            refused: 1,
            cancelled: 0,
            wrongNumber: 0,
            inProgress: 0,
            lastOutcome: "refused",
            lastOutcomeAt: new Date("2026-11-20T10:00:00Z"),
          } as never,
          hold:
            state === "held" && i === 1
              ? { code: "customer_record", counts: { refused: 2, wrong_number: 1 }, days: 90, blocked: false }
              : null,
        },
        { locale: lang, currency: "DH" },
      ),
    ),
  );
  return [{ state: "unknown" }, ...views.map((v) => parseStatusPayload(JSON.parse(JSON.stringify(v)))!)];
}

/** The words of a view (not its tones, codes or links). */
function texts(view: BlockView | ActionView): string[] {
  const out: string[] = [];
  const push = (...values: (string | null | undefined)[]) =>
    out.push(...values.filter((v): v is string => typeof v === "string" && v !== ""));
  if ("summary" in view) {
    push(view.summary, view.error, view.banner?.title, view.banner?.body, view.fixLabel, view.sendLabel);
    view.badges.forEach((b) => push(b.label));
    view.details.forEach((d) => push(d.label, d.value));
    view.findings.forEach((f) => push(f.severityLabel, f.text));
    push(...view.anomalies);
    if (view.customer)
      push(view.customer.risk.label, view.customer.orders, view.customer.lastOutcome, ...view.customer.counts);
  } else {
    push(view.heading, view.banner?.title, view.banner?.body, view.blockingNote, view.confirmLabel);
    [...view.blocking, ...view.warnings].forEach((f) => push(f.severityLabel, f.text));
  }
  return out;
}

function shown(lang: Lang): string[] {
  const t = translator(loadLocale("order-status-block", lang), lang);
  const formatDate = (d: Date) => d.toLocaleString(lang === "fr" ? "fr-FR" : "en-GB");
  const outcomes: SendOutcome[] = [
    { status: "idle" },
    { status: "sent" },
    { status: "failed", httpStatus: 409 },
    { status: "failed", httpStatus: 500 },
  ];
  return payloads(lang).flatMap((payload) => [
    ...texts(blockView({ status: "ready", payload }, t, formatDate)),
    ...outcomes.flatMap((outcome) => texts(actionView({ status: "ready", payload }, outcome, t))),
  ]);
}

// The extensions' {{placeholders}} read as the app's {placeholders}.
const values = (lang: Lang) => [
  ...Object.values(loadLocale("order-status-block", lang)).map((v) => v.replace(/\{\{\s*(\w+)\s*\}\}/g, "{$1}")),
  ...Object.values(lang === "fr" ? appFr : appEn),
];

describe("the order-page extensions", () => {
  it("say everything in French for a French admin: no English, no raw code", () => {
    const french = shown("fr");
    expect(french.length).toBeGreaterThan(500);
    // The app's stored reasons reached the extension in French.
    expect(french).toContain("La plateforme a refusé votre clé : saisissez-en une nouvelle dans les paramètres");
    expect(french.join("\n")).toContain("150\u00a0DH");
    expect(languageProblems(french, { own: values("fr"), other: values("en") })).toEqual([]);
  });

  it("say everything in English for an English admin: no French, no raw code", () => {
    const english = shown("en");
    expect(english).toContain("The platform refused your key: enter a new one in Settings");
    expect(languageProblems(english, { own: values("en"), other: values("fr") })).toEqual([]);
  });

  it("would catch an English sentence or a raw code on a French admin", () => {
    const problems = languageProblems(
      ["Lead sent to the platform", "retention", "Statut : sku_unmatched", "Lead ATB-1 créé"],
      { own: values("fr"), other: values("en") },
    );
    expect(problems.map((p) => p.text)).toEqual(["Lead sent to the platform", "retention", "Statut : sku_unmatched"]);
  });
});
