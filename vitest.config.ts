import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { selectDatabaseTests } from "./test/helpers/database-tests";

// Tests run apart from the Remix Vite plugin (vite.config.ts), which is for builds.
//
// Every test on SQLite, and again on PostgreSQL those that reach a database
// (test/helpers/database-tests.ts decides from the imports), in one run.
// `npm run test:unit` / `test:postgres` run one database's projects.
//
// The chaos tests (test/chaos/) run for a minute and a half each while using a
// tenth of a core, mostly waiting on the processes they start and kill: they run
// in projects of their own, in worker threads, a pool apart from the other
// files' processes, all at once from the start. In the one pool they held
// workers the rest of the suite waited for.
const { database } = selectDatabaseTests();
const tests = ["test/**/*.test.ts", "test/**/*.test.tsx"];
const chaos = "test/chaos/**";
const notHere = ["test/e2e/**", "node_modules/**"];
const isChaos = (file: string) => file.startsWith("test/chaos/");

const sqlite = { env: { TEST_DATABASE: "sqlite" } };
const postgres = {
  env: { TEST_DATABASE: "postgres" },
  // Starts one embedded PostgreSQL for the project; each test file makes its own database on it.
  globalSetup: ["test/helpers/postgres-global-setup.ts"],
};

export default defineConfig({
  test: {
    environment: "node",
    pool: "forks",
    poolOptions: {
      // Many files wait on servers and child processes rather than compute: more
      // files than cores at once (vitest's default on 2 cores is one at a time).
      forks: { maxForks: Math.max(2, availableParallelism() + 1), minForks: 1 },
      // The chaos files: all of them at once (two on each database).
      threads: { maxThreads: 4, minThreads: 1 },
    },
    // A bound for a test that hangs, not the speed of a busy machine (two suites on 2 cores take
    // three times as long): a test that does a lot of work states a longer one.
    testTimeout: 120_000,
    // expect.poll waits on what a test awaits (a page, a job): its default second is a speed, not a bound.
    expect: { poll: { timeout: 30_000 } },
    // Hooks start servers, browsers and databases and import the app: a bound for one that never gets
    // there (5 minutes), not the speed of a busy machine (app servers alone get 3 to start).
    hookTimeout: 300_000,
    // The production build once, before the files that serve it start (test/helpers/build-global-setup.ts).
    globalSetup: ["test/helpers/build-global-setup.ts"],
    setupFiles: ["test/helpers/setup-env.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "sqlite",
          include: tests,
          // Checks that need the run's PostgreSQL server run only on PostgreSQL.
          exclude: [...notHere, chaos, "test/**/*.postgres.test.ts"],
          ...sqlite,
        },
      },
      { extends: true, test: { name: "sqlite-chaos", include: [chaos + "/*.test.ts"], pool: "threads", ...sqlite } },
      {
        extends: true,
        test: {
          name: "postgres",
          include: [...database.filter((f) => !isChaos(f)), "test/**/*.postgres.test.ts"],
          exclude: [...notHere, chaos],
          ...postgres,
        },
      },
      {
        extends: true,
        test: { name: "postgres-chaos", include: database.filter(isChaos), pool: "threads", ...postgres },
      },
    ],
  },
});
