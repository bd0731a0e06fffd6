/** Today / 7 days / 30 days side by side, one row per figure; each figure opens the orders it counts. */
import { BlockStack, Card, InlineGrid, Link, Text } from "@shopify/polaris";
import type { MessageKey } from "../i18n";
import { useFormat, useT } from "../i18n/react";
import type { FigureName, FigurePeriod, PeriodFigures } from "../pages/home.server";

const PERIODS = [
  ["today", "home.period.today"],
  ["last7", "home.period.last7"],
  ["last30", "home.period.last30"],
] as const;

type FigureRow = [MessageKey, (f: PeriodFigures) => string];

export function DashboardFigures({
  figures,
  links,
}: {
  figures: Record<(typeof PERIODS)[number][0], PeriodFigures>;
  links: Record<FigurePeriod, Record<FigureName, string>>;
}) {
  const t = useT();
  const format = useFormat();
  const rate = (r: number | null) => (r === null ? t("home.figure.noRate") : format.percent(r));
  const rows: FigureRow[] = [
    ["home.figure.sent", (f) => format.integer(f.sent)],
    ["home.figure.held", (f) => format.integer(f.held)],
    ["home.figure.damaged", (f) => format.integer(f.damaged)],
    ["home.figure.confirmationRate", (f) => rate(f.confirmationRate)],
    ["home.figure.deliveryRate", (f) => rate(f.deliveryRate)],
    ["home.figure.collected", (f) => format.money(f.collectedCents)],
  ];
  return (
    <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
      {PERIODS.map(([period, label]) => (
        <Card key={period}>
          <BlockStack gap="300">
            <Text as="h2" variant="headingSm">
              {t(label)}
            </Text>
            <BlockStack gap="200">
              {rows.map(([key, value]) => (
                <div key={key} data-figure={`${period}.${key.slice("home.figure.".length)}`}>
                  <Text as="p" variant="bodySm" tone="subdued">
                    {t(key)}
                  </Text>
                  <Link url={links[period][key.slice("home.figure.".length) as FigureName]} removeUnderline monochrome>
                    <Text as="span" variant="headingLg">
                      {value(figures[period])}
                    </Text>
                    <span className="cod-visually-hidden">{` ${t("home.figure.open", { figure: t(key), period: t(label) })}`}</span>
                  </Link>
                </div>
              ))}
            </BlockStack>
          </BlockStack>
        </Card>
      ))}
    </InlineGrid>
  );
}
