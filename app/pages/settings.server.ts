/**
 * A shop's connection to the Seller Order API and its settings, as the Settings
 * page reads and changes them. The API key and the events secret are write-only:
 * they go in sealed and nothing here ever selects their ciphertext for display.
 */
import { resumeShop } from "../sync/shop-pause.server";
import { ensureSyncScheduled } from "../sync/sync-schedule.server";
import {
  confirmedRelease,
  recheckOddsHolds,
  ReleaseNotConfirmedError,
  sendReleased,
  type Release,
} from "../sync/release-held.server";
import { oddsPolicyOf } from "../customers/delivery-odds.server";
import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import type { SecretBox } from "../crypto/secret-box.server";
import {
  AuthenticationError,
  ConnectionError,
  createSellerApiClient,
  InternalServerError,
  RateLimitError,
  UnsupportedApiVersionError,
  type Account,
} from "../seller-api";
import { secretBoxFromEnv } from "../env.server";
import { addressPolicyFromEnv, checkBaseUrl, sellerApiFetch, type AddressPolicy } from "../net/public-address.server";
import { isStrongEventsSecret, MIN_EVENTS_SECRET_LENGTH } from "../models/events-credentials";
import {
  DEFAULT_SHOP_SETTINGS,
  readShopSettings,
  shopSettingsSchema,
  type ShopSettings,
} from "../models/shop-settings";
import { ensureShop } from "../models/shops.server";
import { log as processLog } from "../runtime/logger.server";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { localTime } from "../time-zone";

/** The non-secret columns of Shop; the ciphers are never in this list. */
const publicShopColumns = {
  domain: true,
  sellerApiKeyLast4: true,
  sellerApiBaseUrl: true,
  sellerAccount: true,
  sellerName: true,
  leadPrefix: true,
  rateLimitPerMinute: true,
  apiVersion: true,
  keyVerifiedAt: true,
  pausedReason: true,
  pausedAt: true,
  settings: true,
  eventsToken: true,
} as const satisfies Prisma.ShopSelect;

type PublicShopRow = Prisma.ShopGetPayload<{ select: typeof publicShopColumns }>;

/** What the Settings page shows of a saved key: never the key, only its last 4 characters. */
function connectionView(row: PublicShopRow): SellerConnectionView {
  return {
    account: row.sellerAccount,
    name: row.sellerName,
    leadPrefix: row.leadPrefix,
    rateLimitPerMinute: row.rateLimitPerMinute,
    apiVersion: row.apiVersion,
    keyLast4: row.sellerApiKeyLast4 ?? "",
    verifiedAt: row.keyVerifiedAt?.toISOString() ?? null,
    verifiedLocal: row.keyVerifiedAt ? localTime(row.keyVerifiedAt, DEFAULT_TIME_ZONE) : null,
    pausedReason: row.pausedReason,
    pausedAt: row.pausedAt?.toISOString() ?? null,
  };
}

export interface SellerConnectionView {
  account: string | null;
  name: string | null;
  leadPrefix: string | null;
  rateLimitPerMinute: number | null;
  apiVersion: string | null;
  /** Last four characters of the key; empty when the key is too short to show any. */
  keyLast4: string;
  verifiedAt: string | null;
  /** verifiedAt on the shop's wall clock, for the page's date format. */
  verifiedLocal: string | null;
  pausedReason: string | null;
  pausedAt: string | null;
}

export interface SettingsPageView {
  shop: string;
  /** null until a key has been saved. */
  connection: SellerConnectionView | null;
  /** The shop's own base URL; "" means the default. */
  baseUrl: string;
  defaultBaseUrl: string | null;
  settings: ShopSettings;
  /** The settings as the form's initial values (see parseSettingsForm). */
  form: SettingsFormValues;
  /** Configurable findings, in display order: one hold checkbox each. */
  holdCodes: string[];
  eventsUrl: string;
  hasEventsSecret: boolean;
}

