/**
 * The production build, started the way `npm start` starts it (`node build/server.js`
 * in the app's directory: built JavaScript, no loader): it serves /healthz with a valid
 * environment and refuses to start without one. package.json runs every production
 * process that way, and production's dependencies hold no sandbox, stand-in or CLI.
 */
import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, createEmptyDatabase, onPostgres } from "../helpers/db";
import { ensurePreviewBuild, freePort, removePreviewBuild } from "../helpers/preview-server";
import { createPrismaClient } from "../../app/db/client";
import { webhookOrder } from "../helpers/orders";
import { signedWebhookHeaders } from "../helpers/webhooks";

let tmp: string;

function serve(env: Record<string, string>) {
  // `npm start` in a build copy: it holds build/ and nothing else (no developer .env can leak in).
  const child = spawn(process.execPath, [join("build", "server.js")], {
    cwd: buildDir,
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
  tmp = mkdtempSync(join(tmpdir(), "cod-build-"));
  // `npm run build`'s output, rebuilt when older than the sources (under the shared build lock).
  buildDir = await ensurePreviewBuild();
}, 120_000);
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  removePreviewBuild(buildDir);
});

describe("production server", () => {
  it("starts with a valid environment and answers /healthz", async () => {
    const database = await createEmptyDatabase(tmp, "prod.sqlite");
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
      // Started when it answers: up to 30 s on a busy machine.
      for (let i = 0; i < 300 && !response; i++) {
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
        database: { kind: onPostgres ? "postgres" : "sqlite", reachable: true },
        eventLoop: { current: expect.objectContaining({ maxMs: expect.any(Number) }) },
      });
    } finally {
      server.child.kill();
      await server.exited;
      await database.drop();
    }
  });

  it("answers Shopify's webhook topics directly, with the routes' own checks, and the rest through Remix", async () => {
    // GIVEN the production server on a fresh database, its worker off
    const database = await createEmptyDatabase(tmp, "direct.sqlite");
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
      // Up to 30 s on a loaded machine.
      for (
        let i = 0;
        i < 300 &&
        !(await fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        ));
        i++
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
      for (let i = 0; i < 50 && !server.output().includes('"url":"/webhooks/seller/[redacted]"'); i++) {
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
  });

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
  });
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
