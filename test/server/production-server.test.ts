/**
 * The production build, started the way `npm start` starts it (`node build/server.js`
 * in the app's directory: built JavaScript, no loader): it serves /healthz with a valid
 * environment and refuses to start without one; without DATABASE_URL it runs on an
 * embedded PostgreSQL of its own, kept between runs. package.json runs every production
 * process that way, and production's dependencies hold no sandbox, stand-in or CLI.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, createEmptyDatabase } from "../helpers/db";
import { ensurePreviewBuild, freePort, removePreviewBuild } from "../helpers/preview-server";
import { createPrismaClient } from "../../app/db/client";
import { webhookOrder } from "../helpers/orders";
import { signedWebhookHeaders } from "../helpers/webhooks";

/** `npm start` in a build copy, or in `cwd` (a folder of its own, empty) with the copy's files by absolute path. */
function serve(env: Record<string, string>, cwd?: string) {
  // The build copy holds build/ and nothing else, and cwd is empty: no developer .env can leak in.
  const args = cwd
    ? [join(buildDir, "build", "server.js"), join(buildDir, "build", "server", "index.js")]
    : [join("build", "server.js")];
  const child = spawn(process.execPath, args, {
    cwd: cwd ?? buildDir,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, NODE_ENV: "production", ...env },
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

let buildDir: string;

beforeAll(async () => {
  // `npm run build`'s output, rebuilt when older than the sources (under the shared build lock).
  buildDir = await ensurePreviewBuild();
});
afterAll(() => {
  removePreviewBuild(buildDir);
});

describe("production server", () => {
  it("starts with a valid environment and answers /healthz", async () => {
    const database = await createEmptyDatabase();
    const url = database.url;
    await applyMigrations(url);
    const port = await freePort();
    const server = serve({
      PORT: String(port),
      DATABASE_URL: url,
      SHOPIFY_API_KEY: "key",
      SHOPIFY_API_SECRET: "secret",
      SHOPIFY_APP_URL: "https://app.example.com",
      ENCRYPTION_KEY: "VqJ5qmHHV7mH/M7LjXtoTq4HkC1VSWXSG4UO71uTeDk=",
    });
    try {
      let response: Response | undefined;
      // Started when it answers (a bound of 3 minutes for a server that never does).
      const deadline = Date.now() + 180_000;
      while (!response && Date.now() < deadline) {
        response = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
        if (!response) await new Promise((r) => setTimeout(r, 100));
      }
      expect(response?.status).toBe(200);
      // No TypeScript loader, no preload: the built file alone.
      expect(readFileSync(`/proc/${server.child.pid}/cmdline`, "utf8").split("\0").filter(Boolean).slice(1)).toEqual([
        join("build", "server.js"),
      ]);
      expect(await response!.json()).toMatchObject({
        status: "ok",
        database: { kind: "postgres", reachable: true },
        eventLoop: { current: expect.objectContaining({ maxMs: expect.any(Number) }) },
      });
    } finally {
      server.child.kill();
      await server.exited;
      await database.drop();
    }
  }, 240_000);

  it("answers Shopify's webhook topics directly, with the routes' own checks, and the rest through Remix", async () => {
    // GIVEN the production server on a fresh database, its worker off
    const database = await createEmptyDatabase();
    const url = database.url;
    await applyMigrations(url);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const secret = "direct-secret";
    const server = serve({
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: url,
      SHOPIFY_API_KEY: "key",
      SHOPIFY_API_SECRET: secret,
      SHOPIFY_APP_URL: "https://app.example.com",
      ENCRYPTION_KEY: "VqJ5qmHHV7mH/M7LjXtoTq4HkC1VSWXSG4UO71uTeDk=",
      WORKER_IN_PROCESS: "false",
    });
    const db = createPrismaClient(url);
    try {
      // Until it answers (a bound of 3 minutes for a server that never does).
      const deadline = Date.now() + 180_000;
      while (
        Date.now() < deadline &&
        !(await fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        ))
      ) {
        await new Promise((r) => setTimeout(r, 100));
      }
      const post = (topic: string, body: string, options: { signWith?: string; path?: string } = {}) =>
        fetch(`${base}${options.path ?? `/webhooks/${topic}`}`, {
          method: "POST",
          headers: signedWebhookHeaders(
            { topic, shop: "atlas-beauty.myshopify.com", body: null, secret, signWith: options.signWith },
            body,
          ),
          body,
        });
      const order = webhookOrder({ id: 4_200_000_000_001 });

      // WHEN a signed orders/create arrives, twice, THEN it is stored once and answered 200, each with its request log line
      expect((await post("orders/create", JSON.stringify(order))).status).toBe(200);
      expect((await post("orders/create", JSON.stringify(order))).status).toBe(200);
      expect(await db.orderLink.count({ where: { orderId: String(order.id) } })).toBe(1);
      expect(await db.job.count({ where: { key: { endsWith: `:${order.id}` } } })).toBe(1);

      // A wrong HMAC, a GET, a query string and a body that is too big get their own answers.
      const other = JSON.stringify(webhookOrder({ id: 4_200_000_000_002 }));
      expect((await post("orders/create", other, { signWith: "wrong" })).status).toBe(401);
      expect((await post("orders/create", other, { path: "/webhooks/orders/create?x=1" })).status).toBe(200);
      expect((await fetch(`${base}/webhooks/orders/create`)).status).toBe(405);
      const huge = await fetch(`${base}/webhooks/orders/create`, {
        method: "POST",
        body: "x".repeat(11 * 1024 * 1024),
      }).then(
        (r) => String(r.status),
        // The server may close the connection before the whole body is sent: only a reset counts.
        (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
      );
      expect(["413", "ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]).toContain(huge);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect(await db.orderLink.count()).toBe(2);

      // Other topics are answered directly too; a path with a parameter goes through Remix.
      expect((await post("app/uninstalled", JSON.stringify({ id: 1 }))).status).toBe(200);
      const sellerEvent = await fetch(`${base}/webhooks/seller/unknown-token`, { method: "POST", body: "{}" });
      expect(sellerEvent.status).toBeGreaterThanOrEqual(400);
      // The request log line (JSON) comes once the response is finished, the events token redacted.
      const logged = Date.now() + 60_000;
      while (Date.now() < logged && !server.output().includes('"url":"/webhooks/seller/[redacted]"')) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const lines = server
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.find((l) => l.url === "/webhooks/seller/[redacted]")).toMatchObject({
        msg: "request",
        method: "POST",
        route: "platform_events",
      });
      expect(server.output()).not.toContain("unknown-token");
      const created = lines.filter((l) => l.msg === "request" && l.topic === "orders/create");
      expect(created.map((l) => l.status)).toEqual(expect.arrayContaining([200, 401, 405]));
      expect(created[0]).toMatchObject({
        shop: "atlas-beauty.myshopify.com",
        requestId: expect.any(String),
        durationMs: expect.any(Number),
        outcome: "ok",
      });
      expect(lines.find((l) => l.directWebhookRoutes !== undefined)).toMatchObject({
        role: "web",
        directWebhookRoutes: 8,
      });
    } finally {
      await db.$disconnect();
      server.child.kill();
      await server.exited;
      await database.drop();
    }
  }, 300_000);

  it("GIVEN no DATABASE_URL WHEN it starts THEN it runs on an embedded PostgreSQL in .data/postgres of its folder, migrated, with the worker inside; on SIGTERM it stops, the database after it; started again, it finds the data kept", async () => {
    const folder = mkdtempSync(join(tmpdir(), "cod-local-"));
    const env = {
      SHOPIFY_API_KEY: "key",
      SHOPIFY_API_SECRET: "secret",
      SHOPIFY_APP_URL: "https://app.example.com",
      ENCRYPTION_KEY: "VqJ5qmHHV7mH/M7LjXtoTq4HkC1VSWXSG4UO71uTeDk=",
    };
    const dataDir = join(folder, ".data", "postgres");
    /** One start: what /healthz answered and what the server said, after a clean stop. */
    const run = async (work: (url: string) => Promise<void>) => {
      const port = await freePort();
      const server = serve({ ...env, PORT: String(port) }, folder);
      try {
        let health: Response | undefined;
        // A first start makes the cluster: up to 60 s on a busy machine.
        for (let i = 0; i < 600 && !health?.ok; i++) {
          health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
          if (!health?.ok) await new Promise((r) => setTimeout(r, 100));
        }
        expect(health?.status, server.output()).toBe(200);
        expect(await health!.json()).toMatchObject({ database: { kind: "postgres", reachable: true } });
        const said =
          /database: PostgreSQL \(embedded\) at postgresql:\/\/postgres@127\.0\.0\.1:(\d+)\/cod_lead_sync, its data in \.data\/postgres kept between runs \(password in \.data\/postgres\/password\); (\d+) migration\(s\) applied now/.exec(
            server.output(),
          );
        expect(said, server.output()).not.toBeNull();
        expect(server.output()).toMatch(/worker \S+ started in process/);
        const password = readFileSync(join(dataDir, "password"), "utf8").trim();
        await work(`postgresql://postgres:${password}@127.0.0.1:${said![1]}/cod_lead_sync`);
        server.child.kill("SIGTERM");
        expect(await server.exited).toBe(0);
        // The database stopped after the server: its cluster no longer in use.
        expect(existsSync(join(dataDir, "pgdata", "postmaster.pid"))).toBe(false);
        return { migrationsApplied: Number(said![2]) };
      } finally {
        server.child.kill("SIGKILL");
        await server.exited;
      }
    };
    const query = async (url: string, sql: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql)).rows;
      } finally {
        await client.end();
      }
    };
    try {
      const first = await run((url) => query(url, "CREATE TABLE kept_here (x int)").then(() => undefined));
      expect(first.migrationsApplied).toBeGreaterThan(0);
      let kept: unknown[] = [];
      const second = await run(async (url) => {
        kept = await query(url, "SELECT to_regclass('kept_here')::text AS t");
      });
      expect(second.migrationsApplied).toBe(0);
      expect(kept).toEqual([{ t: "kept_here" }]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 240_000);

  it("refuses to start without SHOPIFY_API_SECRET and names it", async () => {
    const server = serve({
      PORT: String(await freePort()),
      SHOPIFY_API_KEY: "key",
      SHOPIFY_APP_URL: "https://app.example.com",
      ENCRYPTION_KEY: "VqJ5qmHHV7mH/M7LjXtoTq4HkC1VSWXSG4UO71uTeDk=",
    });
    const code = await server.exited;
    expect(code).not.toBe(0);
    expect(server.output()).toMatch(/SHOPIFY_API_SECRET is required/);
    // A bound for a process that never exits: a loaded machine can take a minute to load the bundle.
  }, 180_000);
});

describe("what production runs", () => {
  const root = join(import.meta.dirname, "..", "..");
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };

  it("runs the built entry points with plain node: the server, the worker and every operator command", () => {
    expect(pkg.scripts.start).toBe("node build/server.js");
    expect(pkg.scripts.worker).toBe("node build/worker.js");
    for (const [script, file] of [
      ["db:migrate", "migrate"],
      ["rotate-key", "rotate-key"],
      ["analytics:rebuild", "analytics-rebuild"],
      ["customers:rebuild", "customers-rebuild"],
    ])
      expect(pkg.scripts[script]).toBe(`node build/ops/${file}.js`);
  });

  it("keeps sandbox, stand-in and CLI packages out of production's dependencies, every version exact", () => {
    for (const name of [
      "tsx",
      "prisma",
      "hono",
      "@hono/node-server",
      "@remix-run/express",
      "esbuild",
      "yaml",
      "graphql",
    ])
      expect(pkg.dependencies, name).not.toHaveProperty(name);
    for (const [name, version] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }))
      expect(version, name).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
    const production = JSON.parse(
      execFileSync("npm", ["ls", "--omit=dev", "--json", "--depth=0"], { cwd: root, encoding: "utf8" }),
    ) as { dependencies: Record<string, unknown> };
    expect(
      Object.keys(production.dependencies).filter((name) =>
        /^(tsx|prisma|hono|@hono\/|esbuild|vite|@shopify\/cli)/.test(name),
      ),
    ).toEqual([]);
  });
});
