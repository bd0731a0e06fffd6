/**
 * `npm run replay` sends a payload file's bytes as written. It sent
 * JSON.stringify(JSON.parse(file)), which rounds Shopify's 64-bit ids: its own
 * sample orders 820982911946154508 and 820982911946154509 became one id, and
 * the app (which reads them exactly) took the second as a redelivery of the
 * first. Run as a newcomer runs it, against the webhook routes on a real HTTP
 * server.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { webhookOrder } from "../helpers/orders";
import { startOrderWorld, type OrderWorld } from "../security/order-world";

const root = join(import.meta.dirname, "..", "..");
const FIRST = "820982911946154508";
const SECOND = "820982911946154509";

let world: OrderWorld;
let dir: string;
beforeAll(async () => {
  world = await startOrderWorld();
  dir = mkdtempSync(join(tmpdir(), "cod-replay-"));
});
afterAll(async () => {
  await world?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A payload as a newcomer's file holds it: indented, its id a bare number (a JS number cannot hold it). */
function payloadText(id: string, phone: string): string {
  return JSON.stringify({ ...webhookOrder({ id: 1, phone }), id: "@id@" }, null, 2).replace('"@id@"', id);
}

function replay(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const cli = join(root, "node_modules", "tsx", "dist", "cli.mjs");
  return new Promise((resolve) =>
    execFile(process.execPath, [cli, join(root, "scripts", "dev", "replay.ts"), ...args], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

it("GIVEN two payload files whose ids differ only beyond 2^53 (a plain payload and a demo case) WHEN replayed THEN the app holds two orders, each with its exact id", async () => {
  writeFileSync(join(dir, "1-first.json"), `${payloadText(FIRST, "0612345611")}\n`);
  writeFileSync(
    join(dir, "2-second.json"),
    `{\n  "title": "Shopify's sample order, next id",\n  "payload": ${payloadText(SECOND, "0612345612")}\n}\n`,
  );

  const run = await replay([
    "--url",
    world.url,
    "--secret",
    process.env.SHOPIFY_API_SECRET!,
    "--shop",
    world.shop,
    dir,
  ]);

  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain("2 deliveries, all accepted");
  const links = await world.app.db.prisma.orderLink.findMany({
    where: { shop: world.shop },
    orderBy: { orderId: "asc" },
  });
  expect(links.map((l) => l.orderId)).toEqual([FIRST, SECOND]);
}, 120_000);
