import { defineConfig } from "vitest/config";

// Only the tests of app/seller-api/, for Stryker (stryker.seller-api.config.mjs): a small suite keeps
// its dry run and every mutant run fast. Not used by `npm test`.
export default defineConfig({
  test: {
    include: ["test/seller-api/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ["test/helpers/setup-env.ts"],
  },
});
