/**
 * Activity: the job queue (counts, failures, retry), the Seller Order API call log,
 * the conversion feed's sends, the customers' data requests with their exports, and
 * the sharing log (store pairing).
 */
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { BlockStack, Layout, Page } from "@shopify/polaris";
import type { activityPageData } from "../../pages/activity-page.server";
import { useT } from "../../i18n/react";
import { ApiCallsCard } from "./ApiCallsCard";
import { JobsCard } from "./JobsCard";
import { DataRequestsCard } from "./DataRequestsCard";
import { SharingLogCard } from "./SharingLogCard";
import { SyncLedgerSection } from "./SyncLedgerSection";
import { AdFeedActivityCard } from "./AdFeedActivityCard";

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

export function ActivityPage() {
  const data = useLoaderData<typeof activityPageData>();
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
