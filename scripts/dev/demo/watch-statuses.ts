/**
 * After the summary: prints, as the app records them, each lead's status
 * change (status sync every minute), what the app wrote back to the Shopify
 * order (with a link to it), the events the ad platforms' stand-ins accepted
 * for it, and each order that arrives later (npm run replay). Runs until the
 * process stops.
 */
import type { PrismaClient } from "@prisma/client";
import { parseWriteBackDone, type WriteBackDone } from "../../../app/shopify/write-back-plan";
import { adEventsText, IN_FLIGHT_STATES, summarize, type AdEventSummary } from "./summary";

/** What became true in Shopify between two write-back records ("" when nothing did). */
export function writtenBackChange(before: WriteBackDone, after: WriteBackDone): string {
  const parts: string[] = [];
  const added = after.tags.filter((t) => !before.tags.includes(t));
  if (added.length) parts.push(`tagged ${added.join(", ")}`);
  if (after.fulfilled && !before.fulfilled) parts.push("fulfilled with its tracking number");
  if (after.paid && !before.paid) parts.push("marked as paid");
  if (after.cancelled && !before.cancelled) parts.push("cancelled");
  return parts.join("; ");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const clock = () => new Date().toTimeString().slice(0, 8);

export interface WatchSources {
  /** The order's page in Shopify (the stand-in's). */
  orderPage?(orderId: string): string;
  /** The events the ad platforms' stand-ins accepted, by order id, in the order they came. */
  adEvents?(): Promise<Map<string, AdEventSummary[]>>;
}

export async function watchStatuses(
  db: PrismaClient,
  shop: string,
  log: (line: string) => void,
  sources: WatchSources = {},
): Promise<never> {
  const { orderPage } = sources;
  const seen = new Map<string, { state: string; status: string }>();
  const written = new Map<string, WriteBackDone>();
  const told = new Map<string, number>();
  let toldInAll = 0;
  let first = true;
  for (;;) {
    const links = await db.orderLink.findMany({ where: { shop }, orderBy: { createdAt: "asc" } }).catch(() => []);
    const adEvents = (await sources.adEvents?.().catch(() => null)) ?? new Map<string, AdEventSummary[]>();
    for (const link of links) {
      const s = summarize(link);
      if (IN_FLIGHT_STATES.has(s.state)) continue;
      const now = { state: s.state, status: `${s.confirmation_status ?? "-"} / ${s.shipping_status ?? "-"}` };
      const before = seen.get(s.order_id);
      if (!before && !first) {
        const codes = [...s.findings, ...s.anomalies];
        log(
          `${clock()} ${s.order_name} ${s.state}${s.lead_ref ? ` ${s.lead_ref}` : ""}${codes.length ? ` (${codes.join(", ")})` : ""}`,
        );
      } else if (before && before.state !== now.state) {
        log(`${clock()} ${s.order_name} ${before.state} -> ${now.state}`);
      } else if (before && s.lead_ref && before.status !== now.status) {
        log(`${clock()} ${s.order_name} ${s.lead_ref}: ${before.status} -> ${now.status}`);
      }
      seen.set(s.order_id, now);
      const done = parseWriteBackDone(link.writtenBack);
      const change = writtenBackChange(written.get(s.order_id) ?? parseWriteBackDone("{}"), done);
      if (change && !first)
        log(`${clock()} ${s.order_name} in Shopify: ${change}${orderPage ? ` (${orderPage(s.order_id)})` : ""}`);
      written.set(s.order_id, done);
      const events = adEvents.get(s.order_id) ?? [];
      const fresh = events.slice(told.get(s.order_id) ?? 0);
      toldInAll += fresh.length;
      if (fresh.length && !first)
        log(`${clock()} ${s.order_name} told the ads: ${adEventsText(fresh)} (${toldInAll} events accepted in all)`);
      told.set(s.order_id, events.length);
    }
    first = false;
    await sleep(3000);
  }
}
