/**
 * The parcels of one ledger view: order, lead, days, amounts; columns follow the state.
 * A table from Polaris' md breakpoint up; below it (a phone) one card per parcel: the
 * order and its lead, then the other columns labelled two by two, so the amounts read
 * without scrolling sideways.
 */
import { DataTable, InlineStack, Link, Text } from "@shopify/polaris";
import { useFormat, useT } from "../../i18n/react";
import type { CashState } from "../../analytics/cash";
import type { CashParcelRow } from "../../analytics/cash-list.server";

interface Column {
  heading: string;
  numeric: boolean;
  cell: (r: CashParcelRow) => React.ReactNode;
}

export function CashParcelsTable({ state, rows }: { state: CashState; rows: CashParcelRow[] }) {
  const t = useT();
  const format = useFormat();
  const profit = (r: CashParcelRow) =>
    r.profitCents === null ? (
      <Text key="profit" as="span" tone="subdued">
        {t("cash.profit.unknown")}
      </Text>
    ) : (
      format.money(r.profitCents)
    );
  const day = (value: string | null) => (value ? format.date(value) : "");

  const lead: Column = { heading: t("cash.column.lead"), numeric: false, cell: (r) => r.leadRef ?? "" };
  // After the order and its lead: the days and the amounts the view is about.
  const columns: Column[] = [
    ...(state === "returned"
      ? [
          { heading: t("cash.column.returned"), numeric: false, cell: (r: CashParcelRow) => day(r.returnedDay) },
          {
            heading: t("cash.column.amountToCollect"),
            numeric: true,
            cell: (r: CashParcelRow) => format.money(r.totalCents),
          },
        ]
      : [
          { heading: t("cash.column.delivered"), numeric: false, cell: (r: CashParcelRow) => day(r.deliveredDay) },
          state === "owed"
            ? {
                heading: t("cash.column.age"),
                numeric: true,
                cell: (r: CashParcelRow) => (r.ageDays === null ? "" : t("cash.days", { count: r.ageDays })),
              }
            : { heading: t("cash.column.paid"), numeric: false, cell: (r: CashParcelRow) => day(r.paidDay) },
          { heading: t("cash.column.amount"), numeric: true, cell: (r: CashParcelRow) => format.money(r.totalCents) },
          { heading: t("cash.column.profit"), numeric: true, cell: profit },
        ]),
  ];

  return (
    <>
      <div className="cod-wide-only" data-cash-table={state}>
        <DataTable
          columnContentTypes={["text", "text", ...columns.map((c) => (c.numeric ? "numeric" : "text"))]}
          headings={[t("cash.column.order"), lead.heading, ...columns.map((c) => c.heading)]}
          rows={rows.map((r) => [
            <Link key="order" url={`/app/orders/${r.linkId}`} removeUnderline>
              <span data-parcel={r.orderName}>{r.orderName}</span>
            </Link>,
            lead.cell(r),
            ...columns.map((c) => c.cell(r)),
          ])}
        />
      </div>
      <ul className="cod-phone-only cod-parcel-cards" data-cash-cards={state}>
        {rows.map((r) => (
          <li key={r.linkId} data-parcel-card={r.orderName}>
            <InlineStack align="space-between" gap="200">
              <Link url={`/app/orders/${r.linkId}`} removeUnderline>
                <Text as="span" fontWeight="semibold">
                  {r.orderName}
                </Text>
              </Link>
              <Text as="span" tone="subdued">
                {lead.cell(r)}
              </Text>
            </InlineStack>
            <dl>
              {columns.map((c) => (
                <div key={c.heading}>
                  <dt>{c.heading}</dt>
                  <dd>{c.cell(r)}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}
