/**
 * The conversion feed as the Settings page reads and changes it: the
 * platforms connected (a dataset or pixel and its access token, verified with
 * the platform before it is kept, sealed at rest like the seller key; a page
 * shows its last four characters only), the feed's settings, and the
 * storefront pixel registered when the feed is switched on.
 */
import type { Db } from "../db.server";
import {
  AdAuthError,
  AdRefusedError,
  META_DATASET_ID,
  TIKTOK_PIXEL_CODE,
  VERIFY_TEST_EVENT_CODE,
  withoutSecret,
  type AdPlatform,
  type MetaClient,
  type TikTokClient,
} from "../ad-platforms";
import type { SecretBox } from "../crypto/secret-box.server";
import { adFeedJobFor } from "../models/job-kinds";
import { wakeJob } from "../queue/jobs.server";
import { ShopifyAdminError } from "../shopify/errors";
import { shopifyFailureOf, type ShopifyFailure } from "../shopify/failure";
import type { AdminGraphqlClient } from "../shopify/admin-graphql.server";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { localTime } from "../time-zone";
import {
  DEFAULT_FEED_SETTINGS,
  feedSettingsFormSchema,
  storedNaming,
  storedStage,
  type FeedSettings,
} from "./feed-settings";
import { collectUrlOf, registerWebPixel, removeWebPixel } from "./web-pixel.server";

export interface PlatformView {
  /** Meta's dataset id or TikTok's pixel code. */
  id: string;
  /** Meta's dataset name, as the platform gave it. */
  name: string | null;
  tokenLast4: string;
  verifiedLocal: string | null;
  /** When the platform refused the saved token while sending (nothing goes until a new one is saved). */
  refusedLocal: string | null;
}

export interface AdFeedView {
  settings: FeedSettings;
  meta: PlatformView | null;
  tiktok: PlatformView | null;
  /** The storefront pixel is registered on the shop. */
  pixelRegistered: boolean;
}

const local = (d: Date | null) => (d ? localTime(d, DEFAULT_TIME_ZONE) : null);
const last4 = (token: string) => (token.length >= 12 ? token.slice(-4) : "");

export async function loadAdFeedView(db: Db, shop: string): Promise<AdFeedView> {
  const row = await db.adFeed.findUnique({ where: { shop } });
  if (!row) return { settings: DEFAULT_FEED_SETTINGS, meta: null, tiktok: null, pixelRegistered: false };
  return {
    settings: {
      enabled: row.enabled,
      stage: storedStage(row.stage),
      naming: storedNaming(row.naming),
      negativeOutcomes: row.negativeOutcomes,
      withoutConsentSignal: row.withoutConsentSignal,
    },
    meta:
      row.metaDatasetId && row.metaTokenCipher
        ? {
            id: row.metaDatasetId,
            name: row.metaDatasetName,
            tokenLast4: row.metaTokenLast4 ?? "",
            verifiedLocal: local(row.metaVerifiedAt),
            refusedLocal: local(row.metaRefusedAt),
          }
        : null,
    tiktok:
      row.tiktokPixelCode && row.tiktokTokenCipher
        ? {
            id: row.tiktokPixelCode,
            name: null,
            tokenLast4: row.tiktokTokenLast4 ?? "",
            verifiedLocal: local(row.tiktokVerifiedAt),
            refusedLocal: local(row.tiktokRefusedAt),
          }
        : null,
    pixelRegistered: row.webPixelId !== null,
  };
}

// ---------------------------------------------------------------------------
// Connecting a platform

export type ConnectError =
  /** The dataset id or pixel code is not one. */
  | "invalid_id"
  /** No token typed, and none saved for this id. */
  | "token_required"
  /** Not a token (spaces, control characters, far too short or long). */
  | "invalid_token"
  /** The platform refused the token or the id (its message is given). */
  | "refused"
  /** The platform could not be reached, or asked to wait: nothing was saved. */
  | "unreachable";

