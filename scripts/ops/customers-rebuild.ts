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
import { parseArgs, UsageError } from "../dev/lib/args";

setProcessRole("customers-rebuild");

async function main(): Promise<number> {
  let shop: string | undefined;
  try {
    const args = parseArgs(process.argv.slice(2), ["shop"], []);
    if (args.positionals.length) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
    shop = args.values.shop;
    if (shop !== undefined && !/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(shop))
      throw new UsageError(`--shop must be a *.myshopify.com domain, not "${shop}"`);
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
