/**
 * English messages of the Shopify failure banner (every page that calls the Admin API)
 * and of the error page the route boundaries show, spread into en.ts.
 * shopify-errors.fr.ts has the same keys (typed against this object).
 */
export const shopifyErrorsEn = {
  // {what} completes "... while {what}".
  "shopifyError.what.products": "loading your products",
  "shopifyError.what.backfillOrders": "reading your orders for the import",
  "shopifyError.what.order": "loading this order from Shopify",
  "shopifyError.title.timeout": "Shopify did not answer in time while {what}",
  "shopifyError.title.network": "Shopify could not be reached while {what}",
  "shopifyError.title.unavailable": "Shopify had a server error while {what}",
  "shopifyError.title.throttled": "Shopify is busy (too many requests) while {what}",
  "shopifyError.title.unauthorized": "Shopify refused the app's access while {what}",
  "shopifyError.title.too_large": "Shopify's answer was too large while {what}",
  "shopifyError.title.refused": "Shopify refused the request while {what}",
  "shopifyError.title.error": "Shopify answered with an error while {what}",
  "shopifyError.body.timeout": "Nothing was lost. Shopify may be slow right now: try again in a moment.",
  "shopifyError.body.network": "Nothing was lost. Try again in a moment.",
  "shopifyError.body.unavailable": "Nothing was lost. This is on Shopify's side: try again in a moment.",
  "shopifyError.body.throttled": "Nothing was lost. Shopify asks to wait about {seconds} s before trying again.",
  "shopifyError.body.unauthorized":
    "The app's authorization must be renewed. Try again; if this keeps happening, reopen the app from your Shopify admin.",
  "shopifyError.body.too_large":
    "Nothing was lost. Try again with a narrower search; if it keeps happening, contact support.",
  "shopifyError.body.refused": "Nothing was lost. Try again; if it keeps happening, contact support.",
  "shopifyError.body.error": "Nothing was lost. Try again; if it keeps happening, contact support.",
  "shopifyError.tryAgain": "Try again",
  "errorPage.reference": "If it keeps happening, give support this reference: {reference}",
  "errorPage.load.title": "This page could not be shown",
  "errorPage.load.body": "Something failed while loading {page}. Nothing was changed: try again in a moment.",
  "errorPage.save.title": "Your change could not be saved",
  "errorPage.save.body":
    "Something failed on our side while saving it on {page}. Reload the page to see what is saved now, then make the change again.",
  "errorPage.save.reload": "Reload the page",
  "errorPage.tryAgain": "Try again",
  "errorPage.home": "Back to the home page",
  "errorPage.notFound.title": "Page not found",
  "errorPage.notFound.body": "This address does not exist in the app.",
} as const;
