/**
 * The order-page extensions' rendering logic: status to badge tone, the state
 * banners, what the action offers, and the English / French locale files.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  actionView,
  appHref,
  blockView,
  FINDING_KEYS,
  LINK_STATES,
  orderIdFromSelection,
  parseStatusPayload,
  stateBanner,
  statusBadge,
  stateBadge,
  type LinkState,
  type CustomerStatus,
  type LinkStatus,
  type Loadable,
  type SendOutcome,
  type StatusFinding,
  type StatusPayload,
} from "../../extensions/order-status-block/src/view-model";
import { EXTENSIONS, loadLocale, placeholders, translator } from "./locales";

const en = translator(loadLocale("order-status-block", "en"));
const fr = translator(loadLocale("order-status-block", "fr"), "fr");
const formatDate = (d: Date) => d.toISOString();

const finding = (
  code: string,
  severity: "blocking" | "warning",
  params: StatusFinding["params"] = {},
  message = `${code} (English)`,
): StatusFinding => ({
  code,
  severity,
  message,
  params,
});

function status(state: LinkState, extra: Partial<LinkStatus> = {}): LinkStatus {
  return {
    state,
    reason: null,
    reasonText: null,
    currency: "MAD",
    leadRef: null,
    confirmationStatus: null,
    shippingStatus: null,
    trackingNumber: null,
    lastChangeAt: "2026-03-10T12:00:00.000Z",
    findings: [],
    anomalies: [],
    canSend: false,
    sendLabel: null,
    fixUrl: "/app/orders/link_1",
    customer: null,
    hold: null,
    stage: null,
    nextAction: null,
    ...extra,
  };
}

const ready = (payload: StatusPayload): Loadable => ({ status: "ready", payload });

const badCustomer: CustomerStatus = {
  risk: "high",
  orders: 5,
  counts: { delivered: 1, returned: 1, refused: 2, cancelled: 0, wrong_number: 0, in_progress: 1 },
  lastOutcome: "refused",
  lastOutcomeAt: "2026-03-08T09:00:00.000Z",
};

describe("locale files", () => {
  it("have the same keys and the same {{placeholders}} in English and French, in both extensions", () => {
    for (const extension of EXTENSIONS) {
      const english = loadLocale(extension, "en");
      const french = loadLocale(extension, "fr");
      expect(Object.keys(french).sort()).toEqual(Object.keys(english).sort());
      for (const key of Object.keys(english)) {
        expect(english[key].trim(), `${extension} en ${key}`).not.toBe("");
        expect(french[key].trim(), `${extension} fr ${key}`).not.toBe("");
        expect(placeholders(french[key]), `${extension} ${key}`).toEqual(placeholders(english[key]));
      }
    }
  });

  it("are the same strings for the block and the action (one view model, one vocabulary)", () => {
    for (const lang of ["en", "fr"] as const) {
      expect(loadLocale("order-status-action", lang)).toEqual(loadLocale("order-status-block", lang));
    }
  });

  it("translate every finding variant with exactly the params the view model passes", () => {
    const english = loadLocale("order-status-block", "en");
    for (const [variant, params] of Object.entries(FINDING_KEYS)) {
      expect(english[`finding.${variant}`], variant).toBeDefined();
      expect(placeholders(english[`finding.${variant}`]), variant).toEqual([...params].sort());
    }
  });

  it("cover every finding code the mapper can produce", () => {
    const types = readFileSync(join(import.meta.dirname, "..", "..", "app", "leads", "types.ts"), "utf8");
    // FindingCode is the configurable codes' union plus the fixed ones.
    const unions = ["ConfigurableFindingCode", "FindingCode"].map(
      (name) => new RegExp(`export type ${name} =([^;]+);`).exec(types)?.[1] ?? "",
    );
    const codes = unions.flatMap((union) => [...union.matchAll(/"(\w+)"/g)].map((m) => m[1]));
    expect(codes.length).toBeGreaterThan(20);
    for (const code of codes) expect(FINDING_KEYS, code).toHaveProperty(code);
  });

  it("have every key the views ask for, in every state and both languages", () => {
    const outcomes: SendOutcome[] = [
      { status: "idle" },
      { status: "sending" },
      { status: "sent" },
      { status: "failed", httpStatus: 409 },
    ];
    const loads: Loadable[] = [
      { status: "loading" },
      { status: "error" },
      ready({ state: "unknown" }),
      ...LINK_STATES.map((state) =>
        ready(
          status(state, {
            reason: "Sending failed, retrying: 503",
            leadRef: "ATB-1",
            confirmationStatus: "confirmed",
            shippingStatus: "shipped",
            trackingNumber: "TRK1",
            findings: [
              finding("phone_invalid", "blocking"),
              finding("possible_duplicate", "warning", { otherOrder: "#1001", minutesAgo: 4 }),
            ],
            anomalies: [{ code: "unknown_city", message: "The city is not a delivered city." }],
            canSend: state === "held" || state === "failed",
            sendLabel: state === "held" ? "send" : state === "failed" ? "resend" : null,
            customer: badCustomer,
            hold:
              state === "held" ? { code: "customer_record", counts: { refused: 2, wrong_number: 1 }, days: 90 } : null,
          }),
        ),
      ),
    ];
    for (const t of [en, fr]) {
      for (const load of loads) {
        expect(() => blockView(load, t, formatDate)).not.toThrow();
        for (const outcome of outcomes) expect(() => actionView(load, outcome, t)).not.toThrow();
      }
    }
  });
});

describe("badges", () => {
  it("give each link state a tone: success when created, critical when refused or failed, caution when held", () => {
    expect(stateBadge("created", en)).toEqual({ label: "Lead created", tone: "success" });
    expect(stateBadge("held", en)).toEqual({ label: "Held", tone: "caution" });
    expect(stateBadge("failed", en).tone).toBe("critical");
    expect(stateBadge("invalid", en).tone).toBe("critical");
    expect(stateBadge("damaged", en).tone).toBe("warning");
    expect(stateBadge("retrying", en).tone).toBe("info");
    expect(stateBadge("skipped", en).tone).toBe("neutral");
  });

  it("label confirmation and shipping statuses with their tone, and show an unknown status verbatim", () => {
    expect(statusBadge("confirmation", "confirmed", en)).toEqual({ label: "Confirmation: Confirmed", tone: "success" });
    expect(statusBadge("confirmation", "fake", en)).toEqual({ label: "Confirmation: Fake order", tone: "critical" });
    expect(statusBadge("confirmation", "no_answer_2", en)?.tone).toBe("caution");
    expect(statusBadge("shipping", "delivered", en)).toEqual({ label: "Shipping: Delivered", tone: "success" });
    expect(statusBadge("shipping", "returned", en)?.tone).toBe("critical");
    expect(statusBadge("shipping", "lost_in_transit", en)).toEqual({ label: "lost_in_transit", tone: "neutral" });
    expect(statusBadge("shipping", null, en)).toBeNull();
  });
});

describe("state banners", () => {
  it("say the order is not sent yet while it is queued", () => {
    expect(stateBanner(status("received"), en)).toMatchObject({ tone: "info", title: "Not sent yet" });
  });

  it("say why a held order is held, from its blocking finding", () => {
    const held = status("held", {
      findings: [
        finding("possible_duplicate", "warning", { otherOrder: "#1001", minutesAgo: 3 }),
        finding("sku_unmatched", "blocking", { sku: "ARG-50", title: "Argan oil 50 ml" }),
      ],
      reason: "sku_unmatched (English)",
    });
    expect(stateBanner(held, en)).toEqual({
      tone: "warning",
      title: "Held: not sent",
      body: "SKU “ARG-50” (“Argan oil 50 ml”) is not in the platform catalogue.",
    });
    // The reason repeats the finding: not shown twice.
    expect(blockView(ready(held), en, formatDate).details.map((d) => d.label)).not.toContain("Details");
  });

  it("say a skipped order is not COD, with the payment it was made with", () => {
    const skipped = status("skipped", {
      findings: [finding("not_cod", "blocking", { reason: "gateway", gateways: "Stripe" })],
    });
    expect(stateBanner(skipped, en)).toEqual({
      tone: "info",
      title: "Not COD: skipped",
      body: "The order was paid with Stripe, not cash on delivery.",
    });
    const paid = status("skipped", {
      findings: [finding("not_cod", "blocking", { reason: "already_paid", financialStatus: "partially_paid" })],
    });
    expect(stateBanner(paid, en)?.body).toBe(
      "The order is already partially paid; only unpaid cash-on-delivery orders are sent.",
    );
  });

  it("say sending failed and is retried, and show the app's reason", () => {
    const retrying = status("retrying", { reason: "Sending failed, retrying: 503 Service Unavailable" });
    expect(stateBanner(retrying, en)).toMatchObject({ tone: "warning", title: "Sending failed: retrying" });
    expect(blockView(ready(retrying), en, formatDate).details).toContainEqual({
      label: "Details",
      value: "Sending failed, retrying: 503 Service Unavailable",
    });
    // The app's reason in the extension's language when the app stored it as a sentence.
    const french = status("retrying", {
      reason: "Sending failed, trying again: the platform had an error on its side",
      reasonText: "Échec de l'envoi, nouvel essai : la plateforme a eu une erreur de son côté",
    });
    expect(blockView(ready(french), fr, formatDate).details).toContainEqual({
      label: "Détails",
      value: "Échec de l'envoi, nouvel essai : la plateforme a eu une erreur de son côté",
    });
  });

  it("write amounts with the app's format table in the extension's language, in the shop's currency name", () => {
    const below = status("held", {
      currency: "DH",
      findings: [finding("total_below_cost", "blocking", { total: "150.00", minimum: "229.50" })],
    });
    expect(blockView(ready(below), fr, formatDate).findings[0].text).toBe(
      "Le montant à encaisser (150\u00a0DH) est inférieur au prix plateforme des articles plus la livraison (229,50\u00a0DH).",
    );
    expect(blockView(ready({ ...below, currency: "MAD" }), en, formatDate).findings[0].text).toBe(
      "The amount to collect (150 MAD) is below the platform price of the items plus delivery (229.50 MAD).",
    );
  });

  it("say the app has no lead for an order it does not know, and show no created lead without reason", () => {
    expect(stateBanner({ state: "unknown" }, en)).toMatchObject({
      tone: "info",
      title: "Not handled by COD Lead Sync",
    });
    expect(stateBanner(status("created"), en)).toBeNull();
    expect(stateBanner(status("failed"), en)?.tone).toBe("critical");
  });
});

describe("block", () => {
  const created = status("created", {
    leadRef: "ATB-2001",
    confirmationStatus: "confirmed",
    shippingStatus: "shipped",
    trackingNumber: "AMA123456MA",
    lastChangeAt: "2026-03-09T08:30:00.000Z",
    anomalies: [
      { code: "recent_duplicate", message: "Same customer phone and product as ATB-2000, created recently." },
    ],
    findings: [finding("city_fuzzy", "warning", { input: "Casa", city: "Casablanca", score: 0.87 })],
  });

  it("shows the lead ref, statuses, tracking number, last change, findings, anomalies and the fix link", () => {
    const view = blockView(ready(created), en, formatDate);
    expect(view.badges).toEqual([
      { label: "Lead created", tone: "success" },
      { label: "Confirmation: Confirmed", tone: "success" },
      { label: "Shipping: Shipped", tone: "info" },
    ]);
    expect(view.summary).toBe("Lead created · Confirmation: Confirmed · Shipping: Shipped");
    expect(view.details).toEqual([
      { label: "Lead", value: "ATB-2001" },
      { label: "Tracking number", value: "AMA123456MA" },
      { label: "Last change", value: "2026-03-09T08:30:00.000Z" },
    ]);
    expect(view.findings).toEqual([
      {
        code: "city_fuzzy",
        blocking: false,
        tone: "caution",
        severityLabel: "Warning",
        text: "The city “Casa” was read as Casablanca (87% match); check it.",
      },
    ]);
    expect(view.anomalies).toEqual(["Same customer phone and product as a recent lead."]);
    expect(view.fixHref).toBe("app:app/orders/link_1");
    expect(view.fixLabel).toBe("Fix in COD Lead Sync");
    expect(view.sendLabel).toBeNull();
  });

  it("shows the order's one stage and its next action, as the app's pages do", () => {
    const damaged = status("damaged", {
      leadRef: "ATB-2002",
      confirmationStatus: "new",
      shippingStatus: "pending",
      anomalies: [{ code: "recent_duplicate", message: "Same phone" }],
      stage: "sent",
      nextAction: "decideDuplicate",
    });
    const view = blockView(ready(damaged), en, formatDate);
    expect(view.badges[0]).toEqual({ label: "Sent", tone: "info" });
    expect(view.next).toBe("decide about the duplicate in the app: keep both or cancel this order");
    const french = blockView(ready(damaged), fr, formatDate);
    expect(french.badges[0]).toEqual({ label: "Envoyée", tone: "info" });
    expect(french.next).toBe("trancher le doublon dans l'app : garder les deux ou annuler cette commande");
    // Held by a finding: the caution tone, and nothing said when there is nothing to do.
    expect(blockView(ready(status("held", { stage: "held", nextAction: "fix" })), en, formatDate)).toMatchObject({
      badges: [{ label: "Held", tone: "caution" }],
      next: "fix what holds it, in the app",
    });
    expect(
      blockView(ready(status("created", { stage: "delivered", nextAction: "none" })), en, formatDate).next,
    ).toBeNull();
    // The app's answer carries them; an older app's answer without them falls back to the link state.
    const parsed = parseStatusPayload({ ...damaged, stage: "sent", nextAction: "decideDuplicate" }) as LinkStatus;
    expect([parsed.stage, parsed.nextAction]).toEqual(["sent", "decideDuplicate"]);
    const older = parseStatusPayload({ ...damaged, stage: "bogus", nextAction: undefined }) as LinkStatus;
    expect([older.stage, older.nextAction]).toEqual([null, null]);
    expect(blockView(ready(older), en, formatDate).badges[0].label).toBe("Created with anomalies");
  });

  it("is entirely in French for a French admin", () => {
    const view = blockView(ready(created), fr, formatDate);
    expect(view.badges.map((b) => b.label)).toEqual(["Lead créé", "Confirmation : Confirmé", "Livraison : Expédié"]);
    expect(view.details.map((d) => d.label)).toEqual(["Lead", "Numéro de suivi", "Dernier changement"]);
    expect(view.findings[0]).toMatchObject({
      severityLabel: "Avertissement",
      text: "La ville « Casa » a été lue comme Casablanca (87 % de correspondance) ; vérifiez-la.",
    });
    expect(view.anomalies).toEqual(["Même téléphone client et même produit qu'un lead récent."]);
    expect(view.fixLabel).toBe("Corriger dans COD Lead Sync");

    const held = blockView(
      ready(status("held", { findings: [finding("phone_invalid", "blocking")], canSend: true, sendLabel: "send" })),
      fr,
      formatDate,
    );
    expect(held.banner).toEqual({
      tone: "warning",
      title: "Retenue : non envoyée",
      body: "Le numéro de téléphone n'est pas un numéro marocain valide. La plateforme a besoin d'un mobile commençant par 06 ou 07.",
    });
    expect(held.sendLabel).toBe("Envoyer à la plateforme COD");
    expect(blockView(ready({ state: "unknown" }), fr, formatDate).banner?.title).toBe(
      "Non pris en charge par COD Lead Sync",
    );
  });

  it("keeps the app's message for a finding code it does not know", () => {
    const view = blockView(
      ready(status("held", { findings: [finding("brand_new_rule", "blocking", {}, "A new rule says no.")] })),
      en,
      formatDate,
    );
    expect(view.findings[0].text).toBe("A new rule says no.");
    expect(view.banner?.body).toBe("A new rule says no.");
  });

  it("shows the customer's delivery record: risk, counts and last outcome, in English and French", () => {
    const view = blockView(ready(status("created", { customer: badCustomer })), en, formatDate);
    expect(view.customer).toEqual({
      risk: { label: "High risk", tone: "critical" },
      orders: "5 orders sent to the platform",
      counts: ["Delivered: 1", "Returned: 1", "Refused: 2", "In progress: 1"],
      lastOutcome: "Last outcome: Refused, 2026-03-08T09:00:00.000Z",
    });
    expect(blockView(ready(status("created", { customer: badCustomer })), fr, formatDate).customer).toEqual({
      risk: { label: "Risque élevé", tone: "critical" },
      orders: "5 commandes envoyées à la plateforme",
      counts: ["Livrée : 1", "Retournée : 1", "Refusée : 2", "En cours : 1"],
      lastOutcome: "Dernier résultat : Refusée, 2026-03-08T09:00:00.000Z",
    });
    const fresh = {
      ...badCustomer,
      risk: "new" as const,
      orders: 0,
      counts: { ...badCustomer.counts, delivered: 0, returned: 0, refused: 0, in_progress: 0 },
      lastOutcome: null,
      lastOutcomeAt: null,
    };
    expect(blockView(ready(status("received", { customer: fresh })), en, formatDate).customer).toEqual({
      risk: { label: "New customer", tone: "neutral" },
      orders: "0 orders sent to the platform",
      counts: [],
      lastOutcome: null,
    });
    expect(blockView(ready(status("created")), en, formatDate).customer).toBeNull();
  });

  it("says why the customer hold keeps an order, in the admin's language, instead of the English reason", () => {
    const held = status("held", {
      reason: "2 refused and 1 wrong number in the last 90 days",
      hold: { code: "customer_record", counts: { refused: 2, wrong_number: 1 }, days: 90 },
      canSend: true,
      sendLabel: "send",
    });
    expect(blockView(ready(held), en, formatDate).banner).toEqual({
      tone: "warning",
      title: "Held: customer's delivery record",
      body: "2 refused and 1 wrong number in the last 90 days",
    });
    const french = blockView(ready(held), fr, formatDate);
    expect(french.banner).toEqual({
      tone: "warning",
      title: "Retenue : historique de livraison du client",
      body: "2 refusées et 1 mauvais numéro sur les 90 derniers jours",
    });
    expect(french.details.map((d) => d.value)).not.toContain(held.reason);
    expect(
      blockView(ready(status("held", { hold: { code: "customer_blocked", counts: {}, days: 90 } })), fr, formatDate)
        .banner?.body,
    ).toBe("Vous avez bloqué le numéro de ce client.");
  });

  it("offers sending only when the app says so, and shows loading and errors", () => {
    expect(blockView(ready(status("failed", { canSend: true, sendLabel: "resend" })), en, formatDate).sendLabel).toBe(
      "Resend",
    );
    expect(blockView(ready(status("posting")), en, formatDate).sendLabel).toBeNull();
    expect(blockView({ status: "loading" }, en, formatDate)).toMatchObject({
      loading: true,
      summary: "Loading the lead…",
    });
    expect(blockView({ status: "error" }, en, formatDate).error).toMatch(/could not be loaded/);
  });
});

describe("action", () => {
  const held = status("held", {
    findings: [
      finding("city_unmatched", "blocking", { input: "Kasba Tadla Centre" }),
      finding("phone_unverified", "warning"),
    ],
    canSend: true,
    sendLabel: "send",
  });

  it("shows the findings still on a held order before the merchant confirms sending", () => {
    const view = actionView(ready(held), { status: "idle" }, en);
    expect(view.heading).toBe("Send to COD platform");
    expect(view.confirmLabel).toBe("Send to COD platform");
    expect(view.blocking.map((l) => l.text)).toEqual([
      "“Kasba Tadla Centre” is not one of the platform's delivered cities.",
    ]);
    expect(view.warnings.map((l) => l.severityLabel)).toEqual(["Warning"]);
    expect(view.blockingNote).toMatch(/held again/);
  });

  it("says Resend for a failed order, in French too", () => {
    const failed = status("failed", { canSend: true, sendLabel: "resend" });
    expect(actionView(ready(failed), { status: "idle" }, en)).toMatchObject({
      heading: "Resend to COD platform",
      confirmLabel: "Resend",
      blockingNote: null,
    });
    expect(actionView(ready(failed), { status: "idle" }, fr)).toMatchObject({
      heading: "Renvoyer à la plateforme COD",
      confirmLabel: "Renvoyer",
    });
  });

  it("offers nothing to send for an order in flight, created or unknown, and says why", () => {
    expect(actionView(ready(status("posting")), { status: "idle" }, en)).toMatchObject({
      confirmLabel: null,
      banner: { tone: "info", title: "Nothing to send", body: "The order is being sent right now." },
    });
    expect(actionView(ready(status("created")), { status: "idle" }, en).confirmLabel).toBeNull();
    expect(actionView(ready({ state: "unknown" }), { status: "idle" }, en).banner?.body).toMatch(
      /no lead for this order/,
    );
  });

  it("reports the outcome: queued, or an error by HTTP status", () => {
    expect(actionView(ready(held), { status: "sending" }, en)).toMatchObject({
      sending: true,
      confirmLabel: "Send to COD platform",
    });
    expect(actionView(ready(status("received")), { status: "sent" }, en)).toMatchObject({
      done: true,
      banner: { tone: "success", title: "Queued for sending" },
    });
    expect(actionView(ready(held), { status: "failed", httpStatus: 409 }, en).banner).toMatchObject({
      tone: "critical",
      body: expect.stringMatching(/changed meanwhile/),
    });
    expect(actionView(ready(held), { status: "failed", httpStatus: 404 }, fr).banner?.body).toBe(
      "L'application n'a pas de lead pour cette commande.",
    );
    expect(actionView(ready(held), { status: "failed", httpStatus: 0 }, en).banner?.body).toMatch(
      /Something went wrong/,
    );
  });
});

describe("calling the app", () => {
  it("takes the numeric order id from the admin's selection", () => {
    expect(orderIdFromSelection([{ id: "gid://shopify/Order/5501234567890" }])).toBe("5501234567890");
    expect(orderIdFromSelection([{ id: "gid://shopify/Product/1" }])).toBeNull();
    expect(orderIdFromSelection([])).toBeNull();
  });

  it("links to the app's order page with the app: protocol", () => {
    expect(appHref("/app/orders/clx1")).toBe("app:app/orders/clx1");
    expect(appHref("")).toBeNull();
  });

  it("reads the app's answer and refuses anything else", () => {
    expect(parseStatusPayload({ state: "unknown" })).toEqual({ state: "unknown" });
    expect(parseStatusPayload({ error: "order not found" })).toBeNull();
    expect(parseStatusPayload({ state: "exploded" })).toBeNull();
    expect(parseStatusPayload("<html>")).toBeNull();
    // canSend without a label is not an offer.
    expect(parseStatusPayload({ ...status("held"), canSend: true, sendLabel: null })).toMatchObject({ canSend: false });
    // The customer's record and hold come through; anything malformed in them is dropped, not trusted.
    const hold = { code: "customer_record", counts: { refused: 2, returned: -1, delivered: 4 }, days: 90 };
    expect(parseStatusPayload({ ...status("held"), customer: badCustomer, hold })).toMatchObject({
      customer: badCustomer,
      hold: { code: "customer_record", counts: { refused: 2 }, days: 90 },
    });
    expect(
      parseStatusPayload({ ...status("held"), customer: { risk: "doomed" }, hold: { code: "nope" } }),
    ).toMatchObject({ customer: null, hold: null });
    // An older app answers without them.
    const { customer: _c, hold: _h, ...older } = status("created");
    expect(parseStatusPayload(older)).toMatchObject({ customer: null, hold: null });
  });
});
