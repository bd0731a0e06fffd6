/**
 * The city or product table: sortable by any figure (in the browser), the long
 * tail added up in "Others" (always last), with a CSV export of every line.
 */
import { useMemo, useState } from "react";
import { BlockStack, Button, Card, DataTable, InlineStack, Text, type SortDirection } from "@shopify/polaris";
import { useFormat, useT } from "../../i18n/react";
import { OTHERS_KEY, sortLines, type BreakdownLine, type SortKey } from "../../analytics/report";
import { days, integer, money } from "./format";
import { RateText } from "./RateText";

// Column order; the first is the name.
const COLUMNS: SortKey[] = [
  "label",
  "orders",
  "deliveryRate",
  "returnRate",
  "collectedCents",
  "profitCents",
  "medianDeliveryDays",
];

export function BreakdownTable({
  id,
  title,
  nameHeading,
  lines,
  note,
  unknownLabel,
  onExport,
  exporting,
}: {
  id: "cities" | "products";
  title: string;
  nameHeading: string;
  lines: BreakdownLine[];
  note?: string;
  unknownLabel?: string;
  onExport: () => void;
  exporting: boolean;
}) {
  const t = useT();
  const format = useFormat();
  const [sort, setSort] = useState<{ column: number; direction: SortDirection }>({
    column: 1,
    direction: "descending",
  });
  const others = lines.find((l) => l.key === OTHERS_KEY);
  const sorted = useMemo(
    () => [
      ...sortLines(
        lines.filter((l) => l.key !== OTHERS_KEY),
        COLUMNS[sort.column],
        sort.direction === "ascending" ? "asc" : "desc",
      ),
      ...(others ? [others] : []),
    ],
    [lines, others, sort],
  );

  const rows = sorted.map((l) => [
    <span key="name" data-line={l.key}>
      {l.key === OTHERS_KEY
        ? t("analytics.others", { count: integer(format, l.others ?? 0) })
        : l.label || unknownLabel || l.key}
    </span>,
    integer(format, l.orders),
    <RateText key="d" rate={l.deliveryRate} of="analytics.rate.deliveredOfShipped" />,
    <RateText key="r" rate={l.returnRate} of="analytics.rate.returnedOfShipped" />,
    money(format, l.collectedCents),
    money(format, l.profitCents),
    days(format, t, l.medianDeliveryDays),
  ]);

  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {title}
          </Text>
          <Button onClick={onExport} loading={exporting} accessibilityLabel={`${t("analytics.export")}: ${title}`}>
            {t("analytics.export")}
          </Button>
        </InlineStack>
        {note ? (
          <Text as="p" tone="subdued" variant="bodySm">
            {note}
          </Text>
        ) : null}
        {others ? (
          <Text as="p" tone="subdued" variant="bodySm">
            {t("analytics.others.note", { count: others.others ?? 0 })}
          </Text>
        ) : null}
        {lines.length === 0 ? (
          <Text as="p" tone="subdued">
            {t("analytics.table.empty")}
          </Text>
        ) : (
          <div data-table={id}>
            <DataTable
              columnContentTypes={["text", "numeric", "numeric", "numeric", "numeric", "numeric", "numeric"]}
              headings={[
                nameHeading,
                t("analytics.column.orders"),
                t("analytics.column.deliveryRate"),
                t("analytics.column.returnRate"),
                t("analytics.column.collected"),
                t("analytics.column.profit"),
                t("analytics.column.medianDays"),
              ]}
              rows={rows}
              sortable={[true, true, true, true, true, true, true]}
              defaultSortDirection="descending"
              initialSortColumnIndex={1}
              onSort={(column, direction) => setSort({ column, direction })}
            />
          </div>
        )}
      </BlockStack>
    </Card>
  );
}
