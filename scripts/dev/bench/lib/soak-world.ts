/**
 * The soak's world, each part its own process on loopback so the load
 * generator never shares an event loop with what it measures: the sandbox
 * (autopilot on, rate limit raised), the Shopify Admin stand-in with every
 * order of the run already created (on the shop's plan), the app's production
 * build (`server.ts`) pointed at it, and in "separate" mode a worker process
 * (`npm run worker`). The database given, migrated here, the demo shop connected and installed by the app
 * itself (token exchange), with the app's defaults: write-back on, Flow
 * triggers on, and (unless told otherwise) workflows on them in Flow, said
 * through the lifecycle callback. Without Shopify (`shopify: false`, the
 * earlier soak): write-back and Flow off.
 * The app and the worker serve their metrics on a loopback port each: the soak
 * reads their figures there, as an operator's scraper would.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../../../app/db/client";
import { appWorkerArgs, prepareBuild, privateBuildDir, standInPreloadArgs } from "../../lib/app-build";
import { applyMigrations } from "../../../../app/db/migrations.server";
import { freePort } from "../../../lib/ports";
import { startServerProcess, type ServerProcess } from "../../lib/app-process";
import {
  connectDemoShop,
  DEMO_ACCOUNT,
  DEMO_API_KEY,
  DEMO_SCOPES,
  DEMO_SHOP,
  fetchSellerAccount,
  registerDemoShop,
} from "../../demo/demo-shop";
import { embeddedAppUrl, installThroughTokenExchange } from "../../demo/install-shop";
import { shopifyAdminControl, type ShopifyPlan } from "../../../../shopify-admin/index";
import { FLOW_TRIGGER } from "../../../../app/flow/triggers";
import { figuresOf, scrape, type ProcessFigures, type Scrape } from "./process-metrics";
import { prepareEngine, workerEntry, type QueueEngine } from "./queue-engines";

export const ROOT = join(import.meta.dirname, "..", "..", "..", "..");

export type WorkerMode = "embedded" | "separate";

export interface SoakWorldOptions {
  dataDir: string;
  mode: WorkerMode;
  /** The sandbox's limit, calls a minute: raised so the platform is not the bound. */
  rateLimitPerMinute: number;
  /** The database (migrated here). */
  databaseUrl: string;
  /**
   * The Shopify Admin stand-in with the run's orders (write-back and Flow on, the
   * app's defaults); false: no Shopify, write-back and Flow off.
   */
  shopify?: { runTag: number; orders: number; holdEvery: number; flowWorkflows: boolean; plan: ShopifyPlan } | false;
  /** The worker process's queue engine (mode separate): ours, the built worker, by default. */
  engine?: QueueEngine;
  log(line: string): void;
}

export interface Proc {
  name: string;
  pid: number;
  logFile: string;
  /** Its /metrics (the app and the worker; the sandbox has none). */
  metricsUrl?: string;
}

export interface SoakWorld {
  db: PrismaClient;
  databaseUrl: string;
  appUrl: string;
  apiSecret: string;
  sandboxUrl: string;
  shop: string;
  processes: Proc[];
  /** Lines the app and worker logged so far. */
  readLogs(): string;
  /** A scrape of each process that has metrics, by name (a process that does not answer is left out). */
  scrapeAll(): Promise<Map<string, Scrape>>;
  /** Each process's figures from its metrics (RSS, heap, loop delay, sync cycles), by name. */
  readFigures(): Promise<Map<string, ProcessFigures>>;
  close(): Promise<void>;
}

const tsxImport = () => pathToFileURL(createRequire(join(ROOT, "package.json")).resolve("tsx")).href;

export function spawnLogged(name: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const log = createWriteStream(logFile, { flags: "w" });
  const child = spawn(process.execPath, ["--import", tsxImport(), ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  child.once("exit", () => log.end());
  child.on("error", (error) => console.error(`${name}: ${error.message}`));
  return child;
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(killer);
}

/** The stand-in in its own process (shopify-admin-process.ts); resolves with its URL. */
async function startShopifyAdminProcess(dataDir: string, args: string[]) {
  const logFile = join(dataDir, "shopify-admin.log");
  const child = spawnLogged(
    "shopify-admin",
    [join(import.meta.dirname, "shopify-admin-process.ts"), ...args],
    { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production" },
    logFile,
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the Shopify Admin stand-in did not start:\n${out}`)), 120_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const found = /listening on (\S+)/.exec(out)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once("exit", (code) => reject(new Error(`the Shopify Admin stand-in exited with code ${code}:\n${out}`)));
  });
  return { child, logFile, url };
}

/** The sandbox CLI in its own process; resolves with its URL and the demo shop's key. */
export async function startSandboxProcess(
  dataDir: string,
  rateLimitPerMinute: number,
  options: { autopilot?: boolean } = {},
) {
  const logFile = join(dataDir, "sandbox.log");
  const child = spawnLogged(
    "sandbox",
    [
      join(ROOT, "sandbox", "cli.ts"),
      "--port",
      "0",
      ...(options.autopilot === false ? [] : ["--autopilot"]),
      "--rate-limit",
      String(rateLimitPerMinute),
    ],
    { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production" },
    logFile,
  );
  const ready = await new Promise<{ url: string; key: string }>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start:\n${out}`)), 30_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const url = /listening on (\S+)/.exec(out)?.[1];
      const key = new RegExp(`^key ${DEMO_ACCOUNT} ${DEMO_SHOP.replace(/\./g, "\\.")} (\\S+)$`, "m").exec(out)?.[1];
      if (url && key) {
        clearTimeout(timer);
        resolve({ url, key });
      }
    });
    child.once("exit", (code) => reject(new Error(`the sandbox exited with code ${code}:\n${out}`)));
  });
  return { child, logFile, ...ready };
}

