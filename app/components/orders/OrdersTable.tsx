/**
 * The Orders index: tabs, search, filters and pagination all live in the URL
 * (so a link or a reload shows the same page); rows open the order's page.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import {
  BlockStack,
  ChoiceList,
  IndexFilters,
  IndexFiltersMode,
  IndexTable,
  InlineStack,
  Link,
  Text,
  TextField,
  useBreakpoints,
  useIndexResourceState,
  useSetIndexFiltersMode,
} from "@shopify/polaris";
import type { IndexFiltersProps, IndexTableProps } from "@shopify/polaris";
import { LINK_STATES } from "../../models/order-link-state";
import { CONFIRMATION_STATUSES, SHIPPING_STATUSES } from "../../vocabulary/platform-status";
import type { OrderRow, OrderSort, OrdersFilter, OrdersPage } from "../../pages/orders.server";
import { RISK_FILTERS } from "../../customers/risk";
import { RiskBadge } from "./CustomerCard";
import { isMessageKey, type Formatter } from "../../i18n";
import { useFormat, useT, type Translate } from "../../i18n/react";
import { StageBadge } from "./StageBadge";
import { attentionText } from "./attention-text";
import { codeLabel } from "./text";
import { ContactLinks, customerAmount, type ContactSettings } from "../contact/ContactLinks";
import { OddsCell } from "./DeliveryOdds";

const ISSUES = ["sku", "stock", "city", "phone", "total", "duplicate"] as const;

const TABS: {
  id: string;
  label: "orders.tab.all" | "orders.tab.attention" | "orders.tab.sent" | "orders.tab.damaged" | "orders.tab.failed";
  states: string[];
  /** Also the sent orders that cost money (cancelled or changed in Shopify, still on their way). */
  mismatch?: boolean;
}[] = [
  { id: "all", label: "orders.tab.all", states: [] },
  { id: "attention", label: "orders.tab.attention", states: ["held", "invalid", "failed"], mismatch: true },
  { id: "sent", label: "orders.tab.sent", states: ["created"] },
  { id: "damaged", label: "orders.tab.damaged", states: ["damaged"] },
  { id: "failed", label: "orders.tab.failed", states: ["failed"] },
];

/** Parameters this page owns; the others (shop, host, locale...) are kept as they are. */
const OWN_PARAMS = [
  "state",
  "mismatch",
  "confirmation",
  "shipping",
  "issue",
  "risk",
  "from",
  "to",
  "q",
  "sort",
  "after",
  "before",
];

/** The sortable columns' indexes in the wide table, and the sort each one walks. */
const DATE_COLUMN = 1;
const AMOUNT_COLUMN = 3;

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

function label(t: Translate, prefix: string, value: string): string {
  const key = `${prefix}.${value}`;
  return isMessageKey(key) ? t(key) : value;
}

export interface OrdersTableProps {
  page: OrdersPage;
  filter: OrdersFilter & { sort: OrderSort };
  /** Bulk actions: the selected links' ids. */
  onBulk(intent: "resend" | "retryFailed", ids: string[]): void;
  busy: boolean;
  contact: ContactSettings;
  /** The request came from a phone (its user agent): the first render is already the condensed one. */
  phoneLayout: boolean;
}

