import { defineConfig } from "vitest/config";

// Browser tests against the production build (see test/helpers/preview-server.ts and
// test/helpers/browser.ts). Run with: npx vitest run -c vitest.e2e.config.ts
//
// Two files at a time: each drives one Chromium against one server, and both
// mostly wait on each other (a file uses about a third of a core). The file
// that holds pages to Web Vitals in the lab runs last, alone, so that another
// file's pages never share the cores with its measurements.
const ALONE = ["test/e2e/next-action.e2e.test.ts"];
// Each project's one embedded PostgreSQL server: each server under test gets a database of its own on it.
const postgres = ["test/helpers/postgres-global-setup.ts"];

export default defineConfig({
  test: {
    environment: "node",
    pool: "forks",
    maxWorkers: 2,
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ["test/e2e/global-setup.ts"],
    setupFiles: ["test/helpers/setup-env.ts"],
    projects: [
      {
        extends: true,
        test: { name: "e2e", include: ["test/e2e/**/*.e2e.test.ts"], exclude: ALONE, globalSetup: postgres },
      },
      {
        extends: true,
        test: { name: "e2e-alone", include: ALONE, sequence: { groupOrder: 1 }, globalSetup: postgres },
      },
    ],
  },
});
