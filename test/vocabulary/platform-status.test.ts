/**
 * Every platform status, through every reader of it. The test walks the
 * vocabulary's lists, so a status added there is checked here with no edit:
 * the Seller API client parses it, the status groups, the stage, the next
 * action, finality, attention, the customer record, the ad feed, the cash and
 * sync ledgers, write-back (tags, fulfilment, mark as paid, cancel), the
 * Orders list's filter and badge, the timeline, and the order-page extension
 * all read what it means, and both catalogues (and so the extension) name it.
 * A status the app does not know is kept and shown verbatim by every one.
 */
import { describe, expect, it } from "vitest";
import {
  CONFIRMATION_STATUSES,
  SHIPPING_STATUSES,
  callOf,
  isCallClosed,
  isFinalStatus,
  parcelCollected,
  parcelExists,
  parcelHandedOver,
  parcelOf,
  statusTone,
  type Parcel,
} from "../../app/vocabulary/platform-status";
import { confirmationStatusEnum, shippingStatusEnum } from "../../app/vocabulary/platform-status-schema";
import {
  SENT_BUCKETS,
  bucketOf,
  isConfirmed,
  isDelivered,
  isReturned,
  isShipped,
  ledgerGroupOf,
  statusGroupOf,
  type SentBucket,
} from "../../app/vocabulary/status-groups";
import { leadDetailSchema, leadSummarySchema } from "../../app/seller-api/schemas";
import { stageOf, stepperOf, type Stage } from "../../app/models/order-stage";
import { nextActionOf } from "../../app/models/next-action";
import { causeOf } from "../../app/models/attention";
import { LINK_STATES } from "../../app/models/order-link-state";
import { statusChangedText } from "../../app/models/order-texts";
import { deliveryOutcomeOf } from "../../app/customers/outcome";
import { reachedStages } from "../../app/ad-feed/stages";
import { cashStateOf } from "../../app/analytics/cash";
import { needsDetail } from "../../app/sync/lead-status";
import {
  DEFAULT_WRITE_BACK_SETTINGS,
  NOTHING_WRITTEN_BACK,
  cancelReasonOf,
  planWriteBack,
  type WriteBackLink,
} from "../../app/shopify/write-back-plan";
import type { OrderWriteBackState } from "../../app/shopify/order-write-back-state";
import { desiredTags, isManagedTag } from "../../app/shopify/write-back-tags";
import { parseOrdersSearch } from "../../app/pages/orders.server";
import { BADGE_TONES, badgeToneOf } from "../../app/components/StatusBadge";
import { en } from "../../app/i18n/en";
import { fr } from "../../app/i18n/fr";
import { english, formatterFor, isMessageKey, t } from "../../app/i18n";
import { renderMessage } from "../../app/i18n/message-ref";
import { statusBadge } from "../../extensions/order-status-block/src/view-model";
import { loadLocale, translator } from "../extensions/locales";

const sent = (confirmationStatus: string | null, shippingStatus: string | null, state = "created") => ({
  state,
  confirmationStatus,
  shippingStatus,
  cancelled: false,
});

const SHOPIFY_ORDER: OrderWriteBackState = {
  id: "gid://shopify/Order/1001",
  tags: [],
  displayFinancialStatus: "PENDING",
  canMarkAsPaid: true,
  cancelledAt: null,
  fulfillmentOrders: [
    {
      id: "fo-1",
      status: "OPEN",
      supportedActions: ["CREATE_FULFILLMENT"],
      locationId: "gid://shopify/Location/1",
      lineItems: [{ id: "foli-1", remainingQuantity: 1 }],
    },
  ],
};

const writeBack = (confirmationStatus: string, shippingStatus: string) => {
  const link: WriteBackLink = {
    leadRef: "LD-7",
    confirmationStatus,
    shippingStatus,
    hasAnomalies: false,
    trackingNumber: "TRK-1",
    done: NOTHING_WRITTEN_BACK,
  };
  return planWriteBack(link, { ...DEFAULT_WRITE_BACK_SETTINGS, cancel: true }, SHOPIFY_ORDER).map((s) => s.kind);
};

