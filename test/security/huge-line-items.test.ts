/**
 * A signed order with a huge `line_items` array: the 500-line cap was checked
 * after every line had been adapted, so 1.5 M empty items (4.5 MB) froze the
 * server for 19 s and 400,000 for 2-3.7 s, while /healthz and every other
 * webhook waited. Through the production server with its worker inside (the
 * embedded default, where the mapping shares the event loop with intake):
 * 400,000 empty items are refused before JSON.parse (more values than any real
 * order); 50,000 or 100,000 (100,000 values is about what the heaviest real
 * order holds) are stored and held without reading one of them.
 *
 * What each order costs is measured as the server's main-thread CPU time (its
 * event loop's, from /proc): under 50 ms an order, whatever else the machine
 * runs. The waits of /healthz and of the answers are wall-clock, which a busy
 * shared machine stretches: they are printed (20-80 ms on a quiet 2-core
 * machine) and held to a bound that the old stall (seconds) cannot meet.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_LINE_ITEMS } from "../../app/leads/field-limits";
import { ensurePreviewBuild, removePreviewBuild } from "../helpers/preview-server";
import { signedWebhookHeaders } from "../helpers/webhooks";
import { webhookOrder } from "../helpers/orders";
import { startAppServer, type AppServer } from "./app-server";

const SHOP = "atlas-beauty.myshopify.com";
/** The most event-loop time one order may cost. */
const ORDER_CPU_MS = 50;
/**
 * Wall-clock bound on any wait: under the 2-3.7 s a 400,000-item order stalled the loop
 * before, with room for the suite's other files running beside this one (565 ms seen).
 */
const WAIT_BOUND_MS = 1_500;

/** CPU time the process's main thread (the event loop, and the GC on it) has used, in ms: /proc/<pid>/schedstat, in ns. */
const mainThreadCpuMs = (pid: number) => Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;

let buildDir: string;
let server: AppServer;

beforeAll(async () => {
  buildDir = await ensurePreviewBuild();
  server = await startAppServer(buildDir, { shops: [SHOP], env: { WORKER_IN_PROCESS: "true" } });
  // No Flow trigger: its job would call Shopify, which is not there, while the watch runs.
  const flowTriggers = { leadCreated: false, leadStatusChanged: false, orderNeedsAttention: false };
  await server.db.shop.create({ data: { domain: SHOP, settings: JSON.stringify({ flowTriggers }) } });
}, 300_000);
afterAll(async () => {
  await server?.close();
  if (buildDir) removePreviewBuild(buildDir);
});

/** An orders/create body whose line_items are `count` empty objects. */
function emptyItemsOrder(id: number, count: number): string {
  const text = JSON.stringify({ ...webhookOrder({ id }), line_items: [] });
  return text.replace('"line_items":[]', `"line_items":[${Array(count).fill("{}").join(",")}]`);
}

async function post(raw: string): Promise<{ status: number; body: string; ms: number }> {
  const headers = signedWebhookHeaders(
    { topic: "orders/create", shop: SHOP, body: null, secret: server.apiSecret },
    raw,
  );
  const started = performance.now();
  const response = await fetch(`${server.url}/webhooks/orders/create`, { method: "POST", headers, body: raw });
  const body = await response.text();
  return { status: response.status, body, ms: performance.now() - started };
}

/** /healthz asked again as soon as it answers, until stopped: the longest wait. */
function watchHealth() {
  let stopped = false;
  let longest = 0;
  let answers = 0;
  const slow: string[] = [];
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const response = await fetch(`${server.url}/healthz`);
      await response.arrayBuffer();
      const ms = performance.now() - started;
      if (ms > 20) slow.push(ms.toFixed(0));
      longest = Math.max(longest, ms);
      answers++;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { longest, answers, slow };
    },
  };
}

