/**
 * The ad platforms' server-side APIs, as the conversion feed uses them: Meta's
 * Conversions API and TikTok's Events API. Pure: no Prisma, no Remix; the
 * fetch is injected (app/net guards it in production).
 */
export * from "./conversion";
export * from "./errors";
export {
  hashCustomer,
  sha256Hex,
  SHA256_HEX,
  normalisePhone,
  normaliseEmail,
  type CustomerFields,
  type HashedCustomer,
} from "./hashing";
export {
  createMetaClient,
  toMetaEvent,
  metaError,
  META_DEFAULT_BASE_URL,
  META_GRAPH_VERSION,
  META_MAX_EVENTS,
  META_DATASET_ID,
  type MetaClient,
  type MetaServerEvent,
} from "./meta";
export {
  createTikTokClient,
  toTikTokEvent,
  tiktokError,
  TIKTOK_DEFAULT_BASE_URL,
  TIKTOK_TRACK_PATH,
  TIKTOK_MAX_EVENTS,
  TIKTOK_PIXEL_CODE,
  VERIFY_TEST_EVENT_CODE,
  type TikTokClient,
  type TikTokEvent,
} from "./tiktok";
export { withoutSecret, type RetryPolicy } from "./transport";