export function sellerEventsUrl(appUrl: string, eventsToken: string): string {
  return `${appUrl.replace(/\/+$/, "")}/webhooks/seller/${encodeURIComponent(eventsToken)}`;
}

export interface SettingsPageOptions {
  appUrl: string;
  defaultBaseUrl?: string | null;
}

export async function loadSettingsPage(db: Db, shop: string, options: SettingsPageOptions): Promise<SettingsPageView> {
  await ensureShop(db, shop);
  const [row, hasKey, hasSecret] = await Promise.all([
    db.shop.findUniqueOrThrow({ where: { domain: shop }, select: publicShopColumns }),
    db.shop.count({ where: { domain: shop, sellerApiKeyCipher: { not: null } } }),
    db.shop.count({ where: { domain: shop, eventsSecretCipher: { not: null } } }),
  ]);
  const settings = readShopSettings(row.settings);
  return {
    shop,
    connection: hasKey ? connectionView(row) : null,
    baseUrl: row.sellerApiBaseUrl ?? "",
    defaultBaseUrl: options.defaultBaseUrl ?? null,
    settings,
    form: settingsFormValues(settings),
    holdCodes: [...HOLD_CODES],
    eventsUrl: sellerEventsUrl(options.appUrl, row.eventsToken),
    hasEventsSecret: hasSecret > 0,
  };
}

// ---------------------------------------------------------------------------
// Key verification

/**
 * What the form is told. Everything that fails once the platform was called is
 * "not_verified": unreachable, refused key, 5xx, rate limit, not an API all look
 * the same, so the form cannot be used to probe addresses (the log keeps the cause).
 */
export type KeyErrorCode =
  | "missing_key"
  | "invalid_key"
  | "invalid_base_url"
  | "no_base_url"
  /** A blank key with a changed base URL: the saved key only goes where it was verified. */
  | "key_required"
  | "not_verified";

export type KeyVerification =
  | {
      ok: true;
      connection: SellerConnectionView;
      /** The store the platform attached the key to, when it says (the sandbox does). */
      keyStore: string | null;
    }
  | { ok: false; error: KeyErrorCode };

export interface KeyInput {
  /** Blank: re-verify the saved key against the same base URL. */
  apiKey: string;
  /** Blank: the default base URL. */
  baseUrl: string;
}

export interface VerifyKeyOptions {
  defaultBaseUrl?: string | null;
  secretBox?: SecretBox;
  fetch?: typeof fetch;
  /** Which hosts the key may be sent to; defaults to this process's (strict in production). */
  addressPolicy?: AddressPolicy;
  /** The merchant is waiting on the page: fail fast rather than retry for long. */
  timeoutMs?: number;
  now?: () => Date;
  /** Where the cause of a failed verification goes (never the key). */
  log?: (line: string) => void;
}

/**
 * "" -> null (use the default); otherwise the URL reduced to scheme, host, port and
 * path prefix, refused when the policy does not allow its host (see app/net).
 */
export function normaliseBaseUrl(
  value: string,
  policy: AddressPolicy = addressPolicyFromEnv(),
): { ok: true; url: string | null } | { ok: false; why: string } {
  if (!value.trim()) return { ok: true, url: null };
  const checked = checkBaseUrl(value, policy);
  return checked.ok ? { ok: true, url: checked.url } : checked;
}

/** Same address once normalised (a saved URL from before normalisation included). */
function sameBaseUrl(a: string | null, b: string | null): boolean {
  const norm = (v: string | null) =>
    v ? ((normaliseBaseUrl(v, { allowPrivate: true }) as { url?: string | null }).url ?? v) : null;
  return norm(a) === norm(b);
}

/** Shows nothing of a key too short for its last four characters to be harmless. */
export function keyLast4(apiKey: string): string {
  return apiKey.length >= 12 ? apiKey.slice(-4) : "";
}

/** For the server log only: why GET /v1/me failed. */
export function keyFailureCause(error: unknown): string {
  if (error instanceof AuthenticationError) return "rejected";
  if (error instanceof RateLimitError) return "rate_limited";
  if (error instanceof InternalServerError) return "platform_error";
  if (error instanceof ConnectionError) return "unreachable";
  if (error instanceof UnsupportedApiVersionError) return "unsupported_version";
  // 404, an HTML page, a body without an account: not a Seller Order API.
  return "not_seller_api";
}

