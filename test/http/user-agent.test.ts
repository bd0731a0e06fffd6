/** A phone's browser gets the narrow layout from the first paint (no shift after hydration). */
import { expect, it } from "vitest";
import { isPhoneUserAgent } from "../../app/http/user-agent";

it("tells a phone's browser or webview from a desktop's", () => {
  for (const ua of [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Mobile Safari/537.36 Shopify Mobile/Android",
  ]) {
    expect(isPhoneUserAgent(ua), ua).toBe(true);
  }
  for (const ua of [
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
    // A tablet has room for the table.
    "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36",
    "",
  ]) {
    expect(isPhoneUserAgent(ua), ua).toBe(false);
  }
  expect(isPhoneUserAgent(null)).toBe(false);
});
