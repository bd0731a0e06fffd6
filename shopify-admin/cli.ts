/**
 * `npm run shopify-admin -- [--port 4020] [--host 127.0.0.1] [--demo-shop SHOP]...
 *                           [--api-key KEY --api-secret SECRET] [--scopes a,b]`
 * The app's credentials default to SHOPIFY_API_KEY, SHOPIFY_API_SECRET and SCOPES from
 * the environment (the token exchange needs them). Prints the listening address.
 */
import { parseArgs } from "node:util";
import { demoWorld } from "./demo-world";
import { startShopifyAdmin } from "./index";
import { isLoopback } from "./server";

const USAGE =
  "usage: npm run shopify-admin -- [--port 4020] [--host 127.0.0.1] [--demo-shop SHOP.myshopify.com]... [--api-key KEY] [--api-secret SECRET] [--scopes a,b]";

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "demo-shop": { type: "string", multiple: true },
      "api-key": { type: "string" },
      "api-secret": { type: "string" },
      scopes: { type: "string" },
      help: { type: "boolean" },
    },
  }));
} catch (err) {
  console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const port = values.port === undefined ? 4020 : /^\d+$/.test(values.port) ? Number(values.port) : NaN;
if (!Number.isInteger(port) || port > 65535) {
  console.error(`--port must be an integer from 0 to 65535\n${USAGE}`);
  process.exit(2);
}
const host = values.host ?? "127.0.0.1";
if (host !== "localhost" && !isLoopback(host)) {
  console.error(
    `warning: listening on non-loopback host ${host}; the control API still answers loopback callers only.`,
  );
}
const apiKey = values["api-key"] ?? process.env.SHOPIFY_API_KEY;
const apiSecret = values["api-secret"] ?? process.env.SHOPIFY_API_SECRET;
const scopes = (values.scopes ?? process.env.SCOPES ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const demoShops = values["demo-shop"] ?? [];
const badShop = demoShops.find((s) => !/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(s));
if (badShop) {
  console.error(`--demo-shop ${badShop} is not a *.myshopify.com domain\n${USAGE}`);
  process.exit(2);
}

const admin = await startShopifyAdmin({
  port,
  host,
  app: apiKey && apiSecret ? { apiKey, apiSecret, scopes } : undefined,
}).catch((err: unknown) => {
  console.error(`cannot listen on ${host}:${port}: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
for (const shop of demoShops) {
  const state = admin.shop(shop, demoWorld({ nowMs: admin.clock.now() }));
  console.log(
    `shop ${shop} demo world: ${state.products.length} products, ${state.productVariants.length} variants, ${Object.keys(state.orders).length} orders`,
  );
}
console.log(`Shopify Admin stand-in listening on ${admin.url}`);
if (!apiKey || !apiSecret)
  console.log(
    "no app credentials (--api-key/--api-secret or SHOPIFY_API_KEY/SHOPIFY_API_SECRET): token exchange is off",
  );

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void admin.close().then(() => process.exit(0));
  });
}