/**
 * Verifies the key with GET /v1/me against the shop's base URL and, only on
 * success, stores it sealed with what the platform said about the account.
 * A verified key also lifts a pause caused by a rejected key.
 */
export async function verifyAndSaveKey(
  db: Db,
  shop: string,
  input: KeyInput,
  options: VerifyKeyOptions = {},
): Promise<KeyVerification> {
  const log = options.log ?? ((line: string) => processLog.warn(line, { shop }));
  const policy = options.addressPolicy ?? addressPolicyFromEnv();
  const base = normaliseBaseUrl(input.baseUrl, policy);
  if (!base.ok) {
    log(`settings ${shop}: base URL refused (${base.why})`);
    return { ok: false, error: "invalid_base_url" };
  }
  const baseUrl = base.url ?? options.defaultBaseUrl ?? null;
  if (!baseUrl) return { ok: false, error: "no_base_url" };

  await ensureShop(db, shop);
  const secretBox = options.secretBox ?? secretBoxFromEnv();
  let apiKey = input.apiKey.trim();
  if (!apiKey) {
    const saved = await db.shop.findUnique({
      where: { domain: shop },
      select: { sellerApiKeyCipher: true, sellerApiBaseUrl: true },
    });
    if (!saved?.sellerApiKeyCipher) return { ok: false, error: "missing_key" };
    // The saved key is only ever sent where it was verified: another address needs it typed again.
    if (!sameBaseUrl(saved.sellerApiBaseUrl ?? options.defaultBaseUrl ?? null, baseUrl))
      return { ok: false, error: "key_required" };
    try {
      apiKey = secretBox.open(saved.sellerApiKeyCipher, { shop, purpose: "seller-api-key" });
    } catch {
      // Sealed under another ENCRYPTION_KEY: the merchant has to paste the key again.
      return { ok: false, error: "missing_key" };
    }
  }
  if (!/^[\x21-\x7e]+$/.test(apiKey)) return { ok: false, error: "invalid_key" };

  let account: Account;
  try {
    const client = createSellerApiClient({
      baseUrl,
      apiKey,
      fetch: options.fetch ?? sellerApiFetch(policy),
      timeoutMs: options.timeoutMs ?? 10_000,
      retry: { maxAttempts: 1, maxRateLimitWaits: 0 },
    });
    account = await client.me();
  } catch (error) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : "unknown error";
    log(
      `settings ${shop}: key not verified at ${baseUrl}: ${keyFailureCause(error)} (${detail.split(apiKey).join("[key]")})`,
    );
    return { ok: false, error: "not_verified" };
  }

  const now = options.now?.() ?? new Date();
  const row = await db.shop.update({
    where: { domain: shop },
    data: {
      sellerApiKeyCipher: secretBox.seal(apiKey, { shop, purpose: "seller-api-key" }),
      sellerApiKeyLast4: keyLast4(apiKey),
      sellerApiBaseUrl: base.url,
      sellerAccount: account.account,
      sellerName: account.name,
      leadPrefix: account.lead_prefix,
      rateLimitPerMinute: account.rate_limit_per_minute,
      apiVersion: account.api_version,
      keyVerifiedAt: now,
      pausedReason: null,
      pausedAt: null,
    },
    select: publicShopColumns,
  });
  await onKeyVerified(db, shop);
  const store = account.raw.store;
  return {
    ok: true,
    keyStore: typeof store === "string" ? store : null,
    // The update above cleared the pause: the row says so.
    connection: connectionView(row),
  };
}

/**
 * A key was verified: resume a shop paused by a rejected key (its waiting jobs
 * run now) and make sure statuses are synced from now on.
 */
export async function onKeyVerified(db: Db, shop: string): Promise<void> {
  const now = new Date();
  await resumeShop(db, shop, now);
  await ensureSyncScheduled(db, shop, now);
}

