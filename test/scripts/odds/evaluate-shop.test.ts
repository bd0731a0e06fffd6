/**
 * `npm run odds:evaluate -- --shop SHOP` on a shop's own history in a database: the
 * demo's (the embedded PostgreSQL a demo run leaves in its data folder, read with no
 * DATABASE_URL) and the app's (DATABASE_URL). The command runs as the operator runs it,
 * in a process of its own, on a shop seeded with the demo's sixty days of settled orders.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../../app/db/client";
import { openDemoDatabase } from "../../../scripts/dev/demo/database";
import { createShutdown } from "../../../scripts/dev/demo/shutdown";
import { seedDemoHistory } from "../../../scripts/dev/demo/history";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";

const root = join(import.meta.dirname, "..", "..", "..");
const SHOP = "atlas-beauty.myshopify.com";
const dataDir = mkdtempSync(join(tmpdir(), "cod-odds-shop-"));
const seed = (file: string) => readFileSync(join(root, "sandbox", "seed", file), "utf8");
let appDb: TestDatabase;
/** Orders the seeded history sent to the platform: those the evaluation reads. */
let sent = 0;

/** The shop with its cached catalogue and cities, and the demo's sixty days of history. */
async function seedShop(url: string): Promise<number> {
  const db = createPrismaClient(url, 2);
  try {
    await db.shop.create({
      data: { domain: SHOP, catalogueJson: seed("products.json"), citiesJson: seed("cities.json") },
    });
    await seedDemoHistory(db, SHOP, { now: new Date("2026-11-20T12:00:00Z") });
    return await db.orderLink.count({ where: { shop: SHOP, leadRef: { not: null } } });
  } finally {
    await db.$disconnect();
  }
}

/** The command in a process of its own, as `npm run odds:evaluate` runs it (tsx instead of the build). */
function oddsEvaluate(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(root, "scripts", "ops", "odds-evaluate.ts"), ...args],
      {
        cwd: root,
        env,
      },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("error", fail);
    child.on("close", (code) => done({ code: code ?? 1, out, err }));
  });
}

/** The environment without the test's database: the command must find the demo's by itself. */
function withoutDatabaseUrl(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _unset, ...env } = process.env;
  return { ...env, NODE_ENV: "production" };
}

beforeAll(async () => {
  // A demo run's database, left in its data folder once the run stopped.
  const shutdown = createShutdown((name, error) => {
    throw new Error(`${name}: ${String(error)}`);
  });
  try {
    const database = await openDemoDatabase(
      { database: { kind: "embedded" }, fresh: true },
      dataDir,
      join(root, "prisma", "migrations"),
      shutdown,
    );
    sent = await seedShop(database.url);
  } finally {
    await shutdown.run();
  }
  appDb = await createTestDatabase();
  await seedShop(appDb.url);
}, 240_000);

afterAll(async () => {
  await appDb?.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("odds:evaluate --shop", () => {
  it("GIVEN no DATABASE_URL and the demo's data folder WHEN the shop is evaluated THEN its history is read from the demo's database and the table printed", async () => {
    expect(sent).toBeGreaterThan(300);
    const { code, out, err } = await oddsEvaluate(["--shop", SHOP, "--data-dir", dataDir], withoutDatabaseUrl());
    expect(err).toContain(`odds:evaluate: ${sent} sent orders of ${SHOP}, read from the demo's database in`);
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`^${sent} orders; fitted on the \\d+ placed before`));
    expect(out).toContain("| method | Brier | AUC | policy | held | profit per 1,000 orders |");
    for (const method of ["none", "binary rule", "heuristic 0-100", "model, fitted"])
      expect(out).toContain(`| ${method}`);
    // Each figure a number: the demo's cities and products have prices and fees.
    const model = out.split("\n").find((line) => line.startsWith("| model, fitted"))!;
    expect(model).toMatch(/^\| model, fitted \| 0\.\d{4} \| 0\.\d{3} \|/);
    expect(out).toContain("Reliability of the fitted model on the held-out orders");
  }, 120_000);

  it("GIVEN DATABASE_URL WHEN the shop is evaluated THEN that database is read, and --json gives the same orders", async () => {
    const { code, out, err } = await oddsEvaluate(["--shop", SHOP, "--json"], {
      ...withoutDatabaseUrl(),
      DATABASE_URL: appDb.url,
    });
    expect(err).toContain(`odds:evaluate: ${sent} sent orders of ${SHOP}, read from DATABASE_URL`);
    expect(code).toBe(0);
    const report = JSON.parse(out) as {
      orders: number;
      heldOut: { orders: number; withMoney: number };
      results: { profitPer1000Cents: number }[];
    };
    expect(report.orders).toBe(sent);
    expect(report.heldOut.orders).toBeGreaterThan(0);
    // The demo's past leads carry their items: each held-out order is priced, so the profits mean something.
    expect(report.heldOut.withMoney).toBe(report.heldOut.orders);
    expect(report.results[0].profitPer1000Cents).toBeGreaterThan(0);
    expect(report.results.length).toBeGreaterThanOrEqual(5);
  }, 120_000);

  it("GIVEN no DATABASE_URL and no demo run in the folder WHEN the shop is evaluated THEN it says what to do, and makes no database", async () => {
    const empty = mkdtempSync(join(tmpdir(), "cod-odds-none-"));
    try {
      const { code, err } = await oddsEvaluate(["--shop", SHOP, "--data-dir", empty], withoutDatabaseUrl());
      expect(code).toBe(1);
      expect(err).toContain("no DATABASE_URL, and no demo database in");
      expect(err).toContain("run `npm run demo` first");
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, 60_000);

  it("GIVEN a shop the database does not have THEN it says so", async () => {
    const { code, err } = await oddsEvaluate(["--shop", "nobody.myshopify.com"], {
      ...withoutDatabaseUrl(),
      DATABASE_URL: appDb.url,
    });
    expect(code).toBe(1);
    expect(err).toContain("no shop nobody.myshopify.com in this database");
  }, 60_000);
});
