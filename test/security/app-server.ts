/**
 * The production server (server.ts over the production build), as `npm start`
 * runs it, for the HTTP-layer security tests: the shared preview harness
 * (scripts/dev/lib/preview-server.ts) on a database of its own on the run's
 * PostgreSQL server, installed shops with offline sessions, no
 * worker, loopback only. Plus what only these tests need: a process's memory
 * from /proc, and a body streamed with back-pressure.
 */
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll } from "vitest";
import { applyMigrations, createEmptyDatabase } from "../helpers/db";
import {
  ensurePreviewBuild,
  removePreviewBuild,
  startPreviewServer,
  type PreviewServer,
} from "../helpers/preview-server";

export type AppServer = PreviewServer;

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

export async function startAppServer(
  buildDir: string,
  options: { shops?: string[]; env?: Record<string, string> } = {},
): Promise<AppServer> {
  const database = await createEmptyDatabase();
  await applyMigrations(database.url);
  const server = await startPreviewServer({
    buildDir,
    databaseUrl: database.url,
    shops: options.shops ?? [],
    // As production: the request log at info, no private platform address, the tests' own key.
    env: {
      LOG_LEVEL: "info",
      SELLER_API_ALLOW_PRIVATE_HOSTS: "false",
      ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!,
      ...options.env,
    },
  });
  return {
    ...server,
    async close() {
      await server.close();
      await database.drop();
    },
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
