/**
 * Mutation testing of the pure core (app/leads/, app/seller-api/) with Stryker, one area after the other.
 *
 *   tsx scripts/dev/mutation.ts [--area leads|seller-api] [--changed] [any Stryker option…]
 *
 * Without --changed every mutant is run (--force) and the committed incremental file is rewritten;
 * with --changed Stryker re-tests only mutants whose code or covering tests changed since that file.
 * Other options go to Stryker as they are (e.g. --concurrency 1, --mutate app/leads/money.ts).
 * Ends with each area's score, a per-file table and the path of its HTML report; exits non-zero if
 * Stryker failed (an area under its break threshold, 90 %) or any file scored under 80 %.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { AREA_BREAK, FILE_BREAK, filesUnder, mutationScore, scoreTable, type JsonReport } from "./mutation-score";

const AREAS = ["leads", "seller-api"] as const;
type Area = (typeof AREAS)[number];

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
    const report = existsSync(json) ? (JSON.parse(readFileSync(json, "utf8")) as JsonReport) : undefined;
    const score = report ? mutationScore(report) : undefined;
    const weak = report ? filesUnder(report) : [];
    if (weak.length > 0) failed = true;
    summary.push(
      `${area}: ${run.status !== 0 ? `FAILED (exit ${run.status ?? run.signal})` : weak.length > 0 ? "FAILED (a file under the bar)" : "passed"}` +
        (score ? `, ${score.score.toFixed(2)} % (${score.detected}/${score.valid} mutants detected)` : "") +
        (report ? `\n${scoreTable(report).replace(/^/gm, "  ")}` : "") +
        weak.map((f) => `\n  FAILED: ${f.file} at ${f.score.toFixed(2)} %, under ${FILE_BREAK} %`).join("") +
        `\n  HTML report: ${existsSync(html) ? html : "(not written)"}`,
    );
  }
  console.log(
    `\nMutation testing (break thresholds: ${AREA_BREAK} % per area, ${FILE_BREAK} % per file):\n${summary.join("\n")}`,
  );
  return failed ? 1 : 0;
}

process.exitCode = main();