export function OrdersTable({ page, filter, onBulk, busy, contact, phoneLayout }: OrdersTableProps) {
  const t = useT();
  // One column of stacked lines below 768 px (the Shopify mobile app, POS): no sideways scrolling.
  const { mdDown } = useBreakpoints({ defaults: { mdDown: phoneLayout } });
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const filtered = Boolean(
    filter.query ||
    filter.from ||
    filter.to ||
    filter.confirmation.length ||
    filter.shipping.length ||
    filter.issues.length ||
    filter.risk?.length,
  );
  // Applied filters show only in filtering mode: open it when the URL carries some.
  const { mode, setMode } = useSetIndexFiltersMode(filtered ? IndexFiltersMode.Filtering : IndexFiltersMode.Default);
  const [query, setQuery] = useState(filter.query ?? "");

  /** Navigates to this page with changes applied; any change of filter starts at page one. */
  const go = (changes: Record<string, string | string[] | undefined>, keepCursor = false) => {
    const next = new URLSearchParams(searchParams);
    next.delete("id_token");
    if (!keepCursor) {
      next.delete("after");
      next.delete("before");
    }
    for (const [name, value] of Object.entries(changes)) {
      const text = Array.isArray(value) ? value.join(",") : value;
      if (text) next.set(name, text);
      else next.delete(name);
    }
    navigate(`?${next.toString()}`, { preventScrollReset: true });
  };
  const goRef = useRef(go);
  goRef.current = go;

  // The search waits for a pause in typing.
  useEffect(() => {
    if (query.trim() === (filter.query ?? "")) return;
    const timer = setTimeout(() => goRef.current({ q: query.trim() }), 350);
    return () => clearTimeout(timer);
  }, [query, filter.query]);

  const selectable = useMemo(() => page.rows.map((r) => ({ id: r.id })), [page.rows]);
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } =
    useIndexResourceState(selectable);
  useEffect(() => clearSelection(), [page.rows, clearSelection]);

  const selectedTab = Math.max(
    0,
    TABS.findIndex((tab) => sameSet(tab.states, filter.states) && Boolean(tab.mismatch) === Boolean(filter.mismatch)),
  );
  const choice = (name: keyof typeof CHOICES, title: string, values: readonly string[], prefix: string) => ({
    key: name,
    label: title,
    filter: (
      <ChoiceList
        title={title}
        titleHidden
        allowMultiple
        choices={values.map((value) => ({ value, label: label(t, prefix, value) }))}
        selected={CHOICES[name](filter)}
        onChange={(selected) => go({ [name]: selected })}
      />
    ),
    shortcut: name === "state" || name === "issue",
  });
  const filters: IndexFiltersProps["filters"] = [
    choice("state", t("orders.filter.state"), LINK_STATES, "state"),
    choice("confirmation", t("orders.filter.confirmation"), CONFIRMATION_STATUSES, "confirmation"),
    choice("shipping", t("orders.filter.shipping"), SHIPPING_STATUSES, "shipping"),
    choice("issue", t("orders.filter.issue"), ISSUES, "orders.issue"),
    choice("risk", t("customers.filter.risk"), RISK_FILTERS, "customers.risk"),
    {
      key: "date",
      label: t("orders.filter.date"),
      filter: (
        <BlockStack gap="200">
          <TextField
            label={t("orders.filter.from")}
            type="date"
            value={filter.from ?? ""}
            onChange={(from) => go({ from })}
            autoComplete="off"
          />
          <TextField
            label={t("orders.filter.to")}
            type="date"
            value={filter.to ?? ""}
            onChange={(to) => go({ to })}
            autoComplete="off"
          />
        </BlockStack>
      ),
    },
  ];

  const applied: IndexFiltersProps["appliedFilters"] = [];
  const pill = (key: string, title: string, values: string[]) =>
    applied.push({
      key,
      label: t("orders.applied", { filter: title, values: values.join(", ") }),
      onRemove: () => go({ [key]: undefined }),
    });
  if (filter.states.length)
    pill(
      "state",
      t("orders.filter.state"),
      filter.states.map((v) => label(t, "state", v)),
    );
  if (filter.confirmation.length)
    pill(
      "confirmation",
      t("orders.filter.confirmation"),
      filter.confirmation.map((v) => label(t, "confirmation", v)),
    );
  if (filter.shipping.length)
    pill(
      "shipping",
      t("orders.filter.shipping"),
      filter.shipping.map((v) => label(t, "shipping", v)),
    );
  if (filter.issues.length)
    pill(
      "issue",
      t("orders.filter.issue"),
      filter.issues.map((v) => label(t, "orders.issue", v)),
    );
  if (filter.risk?.length)
    pill(
      "risk",
      t("customers.filter.risk"),
      filter.risk.map((v) => label(t, "customers.risk", v)),
    );
  if (filter.from || filter.to) {
    applied.push({
      key: "date",
      label: t("orders.applied", {
        filter: t("orders.filter.date"),
        values: t("orders.filter.dateValue", { from: filter.from ?? "…", to: filter.to ?? "…" }),
      }),
      onRemove: () => go({ from: undefined, to: undefined }),
    });
  }

  const selectedIds = allResourcesSelected ? page.rows.map((r) => r.id) : selectedResources;
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/app/orders";

  return (
    <>
      <IndexFilters
        tabs={TABS.map((tab) => ({ id: tab.id, content: t(tab.label), isLocked: true }))}
        selected={selectedTab}
        onSelect={(index) =>
          go({ state: TABS[index]?.states ?? [], mismatch: TABS[index]?.mismatch ? "1" : undefined })
        }
        queryValue={query}
        queryPlaceholder={t("orders.search.placeholder")}
        onQueryChange={setQuery}
        onQueryClear={() => {
          setQuery("");
          go({ q: undefined });
        }}
        filters={filters}
        appliedFilters={applied}
        onClearAll={() => {
          setQuery("");
          go(Object.fromEntries(OWN_PARAMS.map((p) => [p, undefined])));
        }}
        mode={mode}
        setMode={setMode}
        // The same sorts as the headings, reachable where the headings are not (the condensed list).
        sortOptions={[
          { label: t("orders.column.date"), value: "date desc", directionLabel: t("orders.sort.dateDesc") },
          { label: t("orders.column.date"), value: "date asc", directionLabel: t("orders.sort.dateAsc") },
          { label: t("orders.column.amount"), value: "amount desc", directionLabel: t("orders.sort.amountDesc") },
          { label: t("orders.column.amount"), value: "amount asc", directionLabel: t("orders.sort.amountAsc") },
        ]}
        sortSelected={[filter.sort.replace("-", " ")]}
        onSort={([value]) => go({ sort: value?.replace(" ", "-") })}
        canCreateNewView={false}
        loading={loading}
      />
      <IndexTable
        resourceName={{ singular: t("orders.resource.singular"), plural: t("orders.resource.plural") }}
        itemCount={page.rows.length}
        selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
        onSelectionChange={handleSelectionChange}
        loading={loading || busy}
        emptyState={
          <BlockStack gap="100" inlineAlign="center">
            <Text as="p" variant="headingMd">
              {t("orders.noResults.title")}
            </Text>
            <Text as="p" tone="subdued">
              {t("orders.noResults.body")}
            </Text>
          </BlockStack>
        }
        // What to do comes before the items: inside the admin's frame (about 1,000 px) the last column is the one cut.
        headings={[
          { title: t("orders.column.order") },
          { title: t("orders.column.date") },
          { title: t("orders.column.customerCity") },
          { title: t("orders.column.amount"), alignment: "end" },
          { title: t("orders.column.odds") },
          { title: t("orders.column.stage") },
          { title: t("orders.column.attention") },
          { title: t("orders.column.items") },
        ]}
        condensed={mdDown}
        sortable={[false, true, false, true, false, false, false, false]}
        sortColumnIndex={filter.sort.startsWith("amount") ? AMOUNT_COLUMN : DATE_COLUMN}
        sortDirection={filter.sort.endsWith("asc") ? "ascending" : "descending"}
        defaultSortDirection="descending"
        sortToggleLabels={{
          [DATE_COLUMN]: { ascending: t("orders.sort.dateAsc"), descending: t("orders.sort.dateDesc") },
          [AMOUNT_COLUMN]: { ascending: t("orders.sort.amountAsc"), descending: t("orders.sort.amountDesc") },
        }}
        onSort={(index, direction) =>
          go({ sort: `${index === AMOUNT_COLUMN ? "amount" : "date"}-${direction === "ascending" ? "asc" : "desc"}` })
        }
        promotedBulkActions={[
          { content: t("orders.bulk.resend"), onAction: () => onBulk("resend", selectedIds) },
          { content: t("orders.bulk.retryFailed"), onAction: () => onBulk("retryFailed", selectedIds) },
        ]}
        pagination={{
          hasNext: page.nextCursor !== null,
          hasPrevious: page.previousCursor !== null,
          onNext: () => go({ after: page.nextCursor ?? undefined, before: undefined }, true),
          onPrevious: () => go({ before: page.previousCursor ?? undefined, after: undefined }, true),
          label: page.partial ? t("orders.partial") : undefined,
        }}
      >
        {page.rows.map((row, index) =>
          mdDown ? (
            <CondensedRow
              key={row.id}
              row={row}
              index={index}
              selected={selectedResources.includes(row.id)}
              contact={contact}
            />
          ) : (
            <OrderTableRow
              key={row.id}
              row={row}
              index={index}
              selected={selectedResources.includes(row.id)}
              contact={contact}
            />
          ),
        )}
      </IndexTable>
    </>
  );
}

