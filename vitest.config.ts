import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { selectDatabaseTests } from "./test/helpers/database-tests";
import { ChaosFirstSequencer } from "./test/helpers/sequencer";

// Tests run apart from the Remix Vite plugin (vite.config.ts), which is for builds.
//
// Two projects in one run, sharing one pool of workers: every test on SQLite, and
// again on PostgreSQL those that reach a database (test/helpers/database-tests.ts
// decides from the imports). `npm run test:unit` / `test:postgres` run one project.
const { database } = selectDatabaseTests();
const tests = ["test/**/*.test.ts", "test/**/*.test.tsx"];

export default defineConfig({
  test: {
    environment: "node",
    pool: "forks",
    // Many files wait on servers and child processes rather than compute: more
    // files than cores at once (vitest's default on 2 cores is one at a time).
    maxWorkers: Math.max(2, availableParallelism() + 1),
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ["test/helpers/setup-env.ts"],
    sequence: { sequencer: ChaosFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: "sqlite",
          include: tests,
          env: { TEST_DATABASE: "sqlite" },
          // Checks that need the run's PostgreSQL server run only on PostgreSQL.
          exclude: ["test/e2e/**", "node_modules/**", "test/**/*.postgres.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          include: [...database, "test/**/*.postgres.test.ts"],
          exclude: ["test/e2e/**", "node_modules/**"],
          env: { TEST_DATABASE: "postgres" },
          // Starts one embedded PostgreSQL for the project; each test file makes its own database on it.
          globalSetup: ["test/helpers/postgres-global-setup.ts"],
        },
      },
    ],
  },
});
