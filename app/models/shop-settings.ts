/**
 * A shop's settings, stored as JSON on Shop.settings and always read through
 * this schema so a missing or older field gets its default. The sending rules
 * are the mapper's own (app/leads/settings.ts); this adds what the pipeline
 * and the admin need around them.
 */
import { z } from "zod";
import { DEFAULT_COD_GATEWAY_PATTERNS } from "../leads/cod";
import { DEFAULT_HOLD_POLICY } from "../leads/settings";
import type { ConfigurableFindingCode, MappingContext } from "../leads/types";
import {
  CONTACT_LANGUAGES,
  DEFAULT_CONTACT_MESSAGES,
  LEGACY_DEFAULT_CONTACT_MESSAGES,
  MAX_CONTACT_MESSAGE_CHARS,
  type ContactLanguage,
} from "./contact-message";
import { CURRENCY_LABELS } from "../i18n/formats";
import { ODDS_POLICIES } from "../odds/decision";

const holdChoice = z.enum(["hold", "send"]);

/** A shop's wording of the customer message; the old default saved unchanged reads as today's. */
const contactTemplate = (language: ContactLanguage) =>
  z
    .string()
    .trim()
    .min(1)
    .max(MAX_CONTACT_MESSAGE_CHARS)
    .default(DEFAULT_CONTACT_MESSAGES[language])
    .transform((text) =>
      text === LEGACY_DEFAULT_CONTACT_MESSAGES[language] ? DEFAULT_CONTACT_MESSAGES[language] : text,
    );

/** One hold-or-send choice per finding the shop may configure, defaulting to the mapper's policy. */
export const holdPolicySchema = z.object(
  Object.fromEntries(
    (Object.keys(DEFAULT_HOLD_POLICY) as ConfigurableFindingCode[]).map((code) => [
      code,
      holdChoice.default(DEFAULT_HOLD_POLICY[code]),
    ]),
  ) as Record<ConfigurableFindingCode, z.ZodDefault<typeof holdChoice>>,
);

