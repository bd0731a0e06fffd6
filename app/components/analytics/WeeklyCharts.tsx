/**
 * Delivery rate and money collected per week. Polaris Viz draws in the browser
 * only, so the server renders a skeleton of exactly the charts' height (the page
 * does not move when they appear: no layout shift) and the chart module loads
 * after hydration. Screen readers get each series as a table (the chart's SVG
 * markup is not accessible: it is hidden from them), and the CSV export has both.
 */
import { useEffect, useState, type ComponentType } from "react";
import { BlockStack, Button, Card, InlineStack, SkeletonBodyText, Text } from "@shopify/polaris";
import { useFormat, useT } from "../../i18n/react";
import { money, percent, weekLabel } from "./format";
import type { WeekPoint } from "../../analytics/report";
import { CHART_HEIGHT } from "./chart-size";

type Viz = ComponentType<{ weeks: WeekPoint[]; which: 0 | 1 }>;

export function WeeklyCharts({
  weeks,
  onExport,
  exporting,
}: {
  weeks: WeekPoint[];
  onExport: () => void;
  exporting: boolean;
}) {
  const t = useT();
  const [Charts, setCharts] = useState<Viz | null>(null);
  useEffect(() => {
    let live = true;
    import("./WeeklyCharts.client").then((m) => live && setCharts(() => m.default));
    return () => {
      live = false;
    };
  }, []);

  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t("analytics.weeks.title")}
          </Text>
          <Button onClick={onExport} loading={exporting}>
            {t("analytics.exportWeeks")}
          </Button>
        </InlineStack>
        {/* One chart per row: a week label ("W47 · 16-22 Nov") needs the width to stand level. */}
        <div style={{ display: "grid", gridTemplateColumns: "1fr", gap: "var(--p-space-400)" }}>
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {t("analytics.weeks.deliveryRate")}
            </Text>
            <ChartSlot Charts={Charts} weeks={weeks} which={0} />
            <SeriesTable weeks={weeks} which={0} caption={t("analytics.weeks.deliveryRate")} />
          </BlockStack>
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {t("analytics.weeks.collected")}
            </Text>
            <ChartSlot Charts={Charts} weeks={weeks} which={1} />
            <SeriesTable weeks={weeks} which={1} caption={t("analytics.weeks.collected")} />
          </BlockStack>
        </div>
      </BlockStack>
    </Card>
  );
}

function ChartSlot({ Charts, weeks, which }: { Charts: Viz | null; weeks: WeekPoint[]; which: 0 | 1 }) {
  const t = useT();
  if (!Charts) {
    return (
      <div style={{ height: CHART_HEIGHT, overflow: "hidden" }} aria-hidden="true" title={t("analytics.weeks.loading")}>
        <SkeletonBodyText lines={8} />
      </div>
    );
  }
  // inert: the chart's focusable points would otherwise be reachable by Tab but hidden from screen readers.
  return (
    <div aria-hidden="true" ref={(el) => el?.setAttribute("inert", "")}>
      <Charts weeks={weeks} which={which} />
    </div>
  );
}

const VISUALLY_HIDDEN = {
  position: "absolute",
  width: 1,
  height: 1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
} as const;

function SeriesTable({ weeks, which, caption }: { weeks: WeekPoint[]; which: 0 | 1; caption: string }) {
  const t = useT();
  const format = useFormat();
  return (
    <table style={VISUALLY_HIDDEN}>
      <caption>{caption}</caption>
      <tbody>
        {weeks.map((w) => (
          <tr key={w.week}>
            <th scope="row">
              <span data-week={w.week}>{weekLabel(format, t, w.week)}</span>
            </th>
            <td>{which === 0 ? percent(format, t, w.deliveryRate) : money(format, w.collectedCents)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
