/**
 * The weekly charts drawn with Polaris Viz. Browser only (it measures its
 * container); WeeklyCharts.tsx loads it after hydration.
 */
import { BarChart, LineChart, PolarisVizProvider } from "@shopify/polaris-viz";
import type { Formatter } from "../../i18n";
import { useFormat, useT, type Translate } from "../../i18n/react";
import type { WeekPoint } from "../../analytics/report";
import { CHART_HEIGHT } from "./chart-size";
import { weekLabel } from "./format";

/**
 * A week on the axis: its number alone ("W47"); the table below the charts names its days.
 * Polaris Viz guesses a label's height as a line per word and per hyphen and
 * cuts the label past five: fewer words keep the label whole.
 */
const axisLabel = (format: Formatter, t: Translate, week: string) => weekLabel(format, t, week, "axis");

export default function WeeklyChartsViz({ weeks, which }: { weeks: WeekPoint[]; which: 0 | 1 }) {
  const t = useT();
  const format = useFormat();
  const rateSeries = [
    {
      name: t("analytics.weeks.series.deliveryRate"),
      // A week without a shipped parcel has no rate: left out, not drawn as 0 %.
      data: weeks.flatMap((w) =>
        w.deliveryRate.rate === null
          ? []
          : [{ key: axisLabel(format, t, w.week), value: Math.round(w.deliveryRate.rate * 1000) / 10 }],
      ),
    },
  ];
  const moneySeries = [
    {
      name: t("analytics.weeks.series.collected"),
      data: weeks.map((w) => ({ key: axisLabel(format, t, w.week), value: w.collectedCents / 100 })),
    },
  ];
  // "W47 · 16-22 Nov" on two lines when the weeks are many: readable, never cut.
  const xAxisOptions = { allowLineWrap: true };
  return (
    <PolarisVizProvider>
      {which === 0 ? (
        <div style={{ height: CHART_HEIGHT }} data-chart="deliveryRate">
          <LineChart
            data={rateSeries}
            theme="Light"
            isAnimated={false}
            showLegend={false}
            xAxisOptions={xAxisOptions}
            yAxisOptions={{ labelFormatter: (v) => format.percent(Number(v) / 100) }}
          />
        </div>
      ) : (
        <div style={{ height: CHART_HEIGHT }} data-chart="collected">
          <BarChart
            data={moneySeries}
            theme="Light"
            isAnimated={false}
            showLegend={false}
            xAxisOptions={xAxisOptions}
            yAxisOptions={{ labelFormatter: (v) => format.money(Math.round(Number(v)) * 100) }}
          />
        </div>
      )}
    </PolarisVizProvider>
  );
}
