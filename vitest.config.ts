import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
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

// Pure logic (no database, server or child process): one process runs these files in a row, sharing
// the imports of the packages they load (isolate: false), instead of a fresh process each importing
// them again: these 54 files took 38 CPU-seconds a process each, 11 in one. The project starts no
// PostgreSQL, so a file here that comes to need a database fails saying so (test/helpers/db.ts):
// name it in `apart`. One process, not several: in several non-isolated processes a file now and
// then never ran, its task ended by "Terminating worker thread".
const logicDirs = ["test/leads", "test/seller-api", "test/odds", "test/http"];
// These open a database or a server: they run in `tests`, a process each.
const apart = ["test/leads/models.test.ts", "test/odds/settings.test.ts", "test/seller-api/sandbox.test.ts"];
const logic = logicDirs
  .flatMap((dir) => readdirSync(join(import.meta.dirname, dir)).map((name) => `${dir}/${name}`))
  .filter((file) => file.endsWith(".test.ts") && !apart.includes(file));

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
          name: "tests",
          include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
          exclude: ["test/e2e/**", "node_modules/**", chaos, ...logic],
          globalSetup,
        },
      },
      {
        extends: true,
        test: {
          name: "logic",
          include: logic,
          isolate: false,
          poolOptions: { forks: { singleFork: true } },
        },
      },
      { extends: true, test: { name: "chaos", include: [chaos + "/*.test.ts"], pool: "threads", globalSetup } },
    ],
  },
});
