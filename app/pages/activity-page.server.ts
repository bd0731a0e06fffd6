/**
 * The Activity page's loader and action work, as its route calls them once it has
 * authenticated: the job queue and the Seller Order API calls (filtered and paged by the URL),
 * the customers' data requests, the sharing log, the sync ledger and the conversion feed's
 * sends, instants on the shop's wall clock; then a job's retry, every dead job's, and a
 * reconciliation now. Also a data request's export, a link of this page.
 */
import prisma from "../db.server";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { localTime } from "../time-zone";
import { dataRequestExport, listDataRequests } from "../customers/compliance.server";
import { listShopAuditEvents } from "../customers/pairing.server";
import { reconcileNow } from "../sync/reconcile/pass.server";
import {
  isStatusClass,
  isVisibleJobState,
  JobNotFoundError,
  listApiCalls,
  listShopJobs,
  retryAllDeadJobs,
  retryShopJob,
} from "./activity.server";
import { loadSyncLedger } from "./sync-ledger.server";
import { ledgerOnPage } from "./sync-ledger-times";
import { loadFeedActivity } from "./ad-feed.server";
import { fileResponse } from "./file-response";
import { RECONCILE_NOW_INTENT, type ActivityActionResult, type SyncLedgerActionResult } from "./activity-intents";

export async function activityPageData(request: Request, shop: string) {
  const params = new URL(request.url).searchParams;
  const status = params.get("status");
  const jobState = params.get("jobState");
  const statusClass = isStatusClass(status) ? status : "all";
  const state = isVisibleJobState(jobState) ? jobState : null;
  const [calls, jobs, dataRequests, sharingLog, syncLedger, adFeed] = await Promise.all([
    listApiCalls(prisma, shop, { statusClass, cursor: params.get("calls") }),
    listShopJobs(prisma, shop, { state, cursor: params.get("jobs") }),
    listDataRequests(prisma, shop),
    listShopAuditEvents(prisma, shop),
    loadSyncLedger(prisma, shop),
    loadFeedActivity(prisma, shop),
  ]);
  return {
    statusClass,
    jobState: state,
    calls,
    jobs,
    dataRequests,
    // Instants on the shop's wall clock, written by the page in the reader's format.
    sharingLog: sharingLog.map((event) => ({ ...event, atLocal: localTime(event.at, DEFAULT_TIME_ZONE) })),
    syncLedger: ledgerOnPage(syncLedger, DEFAULT_TIME_ZONE),
    adFeed,
  };
}

export async function activityPageAction(
  request: Request,
  shop: string,
): Promise<ActivityActionResult | SyncLedgerActionResult> {
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "retryJob") {
    const id = form.get("id");
    try {
      return { intent, ok: await retryShopJob(prisma, shop, typeof id === "string" ? id : "") };
    } catch (error) {
      if (error instanceof JobNotFoundError) throw new Response("Not found", { status: 404 });
      throw error;
    }
  }
  if (intent === "retryAllDead") return { intent, ok: true, count: await retryAllDeadJobs(prisma, shop) };
  if (intent === RECONCILE_NOW_INTENT) {
    await reconcileNow(prisma, shop, new Date());
    return { intent, ok: true };
  }
  throw new Response("Unknown intent", { status: 400 });
}

/** What the app holds on a customer who asked Shopify for their data, as a JSON file. */
export async function dataRequestFile(shop: string, id: string): Promise<Response> {
  const exported = await dataRequestExport(prisma, shop, id);
  if (!exported) throw new Response("Not found", { status: 404 });
  const day = exported.request.receivedAt.slice(0, 10);
  return fileResponse(JSON.stringify(exported, null, 2), "json", `data-request-${day}-${exported.request.id}.json`);
}
