/**
 * The Seller Order API call log. A 5xx shows its exact time to the millisecond: the
 * platform's support needs it to find the failed call in its own logs.
 */
import { Badge, BlockStack, Select, Text } from "@shopify/polaris";
import { StackedTable } from "../StackedTable";
import { useFormat, useT } from "../../i18n/react";
import { CardHeading } from "../CardHeading";
import { ActivityTableCard, zonedIntro } from "./ActivityTableCard";
import type { ApiCallView, StatusClass } from "../../pages/activity.server";

const CLASSES: StatusClass[] = ["all", "success", "client", "rate_limited", "server", "no_answer"];

function statusTone(status: number): "success" | "warning" | "critical" | "attention" | undefined {
  if (status === 0) return "attention";
  if (status >= 500) return "critical";
  if (status === 429) return "warning";
  if (status >= 400) return "warning";
  if (status >= 200 && status < 300) return "success";
  return undefined;
}

export function ApiCallsCard({
  calls,
  statusClass,
  hasNext,
  hasPrevious,
  onStatusClass,
  onNext,
  onPrevious,
}: {
  calls: ApiCallView[];
  statusClass: StatusClass;
  hasNext: boolean;
  hasPrevious: boolean;
  onStatusClass(value: StatusClass): void;
  onNext(): void;
  onPrevious(): void;
}) {
  const t = useT();
  const format = useFormat();
  return (
    <ActivityTableCard
      header={
        <>
          <CardHeading title={t("activity.calls.title")} intro={zonedIntro(t, t("activity.calls.intro"))} />
          <div style={{ maxWidth: "20rem" }}>
            <Select
              label={t("activity.calls.filter")}
              options={CLASSES.map((c) => ({ label: t(`activity.calls.class.${c}`), value: c }))}
              value={statusClass}
              onChange={(value) => onStatusClass(CLASSES.find((c) => c === value) ?? "all")}
            />
          </div>
        </>
      }
      empty={calls.length === 0 ? t("activity.calls.empty") : null}
      pages={{ hasNext, hasPrevious, onNext, onPrevious, label: t("activity.calls.pages") }}
      table={() => (
        <StackedTable
          label={t("activity.calls.title")}
          data-calls-table
          headings={[
            t("activity.calls.col.time"),
            t("activity.calls.col.method"),
            t("activity.calls.col.path"),
            t("activity.calls.col.status"),
            { title: t("activity.calls.col.duration"), end: true },
            { title: t("activity.calls.col.attempt"), end: true },
          ]}
          rows={calls.map((call) => ({
            key: call.id,
            ...(call.exactTime ? { tone: "critical" as const } : {}),
            cells: [
              call.exactTime ? (
                <BlockStack key="time" gap="050">
                  <Text as="span" fontWeight="semibold">
                    <span data-exact-time={call.at}>
                      {t("activity.calls.exact")} <span translate="no">{call.exactTime}</span>
                    </span>
                  </Text>
                  <Text as="span" variant="bodySm" tone="critical">
                    {t("activity.calls.report")}
                  </Text>
                </BlockStack>
              ) : (
                format.dateTime(call.time, { seconds: true })
              ),
              <Text key="method" as="span" variant="bodySm" fontWeight="medium">
                {call.method}
              </Text>,
              <div key="path" className="cod-cell-wrap">
                <Text as="span" variant="bodySm" breakWord>
                  <span translate="no">{call.path}</span>
                </Text>
              </div>,
              <Badge key="status" tone={statusTone(call.status)}>
                {call.status === 0 ? t("activity.calls.noAnswer") : String(call.status)}
              </Badge>,
              t("activity.calls.duration", { ms: call.durationMs }),
              String(call.attempt),
            ],
          }))}
        />
      )}
    />
  );
}
