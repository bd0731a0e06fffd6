/** The shop's job queue: counts per state, the jobs waiting or failed, and retry (one, or every dead job). */
import { useEffect } from "react";
import { useFetcher } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Badge, Button, InlineStack, Select, Text } from "@shopify/polaris";
import { StackedTable } from "../StackedTable";
import { translateCode, useFormat, useT } from "../../i18n/react";
import { CardHeading } from "../CardHeading";
import { ActivityTableCard, zonedIntro } from "./ActivityTableCard";
import type { JobView, VisibleJobState } from "../../pages/activity.server";
import type { ActivityActionResult } from "../../pages/activity-intents";
import type { JobState } from "../../queue/types";

const STATES: VisibleJobState[] = ["pending", "running", "failed", "dead"];
const TONES: Record<JobState, "info" | "attention" | "warning" | "critical" | "success"> = {
  pending: "info",
  running: "attention",
  failed: "warning",
  dead: "critical",
  done: "success",
};

export function JobsCard({
  jobs,
  counts,
  state,
  hasNext,
  hasPrevious,
  onState,
  onNext,
  onPrevious,
}: {
  jobs: JobView[];
  counts: Record<JobState, number>;
  state: VisibleJobState | null;
  hasNext: boolean;
  hasPrevious: boolean;
  onState(state: VisibleJobState | null): void;
  onNext(): void;
  onPrevious(): void;
}) {
  const t = useT();
  const format = useFormat();
  const shopify = useAppBridge();
  const fetcher = useFetcher<ActivityActionResult>();
  const result = fetcher.data;

  useEffect(() => {
    if (!result) return;
    if (result.intent === "retryAllDead") shopify.toast.show(t("activity.jobs.retriedAll", { count: result.count }));
    else if (result.ok) shopify.toast.show(t("activity.jobs.retried"));
    else shopify.toast.show(t("activity.jobs.notRetryable"), { isError: true });
  }, [result, shopify, t]);

  const busyId = fetcher.state !== "idle" ? fetcher.formData?.get("id") : undefined;

  return (
    <ActivityTableCard
      header={
        <>
          <InlineStack align="space-between" blockAlign="center" gap="300">
            <CardHeading title={t("activity.jobs.title")} intro={zonedIntro(t, t("activity.jobs.intro"))} />
            <Button
              disabled={counts.dead === 0}
              loading={fetcher.state !== "idle" && fetcher.formData?.get("intent") === "retryAllDead"}
              onClick={() => fetcher.submit({ intent: "retryAllDead" }, { method: "post" })}
            >
              {t("activity.jobs.retryAllDead", { count: counts.dead })}
            </Button>
          </InlineStack>
          <InlineStack gap="200" blockAlign="center">
            {STATES.map((s) => (
              <span key={s} data-count={s}>
                <Badge
                  tone={counts[s] > 0 ? TONES[s] : undefined}
                >{`${t(`activity.jobState.${s}`)}: ${counts[s]}`}</Badge>
              </span>
            ))}
          </InlineStack>
          <div style={{ maxWidth: "20rem" }}>
            <Select
              label={t("activity.jobs.filter")}
              options={[
                { label: t("activity.jobs.filterAll"), value: "" },
                ...STATES.map((s) => ({ label: t(`activity.jobState.${s}`), value: s })),
              ]}
              value={state ?? ""}
              onChange={(value) => onState(STATES.find((s) => s === value) ?? null)}
            />
          </div>
        </>
      }
      empty={jobs.length === 0 ? t("activity.jobs.empty") : null}
      pages={{ hasNext, hasPrevious, onNext, onPrevious, label: t("activity.jobs.pages") }}
      table={() => (
        <StackedTable
          label={t("activity.jobs.title")}
          data-jobs-table
          headings={[
            t("activity.jobs.col.kind"),
            t("activity.jobs.col.order"),
            t("activity.jobs.col.state"),
            t("activity.jobs.col.attempts"),
            t("activity.jobs.col.lastError"),
            t("activity.jobs.col.runAt"),
            { title: t("mappings.col.actions"), end: true },
          ]}
          rows={jobs.map((job) => ({
            key: job.id,
            cells: [
              translateCode(t, "activity.jobKind", job.kind),
              job.orderName ?? "—",
              <Badge key="state" tone={TONES[job.state]}>
                {t(`activity.jobState.${job.state}`)}
              </Badge>,
              t("activity.jobs.attempts", { attempts: job.attempts, max: job.maxAttempts }),
              job.lastError ? (
                <div key="error" className="cod-cell-wrap">
                  <Text as="span" variant="bodySm" tone={job.state === "dead" ? "critical" : "subdued"} breakWord>
                    <span lang="en" translate="no">
                      {job.lastError}
                    </span>
                  </Text>
                </div>
              ) : null,
              format.dateTime(job.runAt, { seconds: true }),
              job.retryable ? (
                <Button
                  key="retry"
                  size="slim"
                  loading={busyId === job.id}
                  onClick={() => fetcher.submit({ intent: "retryJob", id: job.id }, { method: "post" })}
                >
                  {t("activity.jobs.retry")}
                </Button>
              ) : null,
            ],
          }))}
        />
      )}
    />
  );
}