// ---------------------------------------------------------------------------
// Settings form
//
// Form fields are named by their path in ShopSettings ("writeBack.tags",
// "holdPolicy.city_missing"), so a field error maps back to its input.

export type FieldErrorCode = "integer" | "min" | "max" | "required" | "invalid";
export interface FieldError {
  code: FieldErrorCode;
  min?: number;
  max?: number;
}
/** Keyed by form field name (the setting's path). */
export type FieldErrors = Record<string, FieldError>;
/** What the form posts: every value is a string ("true"/"false" for checkboxes). */
export type SettingsFormValues = Record<string, string>;

/** Choices the form posts as text, one of a fixed list each. */
export const BOOLEAN_SETTINGS = [
  "autoSend",
  "sendAllOrders",
  "sendTestOrders",
  "writeBack.tags",
  "writeBack.fulfillment",
  "writeBack.markPaid",
  "writeBack.cancel",
  "flowTriggers.leadCreated",
  "flowTriggers.leadStatusChanged",
  "flowTriggers.orderNeedsAttention",
  "flowTriggers.paymentOverdue",
  "flowTriggers.orderStuck",
  "flowTriggers.deliveryOdds",
  "customerHold.enabled",
  "shareCustomerRecords",
] as const;
export const INTEGER_SETTINGS = [
  "statusSyncMinutes",
  "retentionDays",
  "customerHold.failures",
  "customerHold.days",
  "paymentOverdueDays",
  "deliveryOdds.minPercent",
  "deliveryOdds.refusalCost",
  "staleOrderDays",
] as const;
/** One of a few words (the schema says which): form value = stored value. */
/** Choices among fixed values (the schema names them): when to mark paid, MAD or DH. */
export const CHOICE_SETTINGS = ["writeBack.markPaidWhen", "currencyLabel", "deliveryOdds.policy"] as const;
/** Free texts and choices, kept as typed (the schema trims and bounds them). */
export const TEXT_SETTINGS = ["contactMessage.language", "contactMessage.fr", "contactMessage.darija"] as const;
export const HOLD_PREFIX = "holdPolicy.";
/** Findings the shop may hold or send, in the schema's order. */
export const HOLD_CODES = Object.keys(DEFAULT_SHOP_SETTINGS.holdPolicy) as (keyof ShopSettings["holdPolicy"])[];

const isTrue = (value: string | undefined) => value === "true" || value === "on" || value === "1";

function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const [head, ...rest] = path.split(".");
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const child = { ...((target[head] as Record<string, unknown> | undefined) ?? {}) };
  target[head] = child;
  setAt(child, rest.join("."), value);
}

/** The settings as form values (the inverse of parseSettingsForm). */
export function settingsFormValues(settings: ShopSettings): SettingsFormValues {
  const values: SettingsFormValues = {
    codGatewayPatterns: settings.codGatewayPatterns.join("\n"),
    carrierName: settings.carrierName ?? "",
    sellerSpaceUrl: settings.sellerSpaceUrl ?? "",
  };
  const record = settings as unknown as Record<string, unknown>;
  const get = (path: string) =>
    path.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], record);
  for (const path of BOOLEAN_SETTINGS) values[path] = get(path) === true ? "true" : "false";
  for (const path of INTEGER_SETTINGS) values[path] = String(get(path));
  for (const path of CHOICE_SETTINGS) values[path] = String(get(path));
  for (const code of HOLD_CODES) values[HOLD_PREFIX + code] = settings.holdPolicy[code] === "hold" ? "true" : "false";
  for (const path of TEXT_SETTINGS) values[path] = String(get(path) ?? "");
  return values;
}

/**
 * Pure: the submitted form on top of the current settings, validated with the
 * settings schema. Fields the form does not carry keep their current value.
 */
