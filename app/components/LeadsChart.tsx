/**
 * Leads per day by outcome as stacked bars in plain SVG: no chart library, the
 * same markup on server and client, colours from Polaris tokens.
 */
import { BlockStack, InlineStack, Text } from "@shopify/polaris";
import type { MessageKey } from "../i18n";
import { useFormat, useT } from "../i18n/react";

export const CHART_OUTCOMES = ["delivered", "inDelivery", "awaiting", "damaged", "lost"] as const;
export type ChartOutcome = (typeof CHART_OUTCOMES)[number];
export type LeadsChartDay = { day: string } & Record<ChartOutcome, number>;

const COLOURS: Record<ChartOutcome, string> = {
  delivered: "var(--p-color-bg-fill-success)",
  inDelivery: "var(--p-color-bg-fill-info)",
  awaiting: "var(--p-color-bg-fill-caution)",
  damaged: "var(--p-color-bg-fill-warning)",
  lost: "var(--p-color-bg-fill-critical)",
};

const LABELS: Record<ChartOutcome, MessageKey> = {
  delivered: "home.outcome.delivered",
  inDelivery: "home.outcome.inDelivery",
  awaiting: "home.outcome.awaiting",
  damaged: "home.outcome.damaged",
  lost: "home.outcome.lost",
};

const WIDTH = 700;
const HEIGHT = 180;
const AXIS = 20;

export function LeadsChart({ days }: { days: LeadsChartDay[] }) {
  const t = useT();
  const format = useFormat();
  const totals = days.map((d) => CHART_OUTCOMES.reduce((sum, o) => sum + d[o], 0));
  const max = Math.max(1, ...totals);
  const slot = WIDTH / Math.max(1, days.length);
  const barWidth = slot * 0.6;
  const scale = (HEIGHT - AXIS - 14) / max;

  return (
    <BlockStack gap="300">
      <svg
        role="img"
        aria-label={t("home.chart.description")}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        style={{ display: "block", maxHeight: HEIGHT * 1.5 }}
      >
        <line x1={0} x2={WIDTH} y1={HEIGHT - AXIS} y2={HEIGHT - AXIS} stroke="var(--p-color-border)" />
        {days.map((d, i) => {
          let y = HEIGHT - AXIS;
          const x = i * slot + (slot - barWidth) / 2;
          return (
            <g key={d.day} data-chart-day={d.day} data-chart-total={totals[i]}>
              <title>{`${format.date(d.day)}: ${format.integer(totals[i])}`}</title>
              {CHART_OUTCOMES.map((o) => {
                const h = d[o] * scale;
                y -= h;
                return h > 0 ? <rect key={o} x={x} y={y} width={barWidth} height={h} fill={COLOURS[o]} rx={2} /> : null;
              })}
              {totals[i] > 0 ? (
                <text
                  x={x + barWidth / 2}
                  y={y - 3}
                  textAnchor="middle"
                  fontSize={10}
                  fill="var(--p-color-text-secondary)"
                >
                  {format.integer(totals[i])}
                </text>
              ) : null}
              <text
                x={x + barWidth / 2}
                y={HEIGHT - 6}
                textAnchor="middle"
                fontSize={10}
                fill="var(--p-color-text-secondary)"
              >
                {format.dayMonth(d.day)}
              </text>
            </g>
          );
        })}
      </svg>
      <InlineStack gap="400" wrap>
        {CHART_OUTCOMES.map((o) => (
          <InlineStack key={o} gap="100" blockAlign="center">
            <svg width="10" height="10" aria-hidden="true">
              <rect width="10" height="10" rx="2" fill={COLOURS[o]} />
            </svg>
            <Text as="span" variant="bodySm" tone="subdued">
              {t(LABELS[o])}
            </Text>
          </InlineStack>
        ))}
      </InlineStack>
    </BlockStack>
  );
}
