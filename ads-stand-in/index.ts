/**
 * Stand-ins for the ad platforms' server-side APIs (Meta's Conversions API,
 * TikTok's Events API), real HTTP servers on loopback for the tests, the demo
 * and the benchmark. Never imported by app/.
 *
 *   const meta = await startMetaStandIn();          // meta.url: the app's META_API_BASE_URL
 *   await adStandInControl(meta.url).credentials({ id: "1234567890", token: "EAAG-test" });
 */
export { startMetaStandIn, createMetaApp, type StartOptions } from "./meta";
export { startTikTokStandIn, createTikTokApp } from "./tiktok";
export { adStandInControl, type AdStandInControl, type FaultInput, type ReceivedEvents } from "./control-client";
export {
  StandInState,
  DEDUP_WINDOW_MS,
  MAX_EVENT_AGE_S,
  type RunningStandIn,
  type StoredEvent,
  type LoggedRequest,
} from "./common";
