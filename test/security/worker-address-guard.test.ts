/**
 * The standalone worker (`npm run worker`: build/worker.js, the documented production
 * layout, which makes nearly every platform call) starts with production's defaults
 * when nothing is said: NODE_ENV unset is production, so the address guard refuses a
 * platform address that resolves to loopback (a name that passed the Settings check
 * and later resolves to 127.0.0.1: DNS rebinding) and the log is JSON. The platform
 * here is a loopback server that records every request: with the guard it sees none,
 * not even GET /v1/me with the shop's key; told that private hosts are allowed, the same
 * worker reaches it (the setup can fail).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectShop, SHOP } from "../../scripts/dev/lib/connected-shop";
import { appWorkerArgs } from "../../scripts/dev/lib/app-build";
import { intakeOrderCreated } from "../../app/sync/order-intake.server";
import { useBuiltApp } from "../helpers/built-app";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { startLoopbackServer, type LoopbackServer } from "../helpers/loopback-server";
import { webhookOrder } from "../helpers/orders";

const built = useBuiltApp();
const API_KEY = "cod_loopbackPlatformKey_0123456789abcdef";
let db: TestDatabase;
let platform: LoopbackServer;
let emptyDir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  // Answers like the platform would, so a call that got through would go on.
  platform = await startLoopbackServer((_req, _body, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ data: { account: "ACC-1001", rate_limit_per_minute: 60 } }));
  });
  // A host name that resolves to loopback, as a rebound name would.
  await connectShop(db.prisma, { apiKey: API_KEY, baseUrl: platform.url.replace("127.0.0.1", "localhost") });
  emptyDir = mkdtempSync(join(tmpdir(), "cod-worker-guard-"));
});
afterAll(async () => {
  await platform?.close();
  await db?.cleanup();
  if (emptyDir) rmSync(emptyDir, { recursive: true, force: true });
});

/** The built worker with only the given environment (no NODE_ENV unless given), until its first post attempt ended. */
async function runWorkerUntilAttempted(jobId: string, extra: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, appWorkerArgs(built()), {
    // An empty directory: no developer .env can say otherwise.
    cwd: emptyDir,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATABASE_URL: db.url,
      ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!,
      SHOPIFY_API_KEY: process.env.SHOPIFY_API_KEY!,
      SHOPIFY_API_SECRET: process.env.SHOPIFY_API_SECRET!,
      SHOPIFY_APP_URL: process.env.SHOPIFY_APP_URL!,
      SELLER_API_TIMEOUT_MS: "2000",
      ...extra,
    } as Record<string, string> as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const job = await db.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
      if (job.attempts >= 1 && job.state !== "running") break;
      if (child.exitCode !== null) throw new Error(`the worker exited:\n${output}`);
      if (Date.now() > deadline) throw new Error(`the worker never tried the post:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
  return output;
}

async function queuePost(id: number): Promise<string> {
  await db.prisma.$transaction((tx) => intakeOrderCreated(tx, SHOP, webhookOrder({ id, phone: "0612345678" })));
  const job = await db.prisma.job.findFirstOrThrow({ where: { kind: "post-lead", state: "pending" } });
  return job.id;
}

describe("npm run worker with nothing said", () => {
  it("GIVEN no NODE_ENV and a platform address resolving to loopback WHEN the worker posts THEN no call reaches it and the log is JSON", async () => {
    const jobId = await queuePost(7_470_000_000_001);

    const output = await runWorkerUntilAttempted(jobId, {});

    expect(platform.requests, output).toEqual([]);
    const lines = output.split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(lines.map((line) => JSON.parse(line) as { role?: string }).every((l) => l.role === "worker")).toBe(true);
    expect(output).not.toContain(API_KEY);
  }, 120_000);

  it("GIVEN the same worker told private hosts are allowed WHEN it posts THEN the loopback platform is reached (the setup can fail)", async () => {
    await db.prisma.job.deleteMany();
    const jobId = await queuePost(7_470_000_000_002);

    await runWorkerUntilAttempted(jobId, { SELLER_API_ALLOW_PRIVATE_HOSTS: "true" });

    expect(platform.requests.length).toBeGreaterThan(0);
  }, 120_000);
});
