/**
 * `npm run odds:evaluate -- --orders FILE --outcomes FILE [--cities FILE] [--train 0.7]
 * [--refusal-cost 5] [--min-probability 0.5] [--json]`: scores a shop's past orders
 * against what became of them (scripts/ops/odds/evaluate.ts; file formats in
 * scripts/ops/odds/files.ts and the README, "Delivery odds"). Prints the table
 * (Brier, AUC, profit per 1,000 orders of each policy) and the reliability by
 * decile, or the report as JSON. Reads only the files named: nothing is sent anywhere.
 *
 * `--shop SHOP` instead reads that shop's sent orders from the app's database
 * (DATABASE_URL), or, without it, from the demo's (the embedded PostgreSQL `npm run demo`
 * keeps in its data folder: `--data-dir DIR`, default .demo); `--export DIR` also writes
 * them as the two files.
 */
// First: production defaults (app/env.server.ts: NODE_ENV, .env); what the command prints stays plain text.
import { setProcessRole } from "../../app/runtime/logger.server";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { operatorArgs, shopArg, UsageError } from "./lib/usage";
import { DEFAULT_EVALUATION, evaluate, formatReport } from "./odds/evaluate";
import { FileFormatError, parseCities, parseEvaluationFiles, toEvaluationFiles } from "./odds/files";
import type { EvalOrder } from "./odds/evaluate";
import { DEFAULT_DEMO_DATA_DIR, NoShopDatabaseError, withShopDatabase } from "./odds/shop-database";

const USAGE =
  "usage: npm run odds:evaluate -- (--orders FILE --outcomes FILE [--cities FILE] | --shop SHOP [--data-dir DIR] [--export DIR]) [--train 0.7] [--refusal-cost MAD] [--min-probability 0.5] [--json]";

setProcessRole("odds-evaluate");

/** The shop's sent orders from the app's database (DATABASE_URL, else the demo's), written as files when asked. */
async function fromDatabase(shop: string, dataDir: string, exportDir: string | undefined): Promise<EvalOrder[]> {
  const { ordersFromDatabase } = await import("./odds/from-database");
  return withShopDatabase(dataDir, async (db, where) => {
    const orders = await ordersFromDatabase(db, shop);
    console.error(`odds:evaluate: ${orders.length} sent orders of ${shop}, read from ${where}`);
    if (exportDir) {
      const files = toEvaluationFiles(orders);
      mkdirSync(exportDir, { recursive: true });
      writeFileSync(join(exportDir, "orders.jsonl"), files.orders);
      writeFileSync(join(exportDir, "outcomes.jsonl"), files.outcomes);
      console.error(
        `odds:evaluate: ${orders.length} orders of ${shop} written to ${exportDir}/orders.jsonl and outcomes.jsonl`,
      );
    }
    return orders;
  });
}

function share(values: Record<string, string | boolean | undefined>, name: string, fallback: number): number {
  const raw = values[name];
  if (typeof raw !== "string") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n >= 1)
    throw new UsageError(`--${name} must be a number between 0 and 1, not "${raw}"`);
  return n;
}

function read(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
}

async function main(): Promise<number> {
  try {
    const text = { type: "string" } as const;
    const args = operatorArgs(process.argv.slice(2), {
      orders: text,
      outcomes: text,
      cities: text,
      train: text,
      "refusal-cost": text,
      "min-probability": text,
      shop: text,
      "data-dir": text,
      export: text,
      json: { type: "boolean" },
    });
    const { orders, outcomes, cities } = args;
    const shop = shopArg(args.shop);
    if (shop && (orders || outcomes))
      throw new UsageError("--shop reads the database: no --orders or --outcomes with it");
    if (!shop && (args.export || args["data-dir"])) throw new UsageError("--export and --data-dir go with --shop");
    if (!shop && (!orders || !outcomes)) throw new UsageError("--orders and --outcomes are required (or --shop)");
    const refusalCost = args["refusal-cost"] ?? String(DEFAULT_EVALUATION.refusalCostCents / 100);
    if (!/^\d{1,6}(\.\d{1,2})?$/.test(refusalCost))
      throw new UsageError(`--refusal-cost must be an amount in MAD, not "${refusalCost}"`);
    const parsed = shop
      ? await fromDatabase(shop, args["data-dir"] ?? DEFAULT_DEMO_DATA_DIR, args.export)
      : parseEvaluationFiles({
          orders: { name: orders!, text: read(orders!) },
          outcomes: { name: outcomes!, text: read(outcomes!) },
          cities: cities ? parseCities(read(cities), cities) : undefined,
        });
    const report = evaluate(parsed, {
      ...DEFAULT_EVALUATION,
      trainShare: share(args, "train", DEFAULT_EVALUATION.trainShare),
      minProbability: share(args, "min-probability", DEFAULT_EVALUATION.minProbability),
      refusalCostCents: Math.round(Number(refusalCost) * 100),
    });
    console.info(args.json ? JSON.stringify(report, null, 2) : formatReport(report));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`odds:evaluate: ${error.message}\n${USAGE}`);
      return 2;
    }
    if (error instanceof FileFormatError || error instanceof RangeError || error instanceof NoShopDatabaseError) {
      console.error(`odds:evaluate: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main();
