/**
 * The conversion feed's pixel: on a landing page it keeps the ad's click id
 * (fbclid, ttclid); when the checkout completes it sends the order's click ids
 * and the buyer's marketing choice to the app (the `collectUrl` setting), once.
 * Shopify runs it only with marketing consent; a consent withdrawn during the
 * visit is followed (the app then never tells the ads about the order).
 */
import { register } from "@shopify/web-pixels-extension";
import { clicksFromUrl, readStoredClicks, signalFor, STORED_CLICKS_KEY } from "./signal";

register(({ analytics, browser, init, settings, customerPrivacy }) => {
  let marketing = init.customerPrivacy.marketingAllowed;
  customerPrivacy.subscribe("visitorConsentCollected", (event) => {
    marketing = event.customerPrivacy.marketingAllowed;
  });

  analytics.subscribe("page_viewed", async (event) => {
    const clicks = clicksFromUrl(event.context.document.location.href, Date.now());
    if (clicks && marketing) await browser.localStorage.setItem(STORED_CLICKS_KEY, JSON.stringify(clicks));
  });

  analytics.subscribe("checkout_completed", async (event) => {
    const [fbp, fbc, ttp, stored] = await Promise.all([
      browser.cookie.get("_fbp"),
      browser.cookie.get("_fbc"),
      browser.cookie.get("_ttp"),
      browser.localStorage.getItem(STORED_CLICKS_KEY),
    ]);
    const signal = signalFor(event, marketing, { fbp, fbc, ttp }, readStoredClicks(stored, Date.now()));
    if (!signal || typeof settings.collectUrl !== "string") return;
    // text/plain keeps it a simple request (no CORS preflight); keepalive lets it finish as the page changes.
    await fetch(settings.collectUrl, {
      method: "POST",
      body: JSON.stringify(signal),
      headers: { "content-type": "text/plain" },
      keepalive: true,
    });
  });
});
