/**
 * The Backfill page's loader and action work, as its route calls them once it has
 * authenticated: the last import with its instants on the shop's wall clock, the default
 * range and the shop's age limit; then a preview or an import started, or a stopped one resumed.
 */
import prisma from "../db.server";
import { addDays, DEFAULT_TIME_ZONE, localDay } from "../analytics/days";
import { localTime } from "../time-zone";
import { readBackfill, resumeBackfill, startBackfill } from "../sync/backfill/backfill.server";
import { loadShopSettings } from "./shop-facts.server";

const DEFAULT_DAYS = 30;

export async function backfillPageData(shop: string) {
  const now = new Date();
  const today = localDay(DEFAULT_TIME_ZONE, now);
  const [backfill, settings] = await Promise.all([readBackfill(prisma, shop), loadShopSettings(prisma, shop)]);
  const local = (iso: string | null | undefined) => (iso ? localTime(iso, DEFAULT_TIME_ZONE) : null);
  return {
    backfill,
    // The shop's wall clock, written by the page in the reader's format.
    finishedLocal: local(backfill?.payload.finishedAt),
    throttledLocal: local(backfill?.payload.throttledUntil),
    today,
    defaultFrom: addDays(today, -DEFAULT_DAYS),
    readAt: now.toISOString(),
    staleOrderDays: settings.staleOrderDays,
  };
}

export type BackfillActionResult =
  ({ intent: "start" } & Awaited<ReturnType<typeof startBackfill>>) | { intent: "resume"; ok: boolean };

export async function backfillPageAction(request: Request, shop: string): Promise<BackfillActionResult> {
  const form = await request.formData();
  const value = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v.trim() : "";
  };
  const intent = value("intent");
  if (intent === "start") {
    const result = await startBackfill(prisma, shop, {
      from: value("from"),
      to: value("to"),
      dryRun: value("dryRun") === "true",
    });
    return { intent, ...result };
  }
  if (intent === "resume") return { intent, ok: await resumeBackfill(prisma, shop) };
  throw new Response("Unknown intent", { status: 400 });
}
