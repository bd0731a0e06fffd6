/**
 * Activity: the job queue (counts, failures, retry), the Seller Order API call log,
 * the conversion feed's sends, the customers' data requests with their exports, and
 * the sharing log (store pairing).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { BlockStack, Layout, Page } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import prisma from "../db.server";
import {
  isStatusClass,
  isVisibleJobState,
  JobNotFoundError,
  listApiCalls,
  listShopJobs,
  retryAllDeadJobs,
  retryShopJob,
} from "../pages/activity.server";
import { listDataRequests } from "../customers/compliance.server";
import { useT } from "../i18n/react";
import { ApiCallsCard } from "../components/activity/ApiCallsCard";
import { JobsCard, type ActivityActionResult } from "../components/activity/JobsCard";
import { DataRequestsCard } from "../components/activity/DataRequestsCard";
import { SharingLogCard } from "../components/activity/SharingLogCard";
import { listShopAuditEvents } from "../customers/pairing.server";
import {
  RECONCILE_NOW_INTENT,
  SyncLedgerSection,
  type SyncLedgerActionResult,
} from "../components/activity/SyncLedgerSection";
import { loadSyncLedger } from "../pages/sync-ledger.server";
import { ledgerOnPage } from "../pages/sync-ledger-times";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { localTime } from "../time-zone";
import { reconcileNow } from "../sync/reconcile/pass.server";
import { AdFeedActivityCard } from "../components/activity/AdFeedActivityCard";
import { loadFeedActivity } from "../pages/ad-feed.server";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const params = new URL(request.url).searchParams;
  const status = params.get("status");
  const jobState = params.get("jobState");
  const statusClass = isStatusClass(status) ? status : "all";
  const state = isVisibleJobState(jobState) ? jobState : null;
  const [calls, jobs, dataRequests, sharingLog, syncLedger, adFeed] = await Promise.all([
    listApiCalls(prisma, session.shop, { statusClass, cursor: params.get("calls") }),
    listShopJobs(prisma, session.shop, { state, cursor: params.get("jobs") }),
    listDataRequests(prisma, session.shop),
    listShopAuditEvents(prisma, session.shop),
    loadSyncLedger(prisma, session.shop),
    loadFeedActivity(prisma, session.shop),
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
});

export const action = withErrorReference(
  async ({ request }: ActionFunctionArgs): Promise<ActivityActionResult | SyncLedgerActionResult> => {
    const { session } = await authenticate.admin(request);
    const form = await request.formData();
    const intent = form.get("intent");
    if (intent === "retryJob") {
      const id = form.get("id");
      try {
        return { intent, ok: await retryShopJob(prisma, session.shop, typeof id === "string" ? id : "") };
      } catch (error) {
        if (error instanceof JobNotFoundError) throw new Response("Not found", { status: 404 });
        throw error;
      }
    }
    if (intent === "retryAllDead") return { intent, ok: true, count: await retryAllDeadJobs(prisma, session.shop) };
    if (intent === RECONCILE_NOW_INTENT) {
      await reconcileNow(prisma, session.shop, new Date());
      return { intent, ok: true };
    }
    throw new Response("Unknown intent", { status: 400 });
  },
);

/** Forward-only cursors, with the ones already passed kept in the URL for "previous". */
function pagerFor(params: URLSearchParams, set: (next: URLSearchParams) => void, name: string) {
  const trailName = `${name}Trail`;
  const trail = (params.get(trailName) ?? "").split(",").filter(Boolean);
  const change = (cursor: string | null, nextTrail: string[]) => {
    const next = new URLSearchParams(params);
    if (cursor) next.set(name, cursor);
    else next.delete(name);
    if (nextTrail.length) next.set(trailName, nextTrail.join(","));
    else next.delete(trailName);
    set(next);
  };
  return {
    hasPrevious: trail.length > 0,
    next: (cursor: string) => change(cursor, [...trail, params.get(name) ?? "~"]),
    previous: () => {
      const previous = trail[trail.length - 1];
      change(previous === "~" ? null : (previous ?? null), trail.slice(0, -1));
    },
  };
}

export default function Activity() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  const [params, setParams] = useSearchParams();
  const callsPager = pagerFor(params, setParams, "calls");
  const jobsPager = pagerFor(params, setParams, "jobs");
  const filter = (name: string, value: string | null, reset: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    next.delete(reset);
    next.delete(`${reset}Trail`);
    setParams(next);
  };

  return (
    <Page title={t("activity.title")} backAction={{ content: t("nav.settings"), url: "/app/settings" }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <SyncLedgerSection ledger={data.syncLedger} />
            <JobsCard
              jobs={data.jobs.jobs}
              counts={data.jobs.counts}
              state={data.jobState}
              hasNext={data.jobs.nextCursor !== null}
              hasPrevious={jobsPager.hasPrevious}
              onState={(state) => filter("jobState", state, "jobs")}
              onNext={() => data.jobs.nextCursor && jobsPager.next(data.jobs.nextCursor)}
              onPrevious={jobsPager.previous}
            />
            <ApiCallsCard
              calls={data.calls.calls}
              statusClass={data.statusClass}
              hasNext={data.calls.nextCursor !== null}
              hasPrevious={callsPager.hasPrevious}
              onStatusClass={(value) => filter("status", value === "all" ? null : value, "calls")}
              onNext={() => data.calls.nextCursor && callsPager.next(data.calls.nextCursor)}
              onPrevious={callsPager.previous}
            />
            {data.adFeed ? <AdFeedActivityCard activity={data.adFeed} /> : null}
            <DataRequestsCard requests={data.dataRequests} />
            <SharingLogCard events={data.sharingLog} />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
