/**
 * The soak's Shopify, in a process of its own so its work (write-back reads and
 * mutations, Flow triggers) never shares the load generator's event loop: the
 * Admin API stand-in (shopify-admin/) with the app's credentials (token
 * exchange), its Flow triggers as deployed (the extension TOML files), the
 * demo world for the shop, and every order the run will send already created,
 * as they are on Shopify before their webhook. Prints `listening on URL` when ready.
 *
 *   node --import tsx shopify-admin-process.ts --shop S --api-key K --api-secret X --scopes a,b
 *        --plan standard|advanced|plus --run-tag N --orders N --hold-every N
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  applyWebhookOrder,
  demoWorld,
  flowDefinitionsFrom,
  startShopifyAdmin,
  type ShopifyPlan,
  type WebhookOrderPayload,
} from "../../../../shopify-admin/index";
import { createOrderFactory, isHeldOrder } from "./soak-orders";

const { values } = parseArgs({
  options: {
    shop: { type: "string" },
    "api-key": { type: "string" },
    "api-secret": { type: "string" },
    scopes: { type: "string", default: "" },
    "run-tag": { type: "string", default: "0" },
    orders: { type: "string", default: "0" },
    "hold-every": { type: "string", default: "20" },
    plan: { type: "string", default: "standard" },
  },
});
const shop = values.shop!;
const admin = await startShopifyAdmin({
  port: 0,
  quiet: true,
  plan: values.plan as ShopifyPlan,
  app: {
    apiKey: values["api-key"]!,
    apiSecret: values["api-secret"]!,
    scopes: values.scopes!.split(",").filter(Boolean),
  },
  flow: flowDefinitionsFrom(join(import.meta.dirname, "..", "..", "..", "..", "extensions")),
});
const state = admin.shop(shop, demoWorld({ nowMs: Date.now() }));
const makeOrder = createOrderFactory(Number(values["run-tag"]));
const holdEvery = Number(values["hold-every"]);
for (let i = 0; i < Number(values.orders); i++) {
  applyWebhookOrder(
    state,
    "orders/create",
    JSON.parse(makeOrder(i, isHeldOrder(i, holdEvery)).body) as WebhookOrderPayload,
  );
}
// The stand-in keeps every call for its tests; a long run keeps only the last minute's.
setInterval(() => void admin.requests.splice(0, Math.max(0, admin.requests.length - 20_000)), 60_000).unref();
console.log(`listening on ${admin.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void admin.close().then(() => process.exit(0)));