export function parseSettingsForm(
  values: SettingsFormValues,
  current: ShopSettings,
): { ok: true; settings: ShopSettings } | { ok: false; fieldErrors: FieldErrors } {
  const errors: FieldErrors = {};
  const candidate: Record<string, unknown> = structuredClone(current);
  for (const path of BOOLEAN_SETTINGS) {
    if (values[path] !== undefined) setAt(candidate, path, isTrue(values[path]));
  }
  for (const path of CHOICE_SETTINGS) {
    if (values[path] !== undefined) setAt(candidate, path, values[path]);
  }
  for (const code of HOLD_CODES) {
    const value = values[HOLD_PREFIX + code];
    if (value !== undefined) setAt(candidate, HOLD_PREFIX + code, isTrue(value) ? "hold" : "send");
  }
  for (const path of INTEGER_SETTINGS) {
    const raw = values[path]?.trim();
    if (raw === undefined) continue;
    if (!/^-?\d+$/.test(raw)) errors[path] = { code: "integer" };
    else setAt(candidate, path, Number(raw));
  }
  for (const path of TEXT_SETTINGS) {
    if (values[path] !== undefined) setAt(candidate, path, values[path]);
  }
  if (values.codGatewayPatterns !== undefined) {
    candidate.codGatewayPatterns = [
      ...new Set(
        values.codGatewayPatterns
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean),
      ),
    ];
  }
  if (values.carrierName !== undefined) candidate.carrierName = values.carrierName.trim() || undefined;
  if (values.sellerSpaceUrl !== undefined) candidate.sellerSpaceUrl = values.sellerSpaceUrl.trim() || undefined;

  const parsed = shopSettingsSchema.safeParse(candidate);
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, settings: parsed.data };
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    // An element of a list ("codGatewayPatterns.2") is reported on the list.
    const field = issue.path.filter((p) => typeof p === "string").join(".");
    if (errors[field]) continue;
    if (issue.code === "too_small" && issue.type === "number")
      errors[field] = { code: "min", min: Number(issue.minimum) };
    else if (issue.code === "too_big" && issue.type === "number")
      errors[field] = { code: "max", max: Number(issue.maximum) };
    else if (issue.code === "too_small" && issue.type === "array") errors[field] = { code: "required" };
    else if (issue.code === "invalid_type" && issue.expected === "integer") errors[field] = { code: "integer" };
    else errors[field] = { code: "invalid" };
  }
  return { ok: false, fieldErrors: errors };
}

export type SaveSettingsResult =
  { ok: true; settings: ShopSettings; hasEventsSecret: boolean } | { ok: false; fieldErrors: FieldErrors };

export interface SaveSettingsOptions {
  secretBox?: SecretBox;
}

/** Validates and saves the settings; a non-blank events secret replaces the saved one, sealed. */
export async function saveShopSettings(
  db: Db,
  shop: string,
  values: SettingsFormValues & { eventsSecret?: string },
  options: SaveSettingsOptions = {},
): Promise<SaveSettingsResult> {
  await ensureShop(db, shop);
  const row = await db.shop.findUniqueOrThrow({ where: { domain: shop }, select: { settings: true } });
  const parsed = parseSettingsForm(values, readShopSettings(row.settings));
  if (!parsed.ok) return parsed;
  const secret = values.eventsSecret?.trim();
  if (secret && !isStrongEventsSecret(secret))
    return { ok: false, fieldErrors: { eventsSecret: { code: "min", min: MIN_EVENTS_SECRET_LENGTH } } };
  const updated = await db.shop.update({
    where: { domain: shop },
    data: {
      settings: JSON.stringify(parsed.settings),
      ...(secret
        ? {
            eventsSecretCipher: (options.secretBox ?? secretBoxFromEnv()).seal(secret, {
              shop,
              purpose: "events-secret",
            }),
          }
        : {}),
    },
    select: { id: true },
  });
  const hasSecret = await db.shop.count({ where: { id: updated.id, eventsSecretCipher: { not: null } } });
  return { ok: true, settings: parsed.settings, hasEventsSecret: hasSecret > 0 };
}

// ---------------------------------------------------------------------------
// One save for the whole page (the contextual save bar)

