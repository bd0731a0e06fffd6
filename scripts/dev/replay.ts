/**
 * `npm run replay -- --url URL --secret SECRET --shop SHOP [--times N] [--topic orders/create] DIR`
 *
 * Signs each Shopify order payload found in DIR (*.json: a payload, an array of
 * payloads, or a demo case file) with the app's client secret and POSTs it to
 * URL/webhooks/<topic>, as Shopify would, its bytes as written in the file (ids
 * beyond 2^53 exact): against the demo, a local server, or
 * an app run by Shopify CLI. One line per delivery; exits 1 if any was not 2xx.
 * --times N sends each payload N times, each under a new webhook id (Shopify's
 * redeliveries and duplicates), to watch the app take each order once.
 */
import { resolve } from "node:path";
import { parseArgs, positiveArg, UsageError } from "./lib/args";
import { OrderFileError, orderNameOf, readOrderFiles } from "./lib/order-files";
import { DeliveryError, deliverWebhook } from "./lib/webhook-signing";

const USAGE = `usage: npm run replay -- --url URL --secret SECRET --shop SHOP [--times N] [--topic orders/create] DIR

  --url URL        the app's base URL (e.g. http://127.0.0.1:8080 or your Shopify CLI tunnel)
  --secret SECRET  the app's client secret (SHOPIFY_API_SECRET): signs each body (HMAC-SHA256)
  --shop SHOP      the shop domain sent in X-Shopify-Shop-Domain (e.g. atlas-beauty.myshopify.com)
  --times N        deliver each payload N times, each with a new webhook id (default 1)
  --topic TOPIC    the topic of plain payload files (default orders/create; case files name their own)`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs(argv, ["url", "secret", "shop", "times", "topic"], []);
  for (const name of ["url", "secret", "shop"]) if (!values[name]) throw new UsageError(`--${name} is required`);
  if (positionals.length !== 1) throw new UsageError("give one directory of payloads");
  try {
    new URL(values.url);
  } catch {
    throw new UsageError(`--url is not a URL: ${values.url}`);
  }
  const times = Math.floor(positiveArg(values, "times", 1));
  const deliveries = readOrderFiles(
    resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]),
    values.topic ?? "orders/create",
  );

  let failed = 0;
  for (const delivery of deliveries) {
    for (let i = 1; i <= times; i++) {
      const label = `${delivery.topic} ${orderNameOf(delivery.payload)} (${delivery.source}${times > 1 ? `, ${i}/${times}` : ""})`;
      try {
        const answer = await deliverWebhook(values.url, {
          topic: delivery.topic,
          shop: values.shop,
          secret: values.secret,
          // As written in the file: a parse and stringify would round ids beyond 2^53.
          body: delivery.body,
        });
        const ok = answer.status >= 200 && answer.status <= 299;
        if (!ok) failed++;
        console.log(`${answer.status} ${label}${ok ? "" : `: ${answer.detail ?? ""}`}`);
      } catch (error) {
        if (!(error instanceof DeliveryError)) throw error;
        failed++;
        console.log(`--- ${label}: ${error.message}`);
      }
    }
  }
  const total = deliveries.length * times;
  console.log(failed === 0 ? `${total} deliveries, all accepted` : `${total} deliveries, ${failed} not accepted`);
  return failed === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
    else console.error(error instanceof OrderFileError ? error.message : error);
    process.exit(2);
  },
);
