/**
 * Preload for the app's processes (built to <build copy>/stand-in/register.js and passed with
 * --import, see scripts/dev/lib/app-build.ts appServerArgs): with SHOPIFY_ADMIN_STAND_IN_URL set, the app's
 * @shopify/shopify-api calls to https://<shop>.myshopify.com go to that stand-in; unset, it
 * does nothing. A preload keeps the switch out of the app's code. It works because the server
 * build keeps @shopify/shopify-api external: this module and the build share one instance
 * of its runtime, whose fetch the rewrite replaces.
 */
import { installFetchRewrite } from "./fetch-rewrite";

const standIn = process.env.SHOPIFY_ADMIN_STAND_IN_URL;
if (standIn) {
  const url = new URL(standIn);
  // The stand-in is a loopback server: anything else is a misconfiguration, not a target.
  if (url.hostname !== "127.0.0.1" && url.hostname !== "localhost") {
    throw new Error(`SHOPIFY_ADMIN_STAND_IN_URL must be a loopback address, got ${url.host}`);
  }
  await installFetchRewrite(url.origin);
}