export type ConnectResult =
  { ok: true; view: AdFeedView } | { ok: false; error: ConnectError; platformMessage: string | null };

export interface ConnectDeps {
  secretBox: SecretBox;
  meta: MetaClient;
  tiktok: TikTokClient;
  /** The store's address, for TikTok's check event. */
  storeUrl: string;
  now?: () => Date;
  log?: (line: string) => void;
}

const PURPOSE = { meta: "meta-access-token", tiktok: "tiktok-access-token" } as const;

/**
 * Verifies the id and token with the platform (Meta: reads the dataset; TikTok:
 * one test event) and keeps them only when it accepts. A blank token re-checks
 * the saved one, and only for the id it was verified with.
 */
export async function connectPlatform(
  db: Db,
  shop: string,
  platform: AdPlatform,
  input: { id: string; token: string },
  deps: ConnectDeps,
): Promise<ConnectResult> {
  const fail = (error: ConnectError, platformMessage: string | null = null): ConnectResult => ({
    ok: false,
    error,
    platformMessage,
  });
  const id = platform === "tiktok" ? input.id.trim().toUpperCase() : input.id.trim();
  if (!(platform === "meta" ? META_DATASET_ID : TIKTOK_PIXEL_CODE).test(id)) return fail("invalid_id");
  let token = input.token.trim();
  const saved = await db.adFeed.findUnique({ where: { shop } });
  if (!token) {
    const cipher = platform === "meta" ? saved?.metaTokenCipher : saved?.tiktokTokenCipher;
    const savedId = platform === "meta" ? saved?.metaDatasetId : saved?.tiktokPixelCode;
    if (!cipher || savedId !== id) return fail("token_required");
    try {
      token = deps.secretBox.open(cipher, { shop, purpose: PURPOSE[platform] });
    } catch {
      return fail("token_required");
    }
  }
  if (!/^[\x21-\x7e]{10,1000}$/.test(token)) return fail("invalid_token");

  let name: string | null = null;
  try {
    if (platform === "meta") name = (await deps.meta.verifyDataset(id, token)).name;
    else await deps.tiktok.verifyPixel(id, token, VERIFY_TEST_EVENT_CODE, deps.storeUrl);
  } catch (error) {
    const message = error instanceof Error ? withoutSecret(error.message, token) : "unknown error";
    deps.log?.(
      `settings ${shop}: ${platform} token not verified: ${error instanceof Error ? error.name : "error"}: ${message}`,
    );
    if (error instanceof AdAuthError || error instanceof AdRefusedError) return fail("refused", message);
    // A failure for now, a rate limit, no answer: nothing was saved, the merchant can try again.
    return fail("unreachable");
  }

  const now = deps.now?.() ?? new Date();
  const sealed = deps.secretBox.seal(token, { shop, purpose: PURPOSE[platform] });
  const data =
    platform === "meta"
      ? {
          metaDatasetId: id,
          metaDatasetName: name,
          metaTokenCipher: sealed,
          metaTokenLast4: last4(token),
          metaVerifiedAt: now,
          metaRefusedAt: null,
        }
      : {
          tiktokPixelCode: id,
          tiktokTokenCipher: sealed,
          tiktokTokenLast4: last4(token),
          tiktokVerifiedAt: now,
          tiktokRefusedAt: null,
        };
  await db.adFeed.upsert({ where: { shop }, create: { shop, ...data }, update: data });
  // Outcomes that waited for a token the platform had refused go now.
  if (saved?.enabled) await wakeJob(db, adFeedJobFor(shop));
  return { ok: true, view: await loadAdFeedView(db, shop) };
}

