/**
 * `npm run odds:evaluate -- --orders FILE --outcomes FILE [--cities FILE] [--train 0.7]
 * [--refusal-cost 5] [--min-probability 0.5] [--json]`: scores a shop's past orders
 * against what became of them (scripts/ops/odds/evaluate.ts; file formats in
 * scripts/ops/odds/files.ts and the README, "Delivery odds"). Prints the table
 * (Brier, AUC, profit per 1,000 orders of each policy) and the reliability by
 * decile, or the report as JSON. Reads only the files named: nothing is sent anywhere.
 */
import { readFileSync } from "node:fs";
import { parseArgs, UsageError } from "../dev/lib/args";
import { DEFAULT_EVALUATION, evaluate, formatReport } from "./odds/evaluate";
import { FileFormatError, parseCities, parseEvaluationFiles } from "./odds/files";

const USAGE =
  "usage: npm run odds:evaluate -- --orders FILE --outcomes FILE [--cities FILE] [--train 0.7] [--refusal-cost MAD] [--min-probability 0.5] [--json]";

function share(values: Record<string, string>, name: string, fallback: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
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

function main(): number {
  try {
    const args = parseArgs(
      process.argv.slice(2),
      ["orders", "outcomes", "cities", "train", "refusal-cost", "min-probability"],
      ["json"],
    );
    if (args.positionals.length) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
    const { orders, outcomes } = args.values;
    if (!orders || !outcomes) throw new UsageError("--orders and --outcomes are required");
    const refusalCost = args.values["refusal-cost"] ?? String(DEFAULT_EVALUATION.refusalCostCents / 100);
    if (!/^\d{1,6}(\.\d{1,2})?$/.test(refusalCost))
      throw new UsageError(`--refusal-cost must be an amount in MAD, not "${refusalCost}"`);
    const parsed = parseEvaluationFiles({
      orders: { name: orders, text: read(orders) },
      outcomes: { name: outcomes, text: read(outcomes) },
      cities: args.values.cities ? parseCities(read(args.values.cities), args.values.cities) : undefined,
    });
    const report = evaluate(parsed, {
      ...DEFAULT_EVALUATION,
      trainShare: share(args.values, "train", DEFAULT_EVALUATION.trainShare),
      minProbability: share(args.values, "min-probability", DEFAULT_EVALUATION.minProbability),
      refusalCostCents: Math.round(Number(refusalCost) * 100),
    });
    console.info(args.flags.has("json") ? JSON.stringify(report, null, 2) : formatReport(report));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`odds:evaluate: ${error.message}\n${USAGE}`);
      return 2;
    }
    if (error instanceof FileFormatError || error instanceof RangeError) {
      console.error(`odds:evaluate: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = main();
