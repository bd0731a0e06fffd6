/**
 * A phone's browser or webview (the Shopify mobile app, POS): pages render their
 * narrow layout from the first paint instead of switching after hydration.
 */
export function isPhoneUserAgent(userAgent: string | null | undefined): boolean {
  return Boolean(userAgent && /\b(iPhone|iPod|Android.+Mobile|Mobile Safari|Windows Phone)\b/i.test(userAgent));
}