export const shopSettingsSchema = z.object({
  /** Post leads as orders arrive; when off, every order waits in "held" for the merchant. */
  autoSend: z.boolean().default(true),
  /** Send every order, not only cash-on-delivery ones. */
  sendAllOrders: z.boolean().default(false),
  /** Send Shopify test orders (trying the app on a development store). */
  sendTestOrders: z.boolean().default(false),
  codGatewayPatterns: z
    .array(z.string().trim().min(1))
    .min(1)
    .default([...DEFAULT_COD_GATEWAY_PATTERNS]),
  holdPolicy: holdPolicySchema.default({}),
  /**
   * An order placed more than this many days ago (an import of past orders, a webhook days late)
   * is never sent without the merchant's word: it waits, flagged, to be sent knowingly.
   */
  staleOrderDays: z.number().int().min(1).max(90).default(7),
  duplicateWindowMinutes: z
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(10),
  writeBack: z
    .object({
      tags: z.boolean().default(true),
      fulfillment: z.boolean().default(true),
      markPaid: z.boolean().default(true),
      /**
       * When the order is marked paid: at delivery (the customer paid the carrier) or
       * when the platform pays the merchant (shipping status "paid").
       */
      markPaidWhen: z.enum(["delivered", "paid"]).default("delivered"),
      cancel: z.boolean().default(false),
    })
    .default({}),
  /** Tracking company written on Shopify fulfilments. */
  carrierName: z.string().trim().max(80).optional(),
  /**
   * Where the merchant opens the platform's seller space (the only place a lead can be cancelled
   * or corrected): the pages link there. Only shown as a link, never fetched; http(s) only.
   */
  sellerSpaceUrl: z
    .string()
    .trim()
    .max(500)
    .url()
    .refine((url) => /^https?:\/\//i.test(url))
    .optional(),
  /** Shopify Flow triggers the shop sends (off too when Flow says no enabled workflow uses one). */
  flowTriggers: z
    .object({
      leadCreated: z.boolean().default(true),
      leadStatusChanged: z.boolean().default(true),
      orderNeedsAttention: z.boolean().default(true),
      paymentOverdue: z.boolean().default(true),
      orderStuck: z.boolean().default(true),
      deliveryOdds: z.boolean().default(true),
    })
    .default({}),
  /** A delivered parcel still unpaid by the platform after this many days is overdue (Home alert, Flow trigger). */
  paymentOverdueDays: z.number().int().min(1).max(90).default(14),
  /**
   * Hold an order before it is sent when its customer has at least `failures`
   * failed deliveries in the last `days` days, or a blocked phone (app/customers/risk.ts).
   * Off by default: it keeps orders back, so the merchant turns it on.
   */
  customerHold: z
    .object({
      enabled: z.boolean().default(false),
      failures: z.number().int().min(1).max(50).default(2),
      days: z.number().int().min(1).max(3650).default(90),
    })
    .default({}),
  /**
   * What the delivery odds decide before an order is sent (app/odds/decision.ts):
   * send all (the default: the odds are shown, nothing is held), hold below
   * `minPercent`, or hold when sending is expected to lose money. `refusalCost`
   * is the merchant's own cost of a failed order in whole MAD (packing, the call),
   * on top of the platform's fee out and back.
   */
  deliveryOdds: z
    .object({
      policy: z.enum(ODDS_POLICIES).default("send_all"),
      minPercent: z.number().int().min(1).max(99).default(30),
      refusalCost: z.number().int().min(0).max(10_000).default(0),
    })
    .default({}),
  /**
   * Share customer delivery records with the shop's other stores on the same
   * seller account that opted in too (app/customers/sharing.server.ts). Off by
   * default: each store decides for itself, and both must say yes.
   */
  shareCustomerRecords: z.boolean().default(false),
  /**
   * The WhatsApp message the merchant sends a customer from an order (models/contact-message.ts):
   * the language it goes in, and the shop's wording of each.
   */
  contactMessage: z
    .object({
      language: z.enum(CONTACT_LANGUAGES).default("fr"),
      fr: contactTemplate("fr"),
      darija: contactTemplate("darija"),
    })
    .default({}),
  /** How amounts are written on the pages: "MAD" (the ISO code) or "DH", as Moroccans say (app/i18n/formats.ts). */
  currencyLabel: z.enum(CURRENCY_LABELS).default("MAD"),
  statusSyncMinutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(10),
  retentionDays: z.number().int().min(30).max(3650).default(365),
});

export type ShopSettings = z.infer<typeof shopSettingsSchema>;

export const DEFAULT_SHOP_SETTINGS: ShopSettings = shopSettingsSchema.parse({});

/** Parses stored settings; an unreadable field falls back to its default, the others are kept. */
export function readShopSettings(json: string | null | undefined): ShopSettings {
  let raw: unknown = {};
  try {
    raw = json ? JSON.parse(json) : {};
  } catch {
    raw = {};
  }
  const parsed = shopSettingsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const record = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const settings: Record<string, unknown> = { ...DEFAULT_SHOP_SETTINGS };
  for (const key of Object.keys(shopSettingsSchema.shape) as (keyof ShopSettings)[]) {
    const field = shopSettingsSchema.shape[key].safeParse(record[key]);
    if (field.success) settings[key] = field.data;
  }
  return settings as ShopSettings;
}

/** The part of the settings the order-to-lead mapper reads. */
export function mappingSettingsOf(
  settings: ShopSettings,
  shopCurrency?: string,
): NonNullable<MappingContext["settings"]> {
  return {
    codGatewayPatterns: settings.codGatewayPatterns,
    sendAllOrders: settings.sendAllOrders,
    sendTestOrders: settings.sendTestOrders,
    holdPolicy: settings.holdPolicy,
    duplicateWindowMinutes: settings.duplicateWindowMinutes,
    ...(shopCurrency ? { shopCurrency } : {}),
  };
}
