// Mutation testing of app/leads/ against test/leads/ only (npm run test:mutation:leads; the whole of both
// areas: npm run test:mutation). A score under 90 % fails the run (thresholds.break): kill the
// survivor with a test, or, for a mutant that cannot change behaviour, add
// "// Stryker disable next-line <mutator>: <why>" above it — never lower the threshold.
// Concurrency is Stryker's default (cores - 1) unless STRYKER_CONCURRENCY or --concurrency is given.
const concurrency = Number(process.env.STRYKER_CONCURRENCY) || undefined;

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  mutate: ["app/leads/**/*.ts"],
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.leads.config.ts" },
  coverageAnalysis: "perTest",
  // Static mutants (module-level tables and constants, e.g. the ~1,000 spellings in city-aliases.ts)
  // each need the whole suite reloaded: 40 % of the mutants but over 70 % of the run time. Skipped;
  // the code that reads those tables is mutated and tested.
  ignoreStatic: true,
  ...(concurrency ? { concurrency } : {}),
  thresholds: { high: 90, low: 85, break: 90 },
  // Kept between runs so "npm run test:mutation:changed" re-tests only the mutants whose code or
  // covering tests changed; "npm run test:mutation" (--force) rewrites it. Not committed (gitignored):
  // it is megabytes, holds copies of the sources and tests and an absolute path, and is rewritten
  // whole by every run, so two branches would always conflict on it; CI caches it instead.
  incremental: true,
  incrementalFile: "reports/mutation/leads.incremental.json",
  reporters: ["clear-text", "progress", "html", "json"],
  clearTextReporter: { reportTests: false, logTests: false, reportMutants: true, reportScoreTable: true },
  htmlReporter: { fileName: "reports/mutation/leads.html" },
  jsonReporter: { fileName: "reports/mutation/leads.json" },
  tempDirName: ".stryker-tmp",
  // Not needed in the sandbox copy; keeps Stryker's start-up short.
  ignorePatterns: ["build", ".exp", ".demo", "docs", "extensions", "test-results", "reports", "test/e2e"],
  timeoutMS: 10_000,
};
