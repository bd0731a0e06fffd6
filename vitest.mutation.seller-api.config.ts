import { defineConfig } from "vitest/config";

// Only the tests of app/seller-api/, for Stryker (stryker.seller-api.config.mjs): a small suite keeps
// its dry run and every mutant run fast. Not used by `npm test`.
export default defineConfig({
  test: {
    include: ["test/seller-api/**/*.test.ts"],
    // The fast-check properties run hundreds of cases per mutant, most of the run time for no extra
    // kill: the example tests must pin the behaviour on their own (the score is the stricter for it).
    exclude: ["test/seller-api/**/*.property.test.ts", "node_modules/**"],
    environment: "node",
    pool: "forks",
    // Isolated (vitest's default): the matchers memoise indexes per list at module level, and a
    // graph kept across mutant runs would serve an index built under an earlier mutant.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ["test/helpers/setup-env.ts"],
  },
});
