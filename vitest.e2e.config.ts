import { defineConfig } from "vitest/config";

// Browser tests against the production build (see test/helpers/preview-server.ts and
// test/helpers/browser.ts). Run with: npx vitest run -c vitest.e2e.config.ts
//
// Two files at a time: each drives one Chromium against one server, and both
// mostly wait on each other (a file uses about a third of a core). No file
// measures speed (the pages' Web Vitals are `npm run bench -- vitals`), so none
// needs the machine to itself.
//
// Each file's servers get a database of their own on the run's one embedded PostgreSQL server.
const postgres = ["test/helpers/postgres-global-setup.ts"];

export default defineConfig({
  test: {
    environment: "node",
    pool: "forks",
    maxWorkers: 2,
    minWorkers: 1,
    // A bound for a test that hangs, not the speed of a busy machine (two suites on 2 cores take
    // three times as long): a test that does a lot of work states a longer one.
    testTimeout: 120_000,
    // expect.poll waits on what a test awaits (a page, a job): its default second is a speed, not a bound.
    expect: { poll: { timeout: 30_000 } },
    // Hooks start servers, browsers and databases and import the app: a bound for one that never gets
    // there (5 minutes), not the speed of a busy machine (app servers alone get 3 to start).
    hookTimeout: 300_000,
    globalSetup: ["test/e2e/global-setup.ts", ...postgres],
    setupFiles: ["test/helpers/setup-env.ts"],
    name: "e2e",
    include: ["test/e2e/**/*.e2e.test.ts"],
  },
});