export type SettingsSaveResult =
  | {
      ok: true;
      settings: ShopSettings;
      hasEventsSecret: boolean;
      connection: SellerConnectionView | null;
      keyStore: string | null;
      keyChanged: boolean;
      /** A looser delivery-odds policy: the held orders it would send, for the merchant to confirm (none sent yet). */
      release: Release | null;
    }
  /** Nothing was saved: the settings' field errors, or the key's (shown on its field). */
  | { ok: false; fieldErrors: FieldErrors; keyError: KeyErrorCode | null };

/** The form's values, with `apiKey` (blank: keep the saved key), `baseUrl` (blank: the default) and `eventsSecret` (blank: keep it). */
export type SettingsSaveInput = SettingsFormValues;

/**
 * The page's one save: the settings are checked first, then a new key (or a
 * new platform address) is verified with the platform and saved, then the
 * settings. A wrong field or a key the platform refuses saves nothing.
 */
export async function saveSettingsPage(
  db: Db,
  shop: string,
  input: SettingsSaveInput,
  options: VerifyKeyOptions & SaveSettingsOptions = {},
): Promise<SettingsSaveResult> {
  await ensureShop(db, shop);
  const { apiKey = "", baseUrl, ...values } = input;
  const row = await db.shop.findUniqueOrThrow({
    where: { domain: shop },
    select: { settings: true, sellerApiBaseUrl: true },
  });
  const before = readShopSettings(row.settings);
  const parsed = parseSettingsForm(values, before);
  const secret = values.eventsSecret?.trim();
  const secretError: FieldErrors =
    secret && !isStrongEventsSecret(secret) ? { eventsSecret: { code: "min", min: MIN_EVENTS_SECRET_LENGTH } } : {};
  if (!parsed.ok || Object.keys(secretError).length > 0) {
    return { ok: false, fieldErrors: { ...(parsed.ok ? {} : parsed.fieldErrors), ...secretError }, keyError: null };
  }
  // A form without the address leaves it as it is.
  const address = baseUrl ?? row.sellerApiBaseUrl ?? "";
  const addressChanged = !sameBaseUrl(address.trim() || null, row.sellerApiBaseUrl);
  let verified: KeyVerification | null = null;
  if (apiKey.trim() || addressChanged) {
    verified = await verifyAndSaveKey(db, shop, { apiKey, baseUrl: address }, options);
    if (!verified.ok) return { ok: false, fieldErrors: {}, keyError: verified.error };
  }
  const saved = await saveShopSettings(db, shop, values, options);
  if (!saved.ok) return { ok: false, fieldErrors: saved.fieldErrors, keyError: null };
  // Another delivery-odds policy: the orders it held that the new one would send wait for the merchant's word.
  const oddsChanged = JSON.stringify(saved.settings.deliveryOdds) !== JSON.stringify(before.deliveryOdds);
  return {
    ok: true,
    settings: saved.settings,
    hasEventsSecret: saved.hasEventsSecret,
    connection: verified?.ok ? verified.connection : null,
    keyStore: verified?.ok ? verified.keyStore : null,
    keyChanged: verified !== null,
    release: oddsChanged ? await recheckOddsHolds(db, shop, oddsPolicyOf(before)) : null,
  };
}

export type { Release };

/**
 * The confirmation of what a looser delivery-odds policy freed: the orders it named, sent
 * by the merchant; more than one only with the count the confirmation stated.
 */
export async function sendReleasedFromSettings(
  db: Db,
  shop: string,
  form: FormData,
): Promise<{ intent: "sendReleased"; ok: true; sent: number } | { intent: "sendReleased"; ok: false; error: string }> {
  const { ids, count } = confirmedRelease(form);
  try {
    return {
      intent: "sendReleased",
      ok: true,
      sent: (await sendReleased(db, shop, ids, { by: "merchant" }, count)).sent,
    };
  } catch (error) {
    if (error instanceof ReleaseNotConfirmedError) return { intent: "sendReleased", ok: false, error: "group_changed" };
    throw error;
  }
}
