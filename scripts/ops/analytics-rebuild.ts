/**
 * `npm run analytics:rebuild [-- --shop SHOP] [--reset]`: recounts the Analytics
 * rollups and the cash ledger from the OrderLink rows, for one shop or every shop with orders. Run it
 * once after deploying the rollups (orders older than them are not counted until
 * then) or after changing order rows by hand. A page of orders per short
 * transaction, so the app keeps working; --reset deletes and recounts a shop in
 * one transaction (holds the write lock throughout). Prints counts only.
 */
// First: production defaults (app/env.server.ts: NODE_ENV, .env); the app's log lines are JSON, named for the
// command. What the command tells the operator (counts, usage) stays plain text on stdout and stderr.
import { setProcessRole } from "../../app/runtime/logger.server";
import { operatorArgs, shopArg, UsageError } from "./lib/usage";

setProcessRole("analytics-rebuild");

async function main(): Promise<number> {
  let shop: string | undefined;
  let reset = false;
  try {
    const args = operatorArgs(process.argv.slice(2), { shop: { type: "string" }, reset: { type: "boolean" } });
    shop = shopArg(args.shop);
    reset = args.reset ?? false;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(
        `analytics:rebuild: ${error.message}\nusage: npm run analytics:rebuild [-- --shop SHOP.myshopify.com] [--reset]`,
      );
      return 2;
    }
    throw error;
  }
  const { default: prisma } = await import("../../app/db.server");
  const { rebuildRollups, shopsWithLinks } = await import("../../app/analytics/rollups.server");
  const { rebuildCashLedger } = await import("../../app/analytics/cash-rebuild.server");
  try {
    const shops = shop ? [shop] : await shopsWithLinks(prisma);
    for (const domain of shops) {
      const report = await rebuildRollups(prisma, domain, { reset });
      console.info(
        `analytics:rebuild: ${domain}: ${report.links} order(s), ${report.counted} counted, ${report.rows} rollup row(s) ${reset ? "written" : "changed"} in ${report.ms} ms`,
      );
      const cash = await rebuildCashLedger(prisma, domain, { reset });
      console.info(
        `analytics:rebuild: ${domain}: cash ledger: ${cash.parcels} parcel(s), ${cash.rows} row(s) ${reset ? "written" : "changed"} in ${cash.ms} ms`,
      );
    }
    if (shops.length === 0) console.info("analytics:rebuild: no orders");
    return 0;
  } finally {
    await prisma.$disconnect();
  }
}

process.exitCode = await main();
