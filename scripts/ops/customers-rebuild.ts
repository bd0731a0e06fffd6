/**
 * `npm run customers:rebuild [-- --shop SHOP]`: recounts the customer delivery
 * records from the OrderLink rows, for one shop or every shop with orders. Run
 * it once after deploying the records (orders older than them are not counted
 * until then) or after changing order rows by hand; blocked and trusted phones
 * are kept. One transaction per shop; prints
 * counts only.
 */
// First: production defaults (app/env.server.ts: NODE_ENV, .env); the app's log lines are JSON, named for the
// command. What the command tells the operator (counts, usage) stays plain text on stdout and stderr.
import { setProcessRole } from "../../app/runtime/logger.server";
import { operatorArgs, shopArg, UsageError } from "./lib/usage";

setProcessRole("customers-rebuild");

async function main(): Promise<number> {
  let shop: string | undefined;
  try {
    shop = shopArg(operatorArgs(process.argv.slice(2), { shop: { type: "string" } }).shop);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(
        `customers:rebuild: ${error.message}\nusage: npm run customers:rebuild [-- --shop SHOP.myshopify.com]`,
      );
      return 2;
    }
    throw error;
  }
  const { default: prisma } = await import("../../app/db.server");
  const { rebuildCustomerRecords, shopsWithOrders } = await import("../../app/customers/records.server");
  try {
    const shops = shop ? [shop] : await shopsWithOrders(prisma);
    for (const domain of shops) {
      const report = await rebuildCustomerRecords(prisma, domain);
      console.info(
        `customers:rebuild: ${domain}: ${report.links} order(s), ${report.counted} counted, ${report.records} customer record(s) in ${report.ms} ms`,
      );
    }
    if (shops.length === 0) console.info("customers:rebuild: no orders");
    return 0;
  } finally {
    await prisma.$disconnect();
  }
}

process.exitCode = await main();
