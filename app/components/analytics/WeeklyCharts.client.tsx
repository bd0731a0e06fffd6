/**
 * The weekly charts drawn with Polaris Viz. Browser only (it measures its
 * container); WeeklyCharts.tsx loads it after hydration.
 */
import { BarChart, LineChart, PolarisVizProvider } from "@shopify/polaris-viz";
import { useFormat, useT } from "../../i18n/react";
import type { WeekPoint } from "../../analytics/report";
import { CHART_HEIGHT } from "./chart-size";

export default function WeeklyChartsViz({ weeks, which }: { weeks: WeekPoint[]; which: 0 | 1 }) {
  const t = useT();
  const format = useFormat();
  const rateSeries = [
    {
      name: t("analytics.weeks.series.deliveryRate"),
      // A week without a shipped parcel has no rate: left out, not drawn as 0 %.
      data: weeks.flatMap((w) => (w.deliveryRate.rate === null ? [] : [{ key: format.dayMonth(w.week), value: Math.round(w.deliveryRate.rate * 1000) / 10 }])),
    },
  ];
  const moneySeries = [{ name: t("analytics.weeks.series.collected"), data: weeks.map((w) => ({ key: format.dayMonth(w.week), value: w.collectedCents / 100 })) }];
  return (
    <PolarisVizProvider>
      {which === 0 ? (
      <div style={{ height: CHART_HEIGHT }} data-chart="deliveryRate">
        <LineChart
          data={rateSeries}
          theme="Light"
          isAnimated={false}
          showLegend={false}
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
          yAxisOptions={{ labelFormatter: (v) => format.money(Math.round(Number(v)) * 100) }}
        />
      </div>
      )}
    </PolarisVizProvider>
  );
}
