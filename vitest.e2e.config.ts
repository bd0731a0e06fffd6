import { defineConfig } from "vitest/config";

// Browser tests against the production build (see test/helpers/preview-server.ts and
// test/helpers/browser.ts). Run with: npx vitest run -c vitest.e2e.config.ts
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.e2e.test.ts"],
    environment: "node",
    pool: "forks",
    // Two cores: one Chromium and one server at a time.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ["test/e2e/global-setup.ts"],
    setupFiles: ["test/helpers/setup-env.ts"],
  },
});
