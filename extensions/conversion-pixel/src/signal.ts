/**
 * What the pixel sends the app when a checkout completes: the order, whether
 * the buyer allows marketing, and the ad platforms' click ids (Meta's _fbp and
 * _fbc, TikTok's ttclid and _ttp). Pure, so it runs in Node's tests with
 * Shopify's own event types.
 */
import type { PixelEventsCheckoutCompleted } from "@shopify/web-pixels-extension";

/** Where a click id from an ad's landing URL waits for the checkout (the pixel's own storage). */
export const STORED_CLICKS_KEY = "cod_lead_sync_clicks";
/** A click older than this no longer counts (Meta's and TikTok's longest attribution window). */
export const CLICK_LIFETIME_MS = 28 * 24 * 3600_000;

export interface StoredClicks {
  fbclid?: string;
  ttclid?: string;
  /** When the landing page was seen (ms). */
  at: number;
}

export interface Cookies {
  fbp?: string;
  fbc?: string;
  ttp?: string;
}

export interface Signal {
  v: 1;
  orderId: string;
  checkoutToken: string | null;
  marketing: boolean;
  fbp?: string;
  fbc?: string;
  ttclid?: string;
  ttp?: string;
  pageUrl?: string;
}

const CLICK_ID = /^[A-Za-z0-9._~-]{1,500}$/;

/** The click ids in a landing page's URL (?fbclid=…, ?ttclid=…), if any. */
export function clicksFromUrl(href: string, nowMs: number): StoredClicks | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  const fbclid = url.searchParams.get("fbclid") ?? undefined;
  const ttclid = url.searchParams.get("ttclid") ?? undefined;
  const clicks: StoredClicks = { at: nowMs };
  if (fbclid && CLICK_ID.test(fbclid)) clicks.fbclid = fbclid;
  if (ttclid && CLICK_ID.test(ttclid)) clicks.ttclid = ttclid;
  return clicks.fbclid || clicks.ttclid ? clicks : null;
}

/** Meta's fbc built from a click id, as its pixel writes the _fbc cookie: fb.1.<time ms>.<fbclid>. */
export const fbcOf = (fbclid: string, atMs: number): string => `fb.1.${Math.floor(atMs)}.${fbclid}`;

/** The stored clicks, or null when missing, unreadable or too old. */
export function readStoredClicks(text: string | null, nowMs: number): StoredClicks | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as StoredClicks;
    if (typeof value?.at !== "number" || nowMs - value.at > CLICK_LIFETIME_MS) return null;
    return value;
  } catch {
    return null;
  }
}

/** The signal for a completed checkout, or null when it names no order. */
export function signalFor(
  event: PixelEventsCheckoutCompleted,
  marketing: boolean,
  cookies: Cookies,
  stored: StoredClicks | null,
): Signal | null {
  const checkout = event.data.checkout;
  const orderId = checkout.order?.id;
  if (!orderId) return null;
  const signal: Signal = { v: 1, orderId, checkoutToken: checkout.token ?? null, marketing };
  // Without consent only the refusal travels: no click id, no page.
  if (!marketing) return signal;
  const fbc = cookies.fbc || (stored?.fbclid ? fbcOf(stored.fbclid, stored.at) : undefined);
  const ttclid = stored?.ttclid;
  if (cookies.fbp) signal.fbp = cookies.fbp;
  if (fbc) signal.fbc = fbc;
  if (ttclid) signal.ttclid = ttclid;
  if (cookies.ttp) signal.ttp = cookies.ttp;
  signal.pageUrl = event.context.document.location.href;
  return signal;
}