// What a confirmed lead's parcel reads as: the README's table of status groups, and the stage it shows.
const BUCKET_OF_PARCEL: Record<Parcel, SentBucket> = {
  none: "preparing",
  picked_up: "preparing",
  in_transit: "in_transit",
  delivered: "delivered",
  paid_out: "delivered",
  returned: "returned",
  cancelled: "parcel_cancelled",
};
const STAGE_OF_PARCEL: Record<Parcel, Stage> = {
  none: "confirmed",
  picked_up: "confirmed",
  in_transit: "shipped",
  delivered: "delivered",
  paid_out: "delivered",
  returned: "returned",
  cancelled: "cancelled",
};

const extension = {
  en: translator(loadLocale("order-status-block", "en"), "en"),
  fr: translator(loadLocale("order-status-block", "fr"), "fr"),
};
const EXTENSION_TONE = { neutral: "neutral", attention: "caution", critical: "critical", info: "info" } as const;

/** What every reader that shows a status owes it: words in both languages, a tone, a filter and a timeline line. */
function expectShown(field: "confirmation" | "shipping", status: string) {
  const key = `${field}.${status}`;
  expect(isMessageKey(key), key).toBe(true);
  for (const catalogue of [en, fr] as Record<string, string>[]) {
    expect(catalogue[key], key).toMatch(/\S/);
    expect(catalogue[key], key).not.toBe(status);
  }
  const tone = statusTone(field, status);
  expect(tone, `${key} tone`).not.toBeNull();
  // The Orders list's badge and the order page's, and the extension's in both languages.
  expect(badgeToneOf(field, status)).toBe(BADGE_TONES[tone!]);
  for (const lang of ["en", "fr"] as const) {
    const catalogue = lang === "en" ? en : fr;
    const badge = statusBadge(field, status, extension[lang]);
    expect(badge?.label, `${key} in the ${lang} extension`).toContain((catalogue as Record<string, string>)[key]);
    expect(badge?.tone).toBe(EXTENSION_TONE[tone as keyof typeof EXTENSION_TONE] ?? tone);
  }
  // The Orders list filters on it.
  expect(parseOrdersSearch(new URLSearchParams({ [field]: status }))[field]).toEqual([status]);
  // The timeline names the change in words, in both languages.
  const change = statusChangedText(
    "LD-7",
    { confirmationStatus: null, shippingStatus: null },
    {
      confirmationStatus: field === "confirmation" ? status : null,
      shippingStatus: field === "shipping" ? status : null,
    },
  );
  expect(english(change)).toContain(en[key as keyof typeof en]);
  const french = renderMessage(change, { t: (k, p) => t("fr", k, p), format: formatterFor("fr") });
  expect(french).toContain(fr[key as keyof typeof fr]);
}

