/**
 * Orders -> sent -> confirmed -> shipped -> delivered, drawn as a funnel: one bar
 * per step, as wide as its share of the orders, with its count, its share of the
 * step before, and what was lost before the next step, by cause. The drawing is
 * hidden from screen readers, which get the same figures (and the previous
 * period) as a table; the CSV export has both.
 */
import type { ReactNode } from "react";
import { BlockStack, Box, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { useFormat, useT } from "../../i18n/react";
import {
  FUNNEL_STEPS,
  IN_PROGRESS,
  LOSS_CAUSES,
  rate,
  type FunnelStep,
  type LossCause,
  type Summary,
} from "../../analytics/report";
import { integer, percent } from "./format";
import { RateText } from "./RateText";

const VISUALLY_HIDDEN = {
  position: "absolute",
  width: 1,
  height: 1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
} as const;
/** The narrowest bar, so a step with a handful of orders is still seen. */
const MIN_BAR_PERCENT = 2;

export function FunnelCard({
  current,
  previous,
  onExport,
  exporting,
}: {
  current: Summary;
  previous: Summary;
  onExport: () => void;
  exporting: boolean;
}) {
  const t = useT();
  const format = useFormat();

  const causesOf = (step: FunnelStep): readonly LossCause[] =>
    (LOSS_CAUSES as Record<string, readonly LossCause[]>)[step] ?? [];
  const progressOf = (step: FunnelStep) => (IN_PROGRESS as Record<string, keyof Summary["inProgress"]>)[step];
  const losses = (step: FunnelStep) =>
    causesOf(step)
      .map((cause) => ({ cause, n: current.losses[cause] }))
      .filter((c) => c.n > 0)
      .map((c) => ({
        ...c,
        text: t(`analytics.loss.${c.cause}`, { count: c.n }),
      }));
  /** For the drawing: the causes in words. */
  const lossWords = (step: FunnelStep): string =>
    losses(step)
      .map((c) => c.text)
      .join(", ") || t("analytics.funnel.noLoss");
  /** For the table: each cause with the share of its step in its title. */
  const lossText = (step: FunnelStep): ReactNode => {
    const items = losses(step).map((c) => (
      <span
        key={c.cause}
        data-loss={c.cause}
        title={t("analytics.rate.ofStep", { part: c.n, whole: current.steps[step] })}
      >
        {c.text}
      </span>
    ));
    return items.length
      ? items.reduce<ReactNode[]>((all, item, i) => (i ? [...all, ", ", item] : [item]), [])
      : t("analytics.funnel.noLoss");
  };
  const progressText = (step: FunnelStep): string | null => {
    const progress = progressOf(step);
    return progress && current.inProgress[progress] > 0
      ? t("analytics.funnel.inProgress", {
          what: t(`analytics.progress.${progress}`, { count: integer(format, current.inProgress[progress]) }),
        })
      : null;
  };
  const widest = Math.max(1, current.steps.orders);

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

        <div aria-hidden="true" data-funnel="">
          <BlockStack gap="100">
            {FUNNEL_STEPS.map((step, i) => {
              const width = Math.max(MIN_BAR_PERCENT, (current.steps[step] / widest) * 100);
              const ofBefore = i === 0 ? null : rate(current.steps[step], current.steps[FUNNEL_STEPS[i - 1]]);
              const progress = progressText(step);
              return (
                <div
                  key={step}
                  style={{
                    display: "grid",
                    gridTemplateColumns: "minmax(7rem, 22%) 1fr minmax(9rem, 26%)",
                    gap: "var(--p-space-300)",
                    alignItems: "center",
                  }}
                >
                  <Text as="span" fontWeight="medium">
                    {t(`analytics.step.${step}`)}
                  </Text>
                  <div style={{ display: "flex", justifyContent: "center" }}>
                    <div
                      data-funnel-bar={step}
                      style={{
                        width: `${width}%`,
                        height: 28,
                        borderRadius: "var(--p-border-radius-150)",
                        background: "var(--p-color-bg-fill-info-secondary)",
                        border: "1px solid var(--p-color-border-info)",
                      }}
                    />
                  </div>
                  <Text as="span">
                    <Text as="span" fontWeight="semibold">
                      {integer(format, current.steps[step])}
                    </Text>
                    {ofBefore ? ` · ${percent(format, t, ofBefore)}` : ""}
                  </Text>
                  {causesOf(step).length > 0 ? (
                    <div style={{ gridColumn: "2 / 4" }}>
                      <Box paddingBlockEnd="100">
                        <Text as="p" variant="bodySm" tone="subdued">
                          {t("analytics.funnel.lostLine", { items: lossWords(step) })}
                          {progress ? ` · ${progress}` : ""}
                        </Text>
                      </Box>
                    </div>
                  ) : null}
                </div>
              );
            })}
          </BlockStack>
        </div>

        <table style={VISUALLY_HIDDEN}>
          <caption>{t("analytics.funnel.tableCaption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("analytics.funnel.column.step")}</th>
              <th scope="col">{t("analytics.funnel.column.orders")}</th>
              <th scope="col">{t("analytics.funnel.column.conversion")}</th>
              <th scope="col">{t("analytics.funnel.column.previous")}</th>
              <th scope="col">{t("analytics.funnel.column.lost")}</th>
            </tr>
          </thead>
          <tbody>
            {FUNNEL_STEPS.map((step, i) => (
              <tr key={step}>
                <th scope="row">
                  <span data-step={step}>{t(`analytics.step.${step}`)}</span>
                </th>
                <td>
                  <span data-step-count={step}>{integer(format, current.steps[step])}</span>
                </td>
                <td>
                  {i === 0 ? (
                    ""
                  ) : (
                    <RateText
                      rate={rate(current.steps[step], current.steps[FUNNEL_STEPS[i - 1]])}
                      of="analytics.rate.ofPrevious"
                    />
                  )}
                </td>
                <td>{integer(format, previous.steps[step])}</td>
                <td>
                  {causesOf(step).length ? lossText(step) : ""}
                  {progressText(step) ? ` ${progressText(step)}` : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </BlockStack>
    </Card>
  );
}
