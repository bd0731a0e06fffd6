/**
 * `npm run odds:simulate -- --out DIR [--confirmation good|weak] [--seed N] [--days N] [--orders-per-day N]`:
 * writes the simulated shop (scripts/dev/odds/world.ts) as the evaluation's files,
 * DIR/orders.jsonl, DIR/outcomes.jsonl and DIR/cities.json, so that
 * `npm run odds:evaluate -- --orders DIR/orders.jsonl --outcomes DIR/outcomes.jsonl`
 * reproduces the figures the README quotes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs, positiveArg, UsageError } from "./lib/args";
import { simulateWorld } from "./odds/world";
import { toEvaluationFiles } from "../ops/odds/files";

function main(): number {
  try {
    const args = parseArgs(process.argv.slice(2), ["out", "confirmation", "seed", "days", "orders-per-day"], []);
    const out = args.values.out;
    if (!out) throw new UsageError("--out DIR is required");
    const confirmation = args.values.confirmation ?? "good";
    if (confirmation !== "good" && confirmation !== "weak")
      throw new UsageError(`--confirmation must be good or weak, not "${confirmation}"`);
    const world = simulateWorld({
      confirmation,
      seed: positiveArg(args.values, "seed", 2026),
      days: positiveArg(args.values, "days", 365),
      ordersPerDay: positiveArg(args.values, "orders-per-day", 80),
    });
    const files = toEvaluationFiles(world.orders);
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, "orders.jsonl"), files.orders);
    writeFileSync(join(out, "outcomes.jsonl"), files.outcomes);
    writeFileSync(
      join(out, "cities.json"),
      JSON.stringify(
        world.cities.map((c) => ({ id: c.id, name: c.name, delivery_fee: (c.feeCents / 100).toFixed(2) })),
      ) + "\n",
    );
    console.info(
      `odds:simulate: ${world.orders.length} orders (${confirmation} confirmation) in ${out}/orders.jsonl, outcomes.jsonl, cities.json`,
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(
        `odds:simulate: ${error.message}\nusage: npm run odds:simulate -- --out DIR [--confirmation good|weak] [--seed N] [--days N] [--orders-per-day N]`,
      );
      return 2;
    }
    throw error;
  }
}

process.exitCode = main();
