/**
 * The production build, started the way `npm start` starts it: it serves
 * /healthz with a valid environment and refuses to start without one.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "../helpers/db";
import { ensurePreviewBuild, removePreviewBuild } from "../helpers/preview-server";

const root = join(import.meta.dirname, "..", "..");
const remixServe = join(root, "node_modules", "@remix-run", "serve", "dist", "cli.js");
let tmp: string;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function serve(env: Record<string, string>) {
  // Run from an empty directory so a developer's own .env cannot leak in.
  const child = spawn(process.execPath, [remixServe, join(buildDir, "build", "server", "index.js")], {
    cwd: tmp,
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
    const url = `file:${join(tmp, "prod.sqlite")}`;
    await applyMigrations(url);
    const port = await freePort();
    const server = serve({
      PORT: String(port),
      DATABASE_URL: url,
      SHOPIFY_API_KEY: "key",
      SHOPIFY_API_SECRET: "secret",
      SHOPIFY_APP_URL: "https://app.example.com",
      ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
    });
    try {
      let response: Response | undefined;
      for (let i = 0; i < 100 && !response; i++) {
        response = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
        if (!response) await new Promise((r) => setTimeout(r, 100));
      }
      expect(response?.status).toBe(200);
      expect(await response!.json()).toEqual({ status: "ok", database: "ok" });
    } finally {
      server.child.kill();
      await server.exited;
    }
  });

  it("refuses to start without SHOPIFY_API_SECRET and names it", async () => {
    const server = serve({
      PORT: String(await freePort()),
      SHOPIFY_API_KEY: "key",
      SHOPIFY_APP_URL: "https://app.example.com",
      ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
    });
    const code = await server.exited;
    expect(code).not.toBe(0);
    expect(server.output()).toMatch(/SHOPIFY_API_SECRET is required/);
  });
});