async function waitForLink(orderId: number, state: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const link = await server.db.orderLink.findUnique({
      where: { shop_orderId: { shop: SHOP, orderId: String(orderId) } },
    });
    if (link?.state === state) return link;
    if (Date.now() > deadline) throw new Error(`order ${orderId} is ${link?.state ?? "not stored"}, not ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("an order of hundreds of thousands of empty line items", () => {
  // Built before anything is measured: building them is the test's work, not the server's.
  const refused = emptyItemsOrder(9_200_000_000_001, 400_000);

  beforeAll(async () => {
    // Warm: a fresh process compiles its code on first use (a cold first hold took 60 ms, warm 15).
    for (let i = 0; i < 3; i++)
      expect((await post(JSON.stringify(webhookOrder({ id: 9_200_000_000_010 + i })))).status).toBe(200);
    expect((await post(emptyItemsOrder(9_200_000_000_020, MAX_LINE_ITEMS + 1))).status).toBe(200);
    await waitForLink(9_200_000_000_020, "held");
  }, 60_000);

  it("costs the event loop less than 50 ms: refused before parsing at 400,000 items, held without reading a line at 50,000", async () => {
    expect(refused.length).toBeGreaterThan(1_200_000);
    const cpu = mainThreadCpuMs(server.pid);
    const refusedAnswer = await post(refused);
    const refusedCpu = mainThreadCpuMs(server.pid) - cpu;
    // More values than any order Shopify sends: refused, with the reason, and nothing stored.
    expect(refusedAnswer.status).toBe(400);
    expect(refusedAnswer.body).toMatch(/more than [\d,]+ values/);
    expect(await server.db.orderLink.count({ where: { orderId: "9200000000001" } })).toBe(0);

    // Two turns of the loop, each an order's work: the intake that answers, then the job that holds it.
    const body = emptyItemsOrder(9_200_000_000_002, 50_000);
    const before = mainThreadCpuMs(server.pid);
    const heldAnswer = await post(body);
    const answered = mainThreadCpuMs(server.pid);
    const link = await waitForLink(9_200_000_000_002, "held");
    const intakeCpu = answered - before;
    const heldCpu = mainThreadCpuMs(server.pid) - answered;
    expect(heldAnswer.status).toBe(200);
    expect(JSON.parse(link.findings)).toEqual([
      expect.objectContaining({ code: "too_many_items", params: { lineCount: 50_000, max: MAX_LINE_ITEMS } }),
    ]);
    console.info(
      `[huge-line-items] event-loop CPU: 400,000 items ${refusedCpu.toFixed(1)} ms (answered in ${refusedAnswer.ms.toFixed(0)} ms), ` +
        `50,000 items: intake ${intakeCpu.toFixed(1)} ms, the job that holds it ${heldCpu.toFixed(1)} ms`,
    );
    expect(refusedCpu).toBeLessThan(ORDER_CPU_MS);
    expect(intakeCpu).toBeLessThan(ORDER_CPU_MS);
    expect(heldCpu).toBeLessThan(ORDER_CPU_MS);
  });

  it("keeps /healthz and the answers waiting no longer than a normal order's work does", async () => {
    const health = watchHealth();
    const normalAnswer = await post(JSON.stringify(webhookOrder({ id: 9_200_000_000_003 })));
    const refusedAnswer = await post(refused);
    const heldAnswer = await post(emptyItemsOrder(9_200_000_000_004, 100_000));
    await waitForLink(9_200_000_000_004, "held");
    // A moment more for whatever the worker does after the hold (lead events).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const { longest, answers, slow } = await health.stop();
    console.info(
      `[huge-line-items] normal ${normalAnswer.ms.toFixed(0)} ms, 400,000 items ${refusedAnswer.ms.toFixed(0)} ms (${refusedAnswer.status}), ` +
        `100,000 items ${heldAnswer.ms.toFixed(0)} ms (${heldAnswer.status}); /healthz longest ${longest.toFixed(0)} ms over ${answers} answers (over 20 ms: ${slow.join(", ") || "none"})`,
    );
    expect([normalAnswer.status, refusedAnswer.status, heldAnswer.status]).toEqual([200, 400, 200]);
    for (const answer of [refusedAnswer, heldAnswer]) expect(answer.ms).toBeLessThan(WAIT_BOUND_MS);
    expect(longest).toBeLessThan(WAIT_BOUND_MS);
  }, 60_000);
});