const CHOICES = {
  state: (f: OrdersFilter) => f.states,
  confirmation: (f: OrdersFilter) => f.confirmation,
  shipping: (f: OrdersFilter) => f.shipping,
  issue: (f: OrdersFilter) => f.issues,
  risk: (f: OrdersFilter) => f.risk ?? [],
};

/** "2 × Huile d'argan, Savon noir +1". */
export function itemsText(format: Formatter, t: Translate, row: Pick<OrderRow, "items" | "moreItems">): string {
  const names = row.items
    .map((i) =>
      i.quantity > 1 ? t("orders.items.quantity", { quantity: format.integer(i.quantity), name: i.name }) : i.name,
    )
    .join(", ");
  return row.moreItems > 0 ? t("orders.items.more", { items: names, count: format.integer(row.moreItems) }) : names;
}

interface RowProps {
  row: OrderRow;
  index: number;
  selected: boolean;
  contact: ContactSettings;
}

const dash = "–";

function amountText(format: Formatter, row: OrderRow) {
  return row.amountCents === null ? dash : format.money(row.amountCents);
}

function OrderLinkCell({ row }: { row: OrderRow }) {
  return (
    <span data-order={row.orderName}>
      <Link url={`/app/orders/${row.id}`} dataPrimaryLink monochrome removeUnderline>
        <Text as="span" fontWeight="semibold">
          {row.orderName}
        </Text>
      </Link>
    </span>
  );
}