/** Forgets a platform's id and token; its waiting outcomes are not sent. */
export async function disconnectPlatform(db: Db, shop: string, platform: AdPlatform): Promise<AdFeedView> {
  const data =
    platform === "meta"
      ? {
          metaDatasetId: null,
          metaDatasetName: null,
          metaTokenCipher: null,
          metaTokenLast4: null,
          metaVerifiedAt: null,
          metaRefusedAt: null,
        }
      : {
          tiktokPixelCode: null,
          tiktokTokenCipher: null,
          tiktokTokenLast4: null,
          tiktokVerifiedAt: null,
          tiktokRefusedAt: null,
        };
  await db.$transaction([
    db.adFeed.updateMany({ where: { shop }, data }),
    db.adEvent.updateMany({ where: { shop, platform, state: "pending" }, data: { state: "cancelled" } }),
  ]);
  return loadAdFeedView(db, shop);
}

// ---------------------------------------------------------------------------
// The feed's settings, and the storefront pixel

export type SaveFeedResult =
  | { ok: true; view: AdFeedView; pixelFailure: ShopifyFailure | null }
  | { ok: false; error: "invalid" | "connect_first" };

export interface SaveFeedDeps {
  admin: AdminGraphqlClient;
  appUrl: string;
  now?: () => Date;
  log?: (line: string) => void;
}

/**
 * Saves the feed's settings. Switching it on registers the storefront pixel
 * (a failure is told with a retry; the feed is on all the same: orders with a
 * consent signal already stored, and those sent from customer data, go);
 * switching it off removes the pixel and cancels what waits to be sent.
 */
export async function saveFeedSettings(
  db: Db,
  shop: string,
  form: Record<string, string | undefined>,
  deps: SaveFeedDeps,
): Promise<SaveFeedResult> {
  const parsed = feedSettingsFormSchema.safeParse(form);
  if (!parsed.success) return { ok: false, error: "invalid" };
  const settings = parsed.data;
  const row = await db.adFeed.findUnique({ where: { shop } });
  const connected = !!(row?.metaTokenCipher && row.metaDatasetId) || !!(row?.tiktokTokenCipher && row.tiktokPixelCode);
  if (settings.enabled && !connected) return { ok: false, error: "connect_first" };
  const now = deps.now?.() ?? new Date();
  const switchedOn = settings.enabled && !row?.enabled;
  const switchedOff = !settings.enabled && !!row?.enabled;
  const data = { ...settings, ...(switchedOn ? { enabledAt: now } : {}) };
  await db.adFeed.upsert({ where: { shop }, create: { shop, ...data }, update: data });
  if (switchedOff) await db.adEvent.updateMany({ where: { shop, state: "pending" }, data: { state: "cancelled" } });
  let pixelFailure: ShopifyFailure | null = null;
  if (settings.enabled) pixelFailure = await ensureWebPixel(db, shop, deps);
  else if (row?.webPixelId) pixelFailure = await dropWebPixel(db, shop, row.webPixelId, deps);
  return { ok: true, view: await loadAdFeedView(db, shop), pixelFailure };
}

/** Registers (or updates) the storefront pixel; what failed, for the page's banner. */
export async function ensureWebPixel(db: Db, shop: string, deps: SaveFeedDeps): Promise<ShopifyFailure | null> {
  const row = await db.adFeed.findUnique({ where: { shop }, select: { pixelToken: true, webPixelId: true } });
  if (!row) return null;
  try {
    const id = await registerWebPixel(deps.admin, collectUrlOf(deps.appUrl, row.pixelToken), row.webPixelId);
    await db.adFeed.update({ where: { shop }, data: { webPixelId: id } });
    return null;
  } catch (error) {
    if (!(error instanceof ShopifyAdminError)) throw error;
    deps.log?.(`settings ${shop}: storefront pixel not registered: ${error.name}`);
    return shopifyFailureOf(error);
  }
}

async function dropWebPixel(db: Db, shop: string, id: string, deps: SaveFeedDeps): Promise<ShopifyFailure | null> {
  try {
    await removeWebPixel(deps.admin, id);
    await db.adFeed.update({ where: { shop }, data: { webPixelId: null } });
    return null;
  } catch (error) {
    if (!(error instanceof ShopifyAdminError)) throw error;
    deps.log?.(`settings ${shop}: storefront pixel not removed: ${error.name}`);
    return shopifyFailureOf(error);
  }
}
