/**
 * Orders whose `line_items` array is huge, and what watching a server through
 * them needs: its main thread's CPU time and the longest /healthz wait. Shared
 * by the security test that checks what the server answers them and
 * `npm run bench -- huge-orders`, which measures what they cost it.
 */
import { readFileSync } from "node:fs";
import type { PrismaClient } from "@prisma/client";
import { webhookOrder } from "../../lib/order-payloads";

/** An orders/create body whose line_items are `count` empty objects. */
export function emptyItemsOrder(id: number, count: number): string {
  const text = JSON.stringify({ ...webhookOrder({ id }), line_items: [] });
  return text.replace('"line_items":[]', `"line_items":[${Array(count).fill("{}").join(",")}]`);
}

/** CPU time the process's main thread (the event loop, and the GC on it) has used, in ms: /proc/<pid>/schedstat, in ns. */
export function mainThreadCpuMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
}

/** /healthz asked again as soon as it answers, until stopped: how many answers, their statuses, the longest wait. */
export function watchHealth(url: string) {
  let stopped = false;
  let longest = 0;
  const statuses: number[] = [];
  const slow: string[] = [];
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const response = await fetch(`${url}/healthz`);
      await response.arrayBuffer();
      const ms = performance.now() - started;
      if (ms > 20) slow.push(ms.toFixed(0));
      longest = Math.max(longest, ms);
      statuses.push(response.status);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { longest, statuses, slow };
    },
  };
}

/** The order's link once in `state`; a bound (2 minutes) only for a server that never gets there. */
export async function waitForLink(db: PrismaClient, shop: string, orderId: number, state: string) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const link = await db.orderLink.findUnique({ where: { shop_orderId: { shop, orderId: String(orderId) } } });
    if (link?.state === state) return link;
    if (Date.now() > deadline) throw new Error(`order ${orderId} is ${link?.state ?? "not stored"}, not ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
