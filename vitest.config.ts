import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Tests run apart from the Remix Vite plugin (vite.config.ts), which is for builds.
//
// One embedded PostgreSQL server per project (test/helpers/postgres-global-setup.ts);
// each test file that opens a database makes its own on it (test/helpers/db.ts).
//
// The chaos tests (test/chaos/) run for a minute and a half each while using a
// tenth of a core, mostly waiting on the processes they start and kill: they run
// in a project of their own, in worker threads, a pool apart from the other
// files' processes, all at once from the start. In the one pool they held
// workers the rest of the suite waited for.
const chaos = "test/chaos/**";
const globalSetup = ["test/helpers/postgres-global-setup.ts"];

export default defineConfig({
  test: {
    environment: "node",
    pool: "forks",
    poolOptions: {
      // Many files wait on servers and child processes rather than compute: more
      // files than cores at once (vitest's default on 2 cores is one at a time).
      forks: { maxForks: Math.max(2, availableParallelism() + 1), minForks: 1 },
      // The chaos files: all of them at once.
      threads: { maxThreads: 4, minThreads: 1 },
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ["test/helpers/setup-env.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "tests",
          include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
          exclude: ["test/e2e/**", "node_modules/**", chaos],
          globalSetup,
        },
      },
      { extends: true, test: { name: "chaos", include: [chaos + "/*.test.ts"], pool: "threads", globalSetup } },
    ],
  },
});
