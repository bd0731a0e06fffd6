/**
 * Today / 7 days / 30 days side by side, one row per figure; each figure opens the
 * orders it counts. The rates and the money carry the labels and the counts of
 * Analytics' key figures: one definition, the same words on both pages.
 */
import { BlockStack, Card, InlineGrid, Link, Text } from "@shopify/polaris";
import { PhoneInset } from "./PhoneInset";
import type { MessageKey } from "../i18n";
import type { Rate } from "../analytics/report";
import { useFormat, useT } from "../i18n/react";
import type { FigureName, FigurePeriod, PeriodFigures } from "../pages/home.server";

const PERIODS = [
  ["today", "home.period.today"],
  ["last7", "home.period.last7"],
  ["last30", "home.period.last30"],
] as const;

interface FigureRow {
  figure: FigureName;
  label: MessageKey;
  value(f: PeriodFigures): string;
  /** What the figure counts, in words ("35 confirmed of 40 sent"). */
  counts?(f: PeriodFigures): string;
}

export function DashboardFigures({
  figures,
  links,
  periods,
}: {
  figures: Record<FigurePeriod, PeriodFigures>;
  links: Record<FigurePeriod, Record<FigureName, string>>;
  periods: Record<FigurePeriod, { from: string; to: string }>;
}) {
  const t = useT();
  const format = useFormat();
  const rate = (r: Rate) => (r.rate === null ? t("home.figure.noRate") : format.percent(r.rate));
  const of = (key: MessageKey, r: Rate) => t(key, { part: r.part, whole: r.whole });
  const rows: FigureRow[] = [
    { figure: "sent", label: "home.figure.sent", value: (f) => format.integer(f.sent) },
    { figure: "held", label: "home.figure.held", value: (f) => format.integer(f.held) },
    { figure: "damaged", label: "home.figure.damaged", value: (f) => format.integer(f.damaged) },
    {
      figure: "confirmationRate",
      label: "analytics.figure.confirmationRate",
      value: (f) => rate(f.confirmationRate),
      counts: (f) => of("analytics.rate.confirmedOfSent", f.confirmationRate),
    },
    {
      figure: "deliveryRate",
      label: "analytics.figure.deliveryRate",
      value: (f) => rate(f.deliveryRate),
      counts: (f) => of("analytics.rate.deliveredOfShipped", f.deliveryRate),
    },
    {
      figure: "collected",
      label: "analytics.figure.netCollected",
      value: (f) => format.money(f.collectedCents),
      counts: (f) => t("home.figure.collectedOf", { count: f.delivered, delivered: format.integer(f.delivered) }),
    },
  ];
  const days = (period: FigurePeriod) => {
    const { from, to } = periods[period];
    return from === to
      ? t("home.period.placedOn", { day: format.dayMonth(from) })
      : t("home.period.placedBetween", { from: format.dayMonth(from), to: format.dayMonth(to) });
  };
  return (
    <BlockStack gap="200">
      <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
        {PERIODS.map(([period, label]) => (
          <Card key={period}>
            <BlockStack gap="300">
              <BlockStack gap="050">
                <Text as="h2" variant="headingSm">
                  {t(label)}
                </Text>
                <Text as="p" variant="bodySm" tone="subdued">
                  <span data-period-days={period}>{days(period)}</span>
                </Text>
              </BlockStack>
              <BlockStack gap="200">
                {rows.map((row) => (
                  <div key={row.figure} data-figure={`${period}.${row.figure}`}>
                    <Text as="p" variant="bodySm" tone="subdued">
                      {t(row.label)}
                    </Text>
                    <Link url={links[period][row.figure]} removeUnderline monochrome>
                      <Text as="span" variant="headingLg">
                        {row.value(figures[period])}
                      </Text>
                      <span className="cod-visually-hidden">{` ${t("home.figure.open", { figure: t(row.label), period: t(label) })}`}</span>
                    </Link>
                    {row.counts ? (
                      <Text as="p" variant="bodySm" tone="subdued">
                        <span data-figure-counts={`${period}.${row.figure}`}>{row.counts(figures[period])}</span>
                      </Text>
                    ) : null}
                  </div>
                ))}
              </BlockStack>
            </BlockStack>
          </Card>
        ))}
      </InlineGrid>
      <PhoneInset>
        <Text as="p" variant="bodySm" tone="subdued">
          {t("home.figures.definitions")}
        </Text>
      </PhoneInset>
    </BlockStack>
  );
}
