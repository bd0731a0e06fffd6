import { defineConfig } from "vitest/config";

// Tests run apart from the Remix Vite plugin (vite.config.ts), which is for builds.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    // Checks that need the run's PostgreSQL server join only `npm run test:postgres`.
    exclude: ["test/e2e/**", "node_modules/**", ...(process.env.TEST_DATABASE === "postgres" ? [] : ["test/**/*.postgres.test.ts"])],
    environment: "node",
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Starts an embedded PostgreSQL when TEST_DATABASE=postgres (npm run test:postgres).
    globalSetup: ["test/helpers/postgres-global-setup.ts"],
    setupFiles: ["test/helpers/setup-env.ts"],
  },
});
