/**
 * Orders -> sent -> confirmed -> shipped -> delivered, each step with its share
 * of the step before (denominator in the tooltip), the previous period, and what
 * was lost before the next step, by cause.
 */
import type { ReactNode } from "react";
import { BlockStack, Button, Card, DataTable, InlineStack, Text } from "@shopify/polaris";
import { useFormat, useT } from "../../i18n/react";
import { FUNNEL_STEPS, IN_PROGRESS, LOSS_CAUSES, rate, type FunnelStep, type LossCause, type Summary } from "../../analytics/report";
import { integer } from "./format";
import { RateText } from "./RateText";

export function FunnelCard({ current, previous, onExport, exporting }: { current: Summary; previous: Summary; onExport: () => void; exporting: boolean }) {
  const t = useT();
  const format = useFormat();

  const lostCell = (step: FunnelStep) => {
    const causes: readonly LossCause[] = (LOSS_CAUSES as Record<string, readonly LossCause[]>)[step] ?? [];
    const progress = (IN_PROGRESS as Record<string, keyof Summary["inProgress"]>)[step];
    if (causes.length === 0) return "";
    const items = causes
      .map((cause) => ({ cause, n: current.losses[cause] }))
      .filter((c) => c.n > 0)
      .map((c) => (
        <span key={c.cause} data-loss={c.cause} title={t("analytics.rate.ofStep", { part: integer(format, c.n), whole: integer(format, current.steps[step]) })}>
          {t("analytics.lossItem", { count: integer(format, c.n), cause: t(`analytics.cause.${c.cause}`) })}
        </span>
      ));
    return (
      <BlockStack gap="050">
        <Text as="span">{items.length ? items.reduce<ReactNode[]>((all, item, i) => (i ? [...all, ", ", item] : [item]), []) : t("analytics.funnel.noLoss")}</Text>
        {progress && current.inProgress[progress] > 0 ? (
          <Text as="span" tone="subdued" variant="bodySm">
            {t("analytics.funnel.inProgress", { what: t(`analytics.progress.${progress}`, { count: integer(format, current.inProgress[progress]) }) })}
          </Text>
        ) : null}
      </BlockStack>
    );
  };

  const rows = FUNNEL_STEPS.map((step, i) => [
    <span key="step" data-step={step}>
      {t(`analytics.step.${step}`)}
    </span>,
    <span key="n" data-step-count={step}>
      {integer(format, current.steps[step])}
    </span>,
    i === 0 ? "" : <RateText key="r" rate={rate(current.steps[step], current.steps[FUNNEL_STEPS[i - 1]])} of="analytics.rate.ofPrevious" />,
    integer(format, previous.steps[step]),
    lostCell(step),
  ]);

  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t("analytics.funnel.title")}
          </Text>
          <Button onClick={onExport} loading={exporting}>
            {t("analytics.exportFunnel")}
          </Button>
        </InlineStack>
        <Text as="p" tone="subdued">
          {t("analytics.funnel.description")}
        </Text>
        <DataTable
          columnContentTypes={["text", "numeric", "numeric", "numeric", "text"]}
          headings={[
            t("analytics.funnel.column.step"),
            t("analytics.funnel.column.orders"),
            t("analytics.funnel.column.conversion"),
            t("analytics.funnel.column.previous"),
            t("analytics.funnel.column.lost"),
          ]}
          rows={rows}
          verticalAlign="top"
        />
      </BlockStack>
    </Card>
  );
}
