/**
 * Mutation testing of the pure core (app/leads/, app/seller-api/) with Stryker, one area after the other.
 *
 *   tsx scripts/mutation.ts [--area leads|seller-api] [--changed] [any Stryker option…]
 *
 * Without --changed every mutant is run (--force) and the committed incremental file is rewritten;
 * with --changed Stryker re-tests only mutants whose code or covering tests changed since that file.
 * Other options go to Stryker as they are (e.g. --concurrency 1, --mutate app/leads/money.ts).
 * Ends with each area's score and the path of its HTML report; exits non-zero if any area fell under
 * its break threshold (90 %) or Stryker failed.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const AREAS = ["leads", "seller-api"] as const;
type Area = (typeof AREAS)[number];

interface MutantResult {
  status: string;
}
interface JsonReport {
  files: Record<string, { mutants: MutantResult[] }>;
}

function parse(argv: string[]): { areas: Area[]; changed: boolean; passThrough: string[] } {
  const areas: Area[] = [];
  let changed = false;
  const passThrough: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--changed") changed = true;
    else if (arg === "--area" || arg.startsWith("--area=")) {
      const value = arg === "--area" ? argv[++i] : arg.slice("--area=".length);
      if (!AREAS.includes(value as Area)) throw new Error(`--area must be one of ${AREAS.join(", ")}`);
      areas.push(value as Area);
    } else passThrough.push(arg);
  }
  return { areas: areas.length > 0 ? areas : [...AREAS], changed, passThrough };
}

/** Score as Stryker computes it: killed + timeout over all valid mutants that tests cover or not. */
export function mutationScore(report: JsonReport): { detected: number; valid: number; score: number } {
  let detected = 0;
  let valid = 0;
  for (const file of Object.values(report.files)) {
    for (const { status } of file.mutants) {
      if (status === "Killed" || status === "Timeout") detected++;
      if (status !== "CompileError" && status !== "RuntimeError" && status !== "Ignored") valid++;
    }
  }
  return { detected, valid, score: valid === 0 ? 100 : (100 * detected) / valid };
}

function main(): number {
  const { areas, changed, passThrough } = parse(process.argv.slice(2));
  const stryker = path.resolve("node_modules/.bin/stryker");
  const summary: string[] = [];
  let failed = false;
  for (const area of areas) {
    const args = ["run", `stryker.${area}.config.mjs`, ...(changed ? [] : ["--force"]), ...passThrough];
    const json = `reports/mutation/${area}.json`;
    rmSync(json, { force: true }); // so a run that fails early does not report the previous score
    console.log(`\n▶ stryker ${args.join(" ")}`);
    const run = spawnSync(stryker, args, { stdio: "inherit" });
    if (run.status !== 0) failed = true;
    const html = path.resolve(`reports/mutation/${area}.html`);
    const score = existsSync(json) ? mutationScore(JSON.parse(readFileSync(json, "utf8")) as JsonReport) : undefined;
    summary.push(
      `${area}: ${run.status === 0 ? "passed" : `FAILED (exit ${run.status ?? run.signal})`}` +
        (score ? `, ${score.score.toFixed(2)} % (${score.detected}/${score.valid} mutants detected)` : "") +
        `\n  HTML report: ${existsSync(html) ? html : "(not written)"}`,
    );
  }
  console.log(`\nMutation testing (break threshold 90 %):\n${summary.join("\n")}`);
  return failed ? 1 : 0;
}

process.exitCode = main();