export async function startSoakWorld(options: SoakWorldOptions): Promise<SoakWorld> {
  const { dataDir, log } = options;
  mkdirSync(dataDir, { recursive: true });
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((e) => console.error(e));
  };
  try {
    const { databaseUrl } = options;
    await applyMigrations(databaseUrl, join(ROOT, "prisma", "migrations"));
    const engine = options.engine ?? { kind: "ours" };
    if (engine.kind !== "ours" && options.mode !== "separate")
      throw new Error("another queue engine runs as the worker process: mode separate");
    await prepareEngine(engine, databaseUrl);

    const buildDir = privateBuildDir(ROOT, dataDir);
    const build = await prepareBuild(ROOT, buildDir, () => log("building the app (sources changed)…"));

    const sandbox = await startSandboxProcess(dataDir, options.rateLimitPerMinute);
    cleanups.push(() => stopChild(sandbox.child));
    log(`sandbox ${sandbox.url} (pid ${sandbox.child.pid}, autopilot, ${options.rateLimitPerMinute} calls/min)`);

    const db = createPrismaClient(databaseUrl);
    cleanups.push(() => db.$disconnect());
    const encryptionKey = randomBytes(32).toString("base64");
    const apiSecret = randomBytes(24).toString("hex");
    const account = await fetchSellerAccount(sandbox.url, sandbox.key);
    const shopify = options.shopify;
    let shopifyAdmin: Awaited<ReturnType<typeof startShopifyAdminProcess>> | undefined;
    if (shopify) {
      shopifyAdmin = await startShopifyAdminProcess(dataDir, [
        "--shop",
        DEMO_SHOP,
        "--api-key",
        DEMO_API_KEY,
        "--api-secret",
        apiSecret,
        "--scopes",
        DEMO_SCOPES,
        "--plan",
        shopify.plan,
        "--run-tag",
        String(shopify.runTag),
        "--orders",
        String(shopify.orders),
        "--hold-every",
        String(shopify.holdEvery),
      ]);
      const { child } = shopifyAdmin;
      cleanups.push(() => stopChild(child));
      log(
        `Shopify Admin stand-in ${shopifyAdmin.url} (pid ${child.pid}, ${shopify.plan} plan, ${shopify.orders} orders created)`,
      );
      // The app's defaults (write-back and Flow triggers on, customer hold off); statuses every minute.
      await connectDemoShop(db, { encryptionKey, apiKey: sandbox.key, sellerApiBaseUrl: sandbox.url, account });
      await db.shop.update({
        where: { domain: DEMO_SHOP },
        data: { settings: JSON.stringify({ statusSyncMinutes: 1 }) },
      });
    } else {
      await registerDemoShop(db, { encryptionKey, apiKey: sandbox.key, sellerApiBaseUrl: sandbox.url, account });
      // No Shopify runs beside the soak: like write-back, Flow triggers (Admin API calls) are off.
      const registered = await db.shop.findUniqueOrThrow({ where: { domain: DEMO_SHOP }, select: { settings: true } });
      const flowOff = { leadCreated: false, leadStatusChanged: false, orderNeedsAttention: false };
      await db.shop.update({
        where: { domain: DEMO_SHOP },
        data: { settings: JSON.stringify({ ...JSON.parse(registered.settings ?? "{}"), flowTriggers: flowOff }) },
      });
    }

    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    const env = {
      SHOPIFY_API_KEY: DEMO_API_KEY,
      SHOPIFY_API_SECRET: apiSecret,
      SHOPIFY_APP_URL: appUrl,
      SCOPES: DEMO_SCOPES,
      ENCRYPTION_KEY: encryptionKey,
      DATABASE_URL: databaseUrl,
      SELLER_API_BASE_URL: sandbox.url,
      // The sandbox listens on loopback, which production refuses by default.
      SELLER_API_ALLOW_PRIVATE_HOSTS: "true",
      LOG_LEVEL: "info",
      WORKER_IN_PROCESS: options.mode === "embedded" ? "true" : "false",
      // The stand-in's preload (shopify-admin/register.ts) sends the app's Admin API calls there.
      ...(shopifyAdmin ? { SHOPIFY_ADMIN_STAND_IN_URL: shopifyAdmin.url } : {}),
      // HEAP_GROWTH_PERCENT=0 compares with V8's own heap growing factor.
      ...(process.env.HEAP_GROWTH_PERCENT ? { HEAP_GROWTH_PERCENT: process.env.HEAP_GROWTH_PERCENT } : {}),
      // e.g. SOAK_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the app and worker.
      ...(process.env.SOAK_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SOAK_NODE_OPTIONS } : {}),
    };
    const appLog = join(dataDir, "app.log");
    const appMetricsPort = await freePort();
    const app: ServerProcess = await startServerProcess({
      root: ROOT,
      cwd: build.dir,
      port,
      logFile: appLog,
      env: { ...env, METRICS_PORT: String(appMetricsPort) },
    });
    cleanups.push(() => app.stop());
    const processes: Proc[] = [
      { name: "app", pid: app.pid!, logFile: appLog, metricsUrl: `http://127.0.0.1:${appMetricsPort}/metrics` },
    ];

    if (shopify && shopifyAdmin) {
      // The merchant opens the app from the Shopify admin: the app installs the shop (token exchange).
      await installThroughTokenExchange(
        db,
        DEMO_SHOP,
        await embeddedAppUrl(appUrl, DEMO_SHOP, { apiKey: DEMO_API_KEY, apiSecret }),
      );
      if (shopify.flowWorkflows) {
        // Workflows on the app's triggers: Flow says so through the lifecycle callback (nothing is sent before).
        const control = shopifyAdminControl(shopifyAdmin.url);
        for (const handle of Object.values(FLOW_TRIGGER))
          await control.flowLifecycle({
            url: `${appUrl}/flow/lifecycle`,
            shop: DEMO_SHOP,
            handle,
            has_enabled_flow: true,
          });
      }
      log(
        `shop ${DEMO_SHOP} installed through the token exchange; write-back on, Flow triggers on, ${shopify.flowWorkflows ? "workflows on them in Flow" : "no workflow on them in Flow"}`,
      );
    }

    if (options.mode === "separate") {
      const workerLog = join(dataDir, "worker.log");
      const workerMetricsPort = await freePort();
      const worker = spawnLogged(
        "worker",
        // The built worker (or the candidate's, from source), with the stand-in's preload: the worker makes the Admin API calls.
        engine.kind === "ours"
          ? appWorkerArgs(build.dir)
          : [...standInPreloadArgs(build.dir), workerEntry(engine, ROOT, ROOT)],
        {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? "",
          NODE_ENV: "production",
          ...env,
          METRICS_PORT: String(workerMetricsPort),
        },
        workerLog,
      );
      cleanups.push(() => stopChild(worker));
      processes.push({
        name: "worker",
        pid: worker.pid!,
        logFile: workerLog,
        metricsUrl: `http://127.0.0.1:${workerMetricsPort}/metrics`,
      });
    }
    processes.push({ name: "sandbox", pid: sandbox.child.pid!, logFile: sandbox.logFile });
    if (shopifyAdmin) processes.push({ name: "shopify", pid: shopifyAdmin.child.pid!, logFile: shopifyAdmin.logFile });
    log(
      `app ${appUrl} (production build, ${options.mode === "embedded" ? "worker in process" : "worker in its own process"})`,
    );

    const readLogs = () =>
      processes
        .filter((p) => p.name === "app" || p.name === "worker")
        .map((p) => {
          try {
            return readFileSync(p.logFile, "utf8");
          } catch {
            return "";
          }
        })
        .join("\n");
    const scrapeAll = async () => {
      const scraped = await Promise.all(
        processes
          .filter((p) => p.metricsUrl)
          .map(
            async (p) => [p.name, await scrape(p.metricsUrl!, { timeoutMs: 60_000 }).catch(() => undefined)] as const,
          ),
      );
      return new Map(scraped.filter((e): e is readonly [string, Scrape] => e[1] !== undefined));
    };
    const readFigures = async () => new Map([...(await scrapeAll())].map(([name, s]) => [name, figuresOf(s)]));
    return {
      db,
      databaseUrl,
      appUrl,
      apiSecret,
      sandboxUrl: sandbox.url,
      shop: DEMO_SHOP,
      processes,
      readLogs,
      scrapeAll,
      readFigures,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