function customerText(t: Translate, row: OrderRow) {
  return row.erased ? t("orders.customer.erased") : (row.customerName ?? dash);
}

/** Why the row needs the merchant; the risk, and a way to reach the customer of a held order. */
function AttentionCell({ row, contact }: { row: OrderRow; contact: ContactSettings }) {
  const t = useT();
  const attention = row.attention ? attentionText(t, row.attention) : null;
  // Information, not a problem: not cash on delivery, a test order... in a neutral tone.
  const info = !attention && row.stage === "skipped" && row.findings[0] ? codeLabel(t, row.findings[0].code) : null;
  return (
    <span data-cell="attention">
      <BlockStack gap="100">
        {attention ? (
          <span data-attention={row.attention!.kind}>
            <Text as="span" variant="bodySm" tone={attention.tone} breakWord>
              {attention.text}
            </Text>
          </span>
        ) : null}
        {info ? (
          <Text as="span" variant="bodySm" tone="subdued">
            {info}
          </Text>
        ) : null}
        {row.risk && row.risk !== "new" && row.risk !== "low" ? (
          <span data-cell="risk">
            <RiskBadge risk={row.risk} />
          </span>
        ) : null}
        {row.phone ? (
          <ContactLinks
            phone={row.phone}
            orderName={row.orderName}
            contact={contact}
            facts={{
              name: row.customerName,
              order: row.orderName,
              city: row.cityName,
              amount: row.amountCents === null ? null : customerAmount(row.amountCents),
            }}
          />
        ) : null}
      </BlockStack>
    </span>
  );
}

