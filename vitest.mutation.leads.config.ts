import { defineConfig } from "vitest/config";

// Only the tests of app/leads/, for Stryker (stryker.leads.config.mjs): a small suite keeps its dry run
// and every mutant run fast. Not used by `npm test`.
export default defineConfig({
  test: {
    include: ["test/leads/**/*.test.ts"],
    // The fast-check properties run hundreds of cases per mutant, most of the run time for no extra
    // kill: the example tests must pin the behaviour on their own (the score is the stricter for it).
    exclude: ["test/leads/properties.test.ts", "node_modules/**"],
    environment: "node",
    pool: "forks",
    // Isolated (vitest's default): the matchers memoise indexes per list at module level, and a
    // graph kept across mutant runs would serve an index built under an earlier mutant.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ["test/helpers/setup-env.ts"],
    // models.test.ts reads and writes a real database: one embedded PostgreSQL for the run.
    globalSetup: ["test/helpers/postgres-global-setup.ts"],
  },
});
