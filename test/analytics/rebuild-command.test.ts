/**
 * `npm run analytics:rebuild` (build/ops/analytics-rebuild.js): recounts a shop's rollups from its order rows
 * (page by page, or with --reset in one go), prints counts only, and refuses a
 * bad --shop with a usage line (exit 2).
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { opsScript, useBuiltApp } from "../helpers/built-app";

const root = join(import.meta.dirname, "..", "..");
const SHOP = "atlas-beauty.myshopify.com";
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  const link = (n: number, state: string, shippingStatus: string | null) => ({
    shop: SHOP,
    orderId: String(n),
    orderName: `#${n}`,
    payload: "{}",
    externalRef: `shopify:${n}`,
    state,
    confirmationStatus: shippingStatus ? "confirmed" : null,
    shippingStatus,
    cityId: 101,
    totalClient: "100.00",
  });
  await database.prisma.orderLink.createMany({
    data: [link(1, "created", "delivered"), link(2, "created", "returned"), link(3, "held", null)],
  });
});
afterAll(() => database?.cleanup());

const built = useBuiltApp();

function rebuild(args: string[]) {
  return promisify(execFile)(process.execPath, [opsScript(built(), "analytics-rebuild"), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: database.url },
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

describe("npm run analytics:rebuild", () => {
  it("recounts the shop's rollups and prints counts", async () => {
    const run = await rebuild(["--shop", SHOP]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /analytics:rebuild: atlas-beauty\.myshopify\.com: 3 order\(s\), 3 counted, \d+ rollup row\(s\) changed in \d+ ms/,
    );
    const shopRows = await database.prisma.analyticsDaily.findMany({
      where: { shop: SHOP, grain: "shop" },
      orderBy: { statusGroup: "asc" },
    });
    expect(shopRows.map((r) => [r.statusGroup, r.orders, Number(r.totalCents)])).toEqual([
      ["delivered", 1, 10000],
      ["held", 1, 10000],
      ["returned", 1, 10000],
    ]);
    // The cash ledger is recounted with them: the delivered parcel owed, the returned one back.
    expect(run.stdout).toMatch(
      /analytics:rebuild: atlas-beauty\.myshopify\.com: cash ledger: 2 parcel\(s\), \d+ row\(s\) changed in \d+ ms/,
    );
    const cash = await database.prisma.cashDaily.findMany({ where: { shop: SHOP }, orderBy: { state: "asc" } });
    expect(cash.map((r) => [r.state, r.parcels, Number(r.totalCents)])).toEqual([
      ["owed", 1, 10000],
      ["returned", 1, 10000],
    ]);
  });

  it("recounts from scratch with --reset, to the same rows", async () => {
    const before = await database.prisma.analyticsDaily.findMany({
      where: { shop: SHOP },
      orderBy: [{ grain: "asc" }, { statusGroup: "asc" }],
    });
    const run = await rebuild(["--shop", SHOP, "--reset"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/3 order\(s\), 3 counted, \d+ rollup row\(s\) written in \d+ ms/);
    expect(
      await database.prisma.analyticsDaily.findMany({
        where: { shop: SHOP },
        orderBy: [{ grain: "asc" }, { statusGroup: "asc" }],
      }),
    ).toEqual(before);
  });

  it("refuses a shop that is not a myshopify domain", async () => {
    const run = await rebuild(["--shop", "https://evil.example"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--shop must be a *.myshopify.com domain");
    expect(run.stderr).toContain("usage: npm run analytics:rebuild");
  });

  it("refuses an unknown option, a missing value and a stray argument with the usage line", async () => {
    for (const args of [["--shops", SHOP], ["--shop"], ["now"]]) {
      const run = await rebuild(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toMatch(/^analytics:rebuild: .+\nusage: npm run analytics:rebuild/);
    }
  });
});