function OrderTableRow({ row, index, selected, contact }: RowProps) {
  const t = useT();
  const format = useFormat();
  const navigate = useNavigate();
  return (
    <IndexTable.Row
      id={row.id}
      position={index}
      selected={selected}
      onNavigation={() => navigate(`/app/orders/${row.id}`)}
    >
      <IndexTable.Cell>
        <OrderLinkCell row={row} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <DateText row={row} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <BlockStack gap="0">
          <span data-cell="customer">{customerText(t, row)}</span>
          <Text as="span" variant="bodySm" tone="subdued">
            <span data-cell="city">{row.cityName ?? dash}</span>
          </Text>
        </BlockStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <span data-cell="amount">
          <Text as="span" alignment="end" numeric>
            {amountText(format, row)}
          </Text>
        </span>
      </IndexTable.Cell>
      <IndexTable.Cell className="cod-odds-cell">
        <OddsCell odds={row.odds} standing={row.oddsStanding} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <StageBadge stage={row.stage} detail={row} shopify={row.shopifyStop} />
      </IndexTable.Cell>
      <IndexTable.Cell className="cod-attention-cell">
        <AttentionCell row={row} contact={contact} />
      </IndexTable.Cell>
      <IndexTable.Cell className="cod-items-cell">
        <span data-cell="items">
          <Text as="span" variant="bodySm" truncate>
            {itemsText(format, t, row) || dash}
          </Text>
        </span>
      </IndexTable.Cell>
    </IndexTable.Row>
  );
}

/** The order's date (the day it was placed); an imported order says so. */
function DateText({ row }: { row: OrderRow }) {
  const t = useT();
  const format = useFormat();
  return (
    <BlockStack gap="0">
      <span title={row.createdAt}>{format.dateTime(row.createdLocal)}</span>
      {row.imported ? (
        <Text as="span" variant="bodySm" tone="subdued">
          <span data-cell="imported">{t("orders.imported")}</span>
        </Text>
      ) : null}
    </BlockStack>
  );
}

/** The row on a phone: order and stage, then customer and city, then amount and date, then why. */
function CondensedRow({ row, index, selected, contact }: RowProps) {
  const t = useT();
  const format = useFormat();
  const navigate = useNavigate();
  return (
    <IndexTable.Row
      id={row.id}
      position={index}
      selected={selected}
      onNavigation={() => navigate(`/app/orders/${row.id}`)}
    >
      <div className="cod-condensed-row">
        <BlockStack gap="100">
          <InlineStack align="space-between" blockAlign="center" gap="200" wrap={false}>
            <OrderLinkCell row={row} />
            <StageBadge stage={row.stage} detail={row} shopify={row.shopifyStop} />
          </InlineStack>
          <InlineStack align="space-between" gap="200" wrap={false}>
            <Text as="span" truncate>
              <span data-cell="customer">{customerText(t, row)}</span>
            </Text>
            <Text as="span" numeric fontWeight="medium">
              <span data-cell="amount">{amountText(format, row)}</span>
            </Text>
          </InlineStack>
          <Text as="span" variant="bodySm" tone="subdued" truncate>
            {[row.cityName, format.dateTime(row.createdLocal), row.imported ? t("orders.imported") : null]
              .filter(Boolean)
              .join(" · ")}
          </Text>
          {row.odds ? <OddsCell odds={row.odds} standing={row.oddsStanding} /> : null}
          <AttentionCell row={row} contact={contact} />
        </BlockStack>
      </div>
    </IndexTable.Row>
  );
}

export type { IndexTableProps };
