/**
 * The steps both chaos tests share: a seeded generator, the worker process,
 * the 429 storm while leads flow, the wait until every link is settled, and the final check that
 * the platform holds exactly one lead per order, the one its link names.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { expect } from "vitest";
import type { PrismaClient } from "@prisma/client";
import type { sandboxControl } from "../../sandbox/index";
import { appWorkerArgs } from "../../scripts/dev/lib/app-build";
import { connectTestShop, SHOP } from "../helpers/pipeline";

type Control = ReturnType<typeof sandboxControl>;

/**
 * A worker process (build/worker.js of the build copy in `buildDir`) on `databaseUrl`, tuned for chaos: short
 * leases (a killed worker's jobs come back in 15 s), short platform timeouts, and
 * the key's limit read again every 5 s (the storm lowers it for seconds). Leases and
 * timeouts are bounds a starved machine meets: at 3 s and 1.5 s, on 2 cores shared with
 * a dozen busy processes, one order in 300 got three leads. Its
 * output goes to `onOutput`. With SHOPIFY_ADMIN_STAND_IN_URL in `env`, its Admin API
 * calls go to that stand-in (the preload every app process gets).
 */
export function spawnChaosWorker(
  buildDir: string,
  databaseUrl: string,
  onOutput: (text: string) => void,
  env: Record<string, string> = {},
): ChildProcess {
  const child = spawn(process.execPath, appWorkerArgs(buildDir), {
    cwd: buildDir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      // The sandbox is on loopback.
      SELLER_API_ALLOW_PRIVATE_HOSTS: "true",
      DATABASE_URL: databaseUrl,
      WORKER_LEASE_MS: "15000",
      SELLER_API_TIMEOUT_MS: "8000",
      SELLER_API_RATE_REFRESH_MS: "5000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => onOutput(String(d)));
  child.stderr!.on("data", (d) => onOutput(String(d)));
  return child;
}

/**
 * The chaos shop as an install leaves it: connected to the sandbox key of ACC-1001 with write-back and Flow off (the
 * tests count leads, not Admin calls), installed a minute ago, with its offline session.
 */
export async function installChaosShop(
  prisma: PrismaClient,
  sandbox: { url: string; keys: { account: string; key: string }[] },
) {
  const key = sandbox.keys.find((k) => k.account === "ACC-1001")!;
  await connectTestShop(prisma, {
    apiKey: key.key,
    baseUrl: sandbox.url,
    settings: {
      writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false },
      flowTriggers: { leadCreated: false, leadStatusChanged: false, orderNeedsAttention: false, orderStuck: false },
    },
  });
  await prisma.shop.update({ where: { domain: SHOP }, data: { installedAt: new Date(Date.now() - 60_000) } });
  await prisma.session.create({
    data: {
      id: `offline_${SHOP}`,
      shop: SHOP,
      state: "",
      isOnline: false,
      scope: process.env.SCOPES,
      accessToken: "shpat_chaos",
    },
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A seeded generator (CHAOS_SEED overrides): a failing run can be replayed. */
export function seededRandom(defaultSeed: number): () => number {
  let seed = Number(process.env.CHAOS_SEED ?? defaultSeed);
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

export function countBy(values: string[]): Record<string, number> {
  return values.reduce<Record<string, number>>((acc, v) => ((acc[v] = (acc[v] ?? 0) + 1), acc), {});
}

/**
 * The platform's limit during the storm: far below the hundred-odd calls a
 * third of the orders cost, so the minute under way is already spent; above the
 * calls the workers can have in flight (two workers, four jobs each), so the
 * refused calls, each charged to the next minute, do not fill it. The stated
 * wait then ends with the minute under way; at 1 a minute the first refused
 * call alone filled the next minute and every worker waited for the one after
 * (up to two minutes, the longest part of the test), for no more checking.
 */
const STORM_LIMIT_PER_MINUTE = 20;

/**
 * Once a third of the orders are posted (or 5 minutes after the start, on a
 * very slow machine), the platform's limit drops to STORM_LIMIT_PER_MINUTE until
 * a worker has been answered 429, then returns to `restoreTo`. The waits end on
 * those events; their bounds (minutes) only end a broken run.
 */
export async function stormWhileLeadsFlow(
  db: PrismaClient,
  control: Control,
  options: { orders: number; started: number; restoreTo: number },
) {
  while (
    (await db.apiCall.count({ where: { status: 201 } })) < options.orders / 3 &&
    Date.now() - options.started < 300_000
  )
    await sleep(50);
  await control.config({ rate_limit_per_minute: STORM_LIMIT_PER_MINUTE });
  const stormStart = Date.now();
  while (Date.now() - stormStart < 180_000 && (await db.apiCall.count({ where: { status: 429 } })) < 1) await sleep(50);
  await control.config({ rate_limit_per_minute: options.restoreTo });
  return { startedAfterMs: stormStart - options.started, lastedMs: Date.now() - stormStart };
}

/**
 * Waits (up to 5 minutes, a bound for a broken run) until every order has its link (those whose webhook was lost come
 * with the reconciliation), none is received, posting or retrying and no post job waits;
 * answers the orders still unsettled (missing links count).
 */
export async function waitUntilSettled(db: PrismaClient, orders: number): Promise<number> {
  const deadline = Date.now() + 300_000;
  let unsettled = orders;
  while (Date.now() < deadline) {
    const missing = orders - (await db.orderLink.count());
    unsettled = missing + (await db.orderLink.count({ where: { state: { in: ["received", "posting", "retrying"] } } }));
    const waiting = await db.job.count({
      where: { kind: "post-lead", state: { in: ["pending", "running", "failed"] } },
    });
    if (unsettled === 0 && waiting === 0) break;
    await sleep(500);
  }
  return unsettled;
}

/**
 * Every order has one link, settled as created or damaged, and the platform
 * holds exactly one lead per order, the one its link names; the app's own call
 * log shows the injected 500s and the storm's 429. Answers the calls by status.
 */
export async function expectExactlyOneLeadPerOrder(
  db: PrismaClient,
  control: Control,
  options: { orders: number; unsettled: number; diagnostics: Record<string, unknown> },
): Promise<{ calls: Record<string, number>; states: Record<string, number> }> {
  const links = await db.orderLink.findMany({ where: { shop: SHOP } });
  const leads = await control.leads("ACC-1001");
  const perRef = new Map<string, number>();
  for (const lead of leads) perRef.set(String(lead.external_ref), (perRef.get(String(lead.external_ref)) ?? 0) + 1);
  const states = countBy(links.map((l) => l.state));
  const diagnostics = JSON.stringify({ unsettled: options.unsettled, states, ...options.diagnostics });

  expect(links, diagnostics).toHaveLength(options.orders);
  expect(options.unsettled, diagnostics).toBe(0);
  for (const link of links) {
    expect(perRef.get(link.externalRef), `${link.orderName}: ${diagnostics}`).toBe(1);
    expect(["created", "damaged"]).toContain(link.state);
    expect(link.leadRef).toBe(leads.find((l) => l.external_ref === link.externalRef)!.ref);
  }
  expect(leads).toHaveLength(options.orders);
  const calls = countBy(
    (await db.apiCall.findMany({ where: { shop: SHOP }, select: { status: true } })).map((c) => String(c.status)),
  );
  expect(calls["500"] ?? 0, JSON.stringify(calls)).toBeGreaterThan(0);
  expect(calls["429"] ?? 0, JSON.stringify({ calls, ...options.diagnostics })).toBeGreaterThan(0);
  return { calls, states };
}