describe("the platform's statuses", () => {
  it("are zod enums of exactly the vocabulary's lists, and the client parses each (and an unknown one) as it came", () => {
    expect(confirmationStatusEnum.options).toEqual(CONFIRMATION_STATUSES);
    expect(shippingStatusEnum.options).toEqual(SHIPPING_STATUSES);
    for (const confirmation_status of [...CONFIRMATION_STATUSES, "not_listed_yet"])
      for (const shipping_status of [...SHIPPING_STATUSES, "not_listed_yet"]) {
        const row = { id: 7, ref: "AT-7", confirmation_status, shipping_status };
        expect(leadSummarySchema.parse(row)).toMatchObject({ confirmation_status, shipping_status });
        expect(leadDetailSchema.parse(row)).toMatchObject({ confirmation_status, shipping_status });
      }
    expect(
      leadSummarySchema.safeParse({ id: 7, ref: "AT-7", confirmation_status: 1, shipping_status: "x" }).success,
    ).toBe(false);
  });

  describe.each(CONFIRMATION_STATUSES)("confirmation %s", (status) => {
    const call = callOf(status)!;
    const closed = isCallClosed(status);

    it("reads the same in the status groups, the stage, the next action, finality and attention", () => {
      expect(call).not.toBeNull();
      const group = statusGroupOf(sent(status, "pending"));
      expect(SENT_BUCKETS).toContain(group);
      expect(statusGroupOf(sent(status, "pending", "damaged"))).toBe(`damaged.${group}`);
      expect(isConfirmed(group!)).toBe(call === "confirmed");
      expect(isShipped(group!)).toBe(false);
      expect(stageOf(sent(status, "pending"))).toBe(closed ? "cancelled" : call === "confirmed" ? "confirmed" : "sent");
      expect(stepperOf(sent(status, "pending")).stopped).toBe(closed ? "cancelled_on_call" : null);
      // Cancelled in Shopify while the lead lives on: only a lead still on the call asks for the seller space.
      const cancelledInShopify = nextActionOf({
        state: "created",
        cancelled: true,
        leadRef: "LD-7",
        blocking: [],
        anomalies: [],
        heldByCustomer: false,
        confirmationStatus: status,
      });
      expect(cancelledInShopify.kind).toBe(closed ? "none" : "sellerSpace");
      const final = isFinalStatus({ confirmationStatus: status, shippingStatus: "pending" });
      expect(final).toBe(closed);
      // A sent order cancelled in Shopify costs money until its lead reaches a final status.
      expect(
        causeOf({
          state: "created",
          mismatch: "cancelled",
          statusFinal: final,
          blocking: [],
          anomalies: [],
          heldByCustomer: false,
        }),
      ).toBe(final ? null : "mismatch");
    });

    it("counts for the customer record, the ad feed and the ledgers as the groups say", () => {
      const outcome = deliveryOutcomeOf(sent(status, "pending"));
      expect(outcome).toBe(
        !closed
          ? "in_progress"
          : call === "cancelled"
            ? "refused"
            : call === "wrong_number"
              ? "wrong_number"
              : "cancelled",
      );
      const stages = [...reachedStages({ ...sent(status, "pending"), sellerProfit: null })];
      expect(stages).toEqual(call === "confirmed" ? ["confirmed"] : call === "cancelled" ? ["refused"] : []);
      expect(cashStateOf(sent(status, "pending"))).toBeNull();
      expect(
        needsDetail({
          confirmationStatus: status,
          shippingStatus: "pending",
          trackingNumber: null,
          sellerProfit: null,
        }),
      ).toBe(false);
    });

    it("is written back as a tag, and cancels the Shopify order only when the call is closed", () => {
      expect(
        desiredTags({ leadRef: "LD-7", confirmationStatus: status, shippingStatus: "pending", hasAnomalies: false }),
      ).toEqual(["cod:lead:LD-7", `cod:${status}`]);
      expect(isManagedTag(`cod:${status}`, [])).toBe(true);
      const reason = cancelReasonOf(status);
      expect(reason === null || closed).toBe(true);
      expect(writeBack(status, "pending")).toEqual(reason ? ["tagsAdd", "cancel"] : ["tagsAdd"]);
    });

    it("has its words in both catalogues and a badge everywhere a status shows", () =>
      expectShown("confirmation", status));
  });

  describe.each(SHIPPING_STATUSES)("shipping %s", (status) => {
    const parcel: Parcel = parcelOf(status)!;
    const exists = parcelExists(status);
    const collected = parcelCollected(status);
    const confirmed = sent("confirmed", status);

    it("reads the same in the status groups, the stage, finality and the status sync", () => {
      expect(parcel).not.toBeNull();
      const group = statusGroupOf(confirmed)!;
      const bucket = bucketOf(group);
      expect(bucket).toBe(BUCKET_OF_PARCEL[parcel]);
      // An unconfirmed lead has no parcel: only a parcel that exists overrides the call.
      expect(bucketOf(statusGroupOf(sent("new", status))!)).toBe(exists ? bucket : "awaiting");
      expect(isShipped(group)).toBe(exists);
      expect(isDelivered(group)).toBe(collected);
      expect(isReturned(group)).toBe(parcel === "returned");
      expect(stageOf(confirmed)).toBe(STAGE_OF_PARCEL[parcel]);
      expect(isFinalStatus({ confirmationStatus: "confirmed", shippingStatus: status })).toBe(
        parcel === "paid_out" || parcel === "returned" || parcel === "cancelled",
      );
      expect(
        needsDetail({
          confirmationStatus: "confirmed",
          shippingStatus: status,
          trackingNumber: null,
          sellerProfit: "1.00",
        }),
      ).toBe(parcelHandedOver(status));
      expect(
        needsDetail({
          confirmationStatus: "confirmed",
          shippingStatus: status,
          trackingNumber: "T",
          sellerProfit: null,
        }),
      ).toBe(collected);
    });

    it("counts for the customer record, the ad feed and the cash ledger as the groups say", () => {
      const outcome = deliveryOutcomeOf(confirmed);
      expect(outcome).toBe(
        collected
          ? "delivered"
          : parcel === "returned"
            ? "returned"
            : parcel === "cancelled"
              ? "cancelled"
              : "in_progress",
      );
      const group = statusGroupOf(confirmed)!;
      const stages = reachedStages({ ...confirmed, sellerProfit: null });
      expect(stages.has("confirmed")).toBe(true);
      expect(stages.has("shipped")).toBe(isShipped(group));
      expect(stages.has("delivered")).toBe(isDelivered(group));
      expect(stages.has("returned")).toBe(isReturned(group));
      expect(cashStateOf(confirmed)).toBe(
        parcel === "delivered" ? "owed" : parcel === "paid_out" ? "paid" : parcel === "returned" ? "returned" : null,
      );
    });

    it("is written back as a tag once a parcel exists, fulfils once it is on its way, marks paid once collected", () => {
      const tags = desiredTags({
        leadRef: "LD-7",
        confirmationStatus: "confirmed",
        shippingStatus: status,
        hasAnomalies: false,
      });
      expect(tags).toEqual(
        parcel === "none" ? ["cod:lead:LD-7", "cod:confirmed"] : ["cod:lead:LD-7", "cod:confirmed", `cod:${status}`],
      );
      expect(isManagedTag(`cod:${status}`, [])).toBe(true);
      const steps = writeBack("confirmed", status);
      expect(steps.includes("fulfillmentCreate")).toBe(parcel === "in_transit" || collected);
      expect(steps.includes("markAsPaid")).toBe(collected);
    });

    it("has its words in both catalogues and a badge everywhere a status shows", () => expectShown("shipping", status));
  });

  it("puts every link state in one ledger group that agrees with its status group", () => {
    for (const state of LINK_STATES) {
      const group = statusGroupOf(sent(null, null, state));
      const ledger = ledgerGroupOf(state);
      if (group === null) expect(ledger, state).toBe("pending");
      else if (bucketOf(group) !== null) expect(ledger, state).toBe("sent");
      else expect(ledger, state).toBe(group === "invalid" || group === "failed" ? "refused" : group);
    }
  });

  it("keeps a status the app does not know and shows it verbatim, counted as a lead still in progress", () => {
    for (const [field, status] of [
      ["confirmation", "not_listed_yet"],
      ["shipping", "not_listed_yet"],
    ] as const) {
      const link = field === "confirmation" ? sent(status, "pending") : sent("confirmed", status);
      expect(statusTone(field, status)).toBeNull();
      expect(stageOf(link)).toBe(field === "confirmation" ? "sent" : "confirmed");
      expect(deliveryOutcomeOf(link)).toBe("in_progress");
      expect(isFinalStatus(link)).toBe(false);
      expect(badgeToneOf(field, status)).toBeUndefined();
      expect(t("fr", "status.unknown", { status })).toBe(status);
      expect(statusBadge(field, status, extension.fr)).toEqual({ label: status, tone: "neutral" });
      // Tagged as it came; ours to remove later only because we wrote it.
      expect(desiredTags({ leadRef: null, ...link, hasAnomalies: false })).toContain(`cod:${status}`);
      expect(isManagedTag(`cod:${status}`, [])).toBe(false);
      expect(isManagedTag(`cod:${status}`, [`cod:${status}`])).toBe(true);
      // Not a filter value the list offers: dropped from the URL, never trusted.
      expect(parseOrdersSearch(new URLSearchParams({ [field]: status }))[field]).toEqual([]);
      expect(english(statusChangedText("LD-7", { confirmationStatus: null, shippingStatus: null }, link))).toContain(
        status,
      );
    }
  });
});
