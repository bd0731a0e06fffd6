/** The parcels of one ledger view: order, lead, days, amounts; columns follow the state. */
import { DataTable, Link, Text } from "@shopify/polaris";
import { useFormat, useT } from "../../i18n/react";
import type { CashState } from "../../analytics/cash";
import type { CashParcelRow } from "../../analytics/cash-list.server";

export function CashParcelsTable({ state, rows }: { state: CashState; rows: CashParcelRow[] }) {
  const t = useT();
  const format = useFormat();
  const order = (r: CashParcelRow) => (
    <Link key="order" url={`/app/orders/${r.linkId}`} removeUnderline>
      <span data-parcel={r.orderName}>{r.orderName}</span>
    </Link>
  );
  const profit = (r: CashParcelRow) =>
    r.profitCents === null ? (
      <Text key="profit" as="span" tone="subdued">
        {t("cash.profit.unknown")}
      </Text>
    ) : (
      format.money(r.profitCents)
    );
  const day = (value: string | null) => (value ? format.date(value) : "");

  const columns: { heading: string; numeric: boolean; cell: (r: CashParcelRow) => React.ReactNode }[] = [
    { heading: t("cash.column.order"), numeric: false, cell: order },
    { heading: t("cash.column.lead"), numeric: false, cell: (r) => r.leadRef ?? "" },
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
    <div data-cash-table={state}>
      <DataTable
        columnContentTypes={columns.map((c) => (c.numeric ? "numeric" : "text"))}
        headings={columns.map((c) => c.heading)}
        rows={rows.map((r) => columns.map((c) => c.cell(r)))}
      />
    </div>
  );
}
