/**
 * After the summary: prints, as the app records them, each lead's status
 * change (status sync every minute) and each order that arrives later (npm run
 * replay). Runs until the process stops.
 */
import type { PrismaClient } from "@prisma/client";
import { IN_FLIGHT_STATES, summarize } from "./summary";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const clock = () => new Date().toTimeString().slice(0, 8);

export async function watchStatuses(db: PrismaClient, shop: string, log: (line: string) => void): Promise<never> {
  const seen = new Map<string, { state: string; status: string }>();
  let first = true;
  for (;;) {
    const links = await db.orderLink.findMany({ where: { shop }, orderBy: { createdAt: "asc" } }).catch(() => []);
    for (const link of links) {
      const s = summarize(link);
      if (IN_FLIGHT_STATES.has(s.state)) continue;
      const now = { state: s.state, status: `${s.confirmation_status ?? "-"} / ${s.shipping_status ?? "-"}` };
      const before = seen.get(s.order_id);
      if (!before && !first) {
        const codes = [...s.findings, ...s.anomalies];
        log(`${clock()} ${s.order_name} ${s.state}${s.lead_ref ? ` ${s.lead_ref}` : ""}${codes.length ? ` (${codes.join(", ")})` : ""}`);
      } else if (before && before.state !== now.state) {
        log(`${clock()} ${s.order_name} ${before.state} -> ${now.state}`);
      } else if (before && s.lead_ref && before.status !== now.status) {
        log(`${clock()} ${s.order_name} ${s.lead_ref}: ${before.status} -> ${now.status}`);
      }
      seen.set(s.order_id, now);
    }
    first = false;
    await sleep(3000);
  }
}
