/**
 * The production server (server.ts over the production build), as `npm start`
 * runs it, for the HTTP-layer security tests: its own SQLite file, installed
 * shops with offline sessions, no worker, loopback only. Unlike the preview
 * server it exposes the process id (peak memory is read from /proc) and
 * captures stdout apart from stderr (the access log is stdout).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import { getJwt } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll } from "vitest";
import { createPrismaClient } from "../../app/db/client";
import { appServerArgs } from "../../scripts/dev/lib/app-build";
import { applyMigrations, createEmptyDatabase } from "../helpers/db";
import { DEFAULT_SCOPES, ensurePreviewBuild, freePort, removePreviewBuild, storeName } from "../helpers/preview-server";

const root = join(import.meta.dirname, "..", "..");

export interface AppServer {
  url: string;
  port: number;
  pid: number;
  apiKey: string;
  apiSecret: string;
  db: PrismaClient;
  stdout(): string;
  stderr(): string;
  mintToken(shop: string): Promise<string>;
  close(): Promise<void>;
}

/** One production server for a test file: started before its tests, stopped after; call the result inside a test. */
export function useAppServer(options: { shops?: string[]; env?: Record<string, string> } = {}): () => AppServer {
  let buildDir: string | undefined;
  let server: AppServer | undefined;
  beforeAll(async () => {
    buildDir = await ensurePreviewBuild();
    server = await startAppServer(buildDir, options);
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    if (buildDir) removePreviewBuild(buildDir);
  });
  return () => {
    if (!server) throw new Error("the app server is not started yet");
    return server;
  };
}

export async function startAppServer(buildDir: string, options: { shops?: string[]; env?: Record<string, string> } = {}): Promise<AppServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "cod-security-"));
  const database = await createEmptyDatabase(dataDir, "app.sqlite");
  const databaseUrl = database.url;
  await applyMigrations(databaseUrl);
  const db = createPrismaClient(databaseUrl);
  for (const shop of options.shops ?? []) {
    await db.session.create({
      data: {
        id: `offline_${shop}`,
        shop,
        state: "",
        isOnline: false,
        scope: DEFAULT_SCOPES,
        accessToken: `shpat_security_${storeName(shop)}`,
        expires: new Date(Date.now() + 24 * 3600_000),
      },
    });
  }
  const apiKey = "security-api-key";
  const apiSecret = "security-api-secret";
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, appServerArgs(root, join(buildDir, "build", "server", "index.js")), {
    cwd: buildDir,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      SHOPIFY_API_KEY: apiKey,
      SHOPIFY_API_SECRET: apiSecret,
      SHOPIFY_APP_URL: url,
      SCOPES: DEFAULT_SCOPES,
      ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? "",
      WORKER_IN_PROCESS: "false",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    await db.$disconnect();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  while (!(await fetch(`${url}/healthz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await close();
      throw new Error(`the server did not start:\n${stdout}\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    pid: child.pid!,
    apiKey,
    apiSecret,
    db,
    stdout: () => stdout,
    stderr: () => stderr,
    mintToken: async (shop) => (await getJwt(storeName(shop), apiKey, apiSecret)).token,
    close,
  };
}

/** Resident memory of a process from /proc, in MiB: `VmRSS` now, `VmHWM` its peak so far. */
export function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

export interface StreamedPost {
  /** The status the server answered, or the socket error code when it only closed the connection. */
  outcome: string;
  /** Bytes the client managed to write before the answer or the reset. */
  sent: number;
  body: string;
}

/**
 * POSTs `totalBytes` of "x", streamed in 64 KiB chunks with back-pressure (so
 * the client itself holds almost nothing), chunked or with a Content-Length.
 * Stops sending as soon as the server answers.
 */
export function streamPost(
  url: string,
  path: string,
  totalBytes: number,
  options: { chunked?: boolean; headers?: Record<string, string> } = {},
): Promise<StreamedPost> {
  const chunk = Buffer.alloc(64 * 1024, "x");
  return new Promise((resolve) => {
    let sent = 0;
    let done = false;
    const finish = (outcome: string, body = "") => {
      if (done) return;
      done = true;
      req.destroy();
      resolve({ outcome, sent, body });
    };
    const target = new URL(url);
    const req = httpRequest({
      host: target.hostname,
      port: target.port,
      method: "POST",
      path,
      headers: {
        "Content-Type": "application/json",
        ...(options.chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(totalBytes) }),
        ...options.headers,
      },
    });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => finish(String(res.statusCode), body));
      res.on("error", () => finish(String(res.statusCode), body));
    });
    req.on("error", (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
    const pump = () => {
      while (!done && sent < totalBytes) {
        const part = sent + chunk.length <= totalBytes ? chunk : chunk.subarray(0, totalBytes - sent);
        sent += part.length;
        if (!req.write(part)) return void req.once("drain", pump);
      }
      if (!done) req.end();
    };
    pump();
  });
}
