/**
 * The Orders index: tabs, search, filters and pagination all live in the URL
 * (so a link or a reload shows the same page); rows open the order's page.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  ChoiceList,
  IndexFilters,
  IndexFiltersMode,
  IndexTable,
  InlineStack,
  Link,
  Text,
  TextField,
  useIndexResourceState,
  useSetIndexFiltersMode,
} from "@shopify/polaris";
import type { IndexFiltersProps } from "@shopify/polaris";
import { LINK_STATES } from "../../models/order-link-state";
import type { OrderRow, OrdersFilter, OrdersPage } from "../../pages/orders.server";
import { RISK_FILTERS } from "../../customers/risk";
import { RiskBadge } from "./CustomerCard";
import { holdReasonViewText } from "../../customers/hold-reason";
import { isMessageKey } from "../../i18n";
import { useFormat, useT, type Translate } from "../../i18n/react";
import { ConfirmationBadge, LinkStateBadge, ShippingBadge } from "../StatusBadge";
import { codeLabel } from "./text";

// Kept here (not imported from the .server module) so the browser bundle stays server-free.
const CONFIRMATIONS = ["new", "callback", "no_answer_1", "no_answer_2", "no_answer_3", "confirmed", "canceled", "wrong", "fake", "duplicate"];
const SHIPPINGS = ["pending", "picked_up", "shipped", "delivered", "paid", "returned", "canceled"];
const ISSUES = ["sku", "stock", "city", "phone", "total", "duplicate"] as const;

const TABS: { id: string; label: "orders.tab.all" | "orders.tab.attention" | "orders.tab.sent" | "orders.tab.damaged" | "orders.tab.failed"; states: string[] }[] = [
  { id: "all", label: "orders.tab.all", states: [] },
  { id: "attention", label: "orders.tab.attention", states: ["held", "invalid", "failed"] },
  { id: "sent", label: "orders.tab.sent", states: ["created"] },
  { id: "damaged", label: "orders.tab.damaged", states: ["damaged"] },
  { id: "failed", label: "orders.tab.failed", states: ["failed"] },
];

/** Parameters this page owns; the others (shop, host, locale...) are kept as they are. */
const OWN_PARAMS = ["state", "confirmation", "shipping", "issue", "risk", "from", "to", "q", "after", "before"];

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

function label(t: Translate, prefix: string, value: string): string {
  const key = `${prefix}.${value}`;
  return isMessageKey(key) ? t(key) : value;
}

export interface OrdersTableProps {
  page: OrdersPage;
  filter: OrdersFilter;
  /** Bulk actions: the selected links' ids. */
  onBulk(intent: "resend" | "retryFailed", ids: string[]): void;
  busy: boolean;
}

export function OrdersTable({ page, filter, onBulk, busy }: OrdersTableProps) {
  const t = useT();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const filtered = Boolean(filter.query || filter.from || filter.to || filter.confirmation.length || filter.shipping.length || filter.issues.length || filter.risk?.length);
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
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(selectable);
  useEffect(() => clearSelection(), [page.rows, clearSelection]);

  const selectedTab = Math.max(0, TABS.findIndex((tab) => sameSet(tab.states, filter.states)));
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
    choice("confirmation", t("orders.filter.confirmation"), CONFIRMATIONS, "confirmation"),
    choice("shipping", t("orders.filter.shipping"), SHIPPINGS, "shipping"),
    choice("issue", t("orders.filter.issue"), ISSUES, "orders.issue"),
    choice("risk", t("customers.filter.risk"), RISK_FILTERS, "customers.risk"),
    {
      key: "date",
      label: t("orders.filter.date"),
      filter: (
        <BlockStack gap="200">
          <TextField label={t("orders.filter.from")} type="date" value={filter.from ?? ""} onChange={(from) => go({ from })} autoComplete="off" />
          <TextField label={t("orders.filter.to")} type="date" value={filter.to ?? ""} onChange={(to) => go({ to })} autoComplete="off" />
        </BlockStack>
      ),
    },
  ];

  const applied: IndexFiltersProps["appliedFilters"] = [];
  const pill = (key: string, title: string, values: string[]) =>
    applied.push({ key, label: t("orders.applied", { filter: title, values: values.join(", ") }), onRemove: () => go({ [key]: undefined }) });
  if (filter.states.length) pill("state", t("orders.filter.state"), filter.states.map((v) => label(t, "state", v)));
  if (filter.confirmation.length) pill("confirmation", t("orders.filter.confirmation"), filter.confirmation.map((v) => label(t, "confirmation", v)));
  if (filter.shipping.length) pill("shipping", t("orders.filter.shipping"), filter.shipping.map((v) => label(t, "shipping", v)));
  if (filter.issues.length) pill("issue", t("orders.filter.issue"), filter.issues.map((v) => label(t, "orders.issue", v)));
  if (filter.risk?.length) pill("risk", t("customers.filter.risk"), filter.risk.map((v) => label(t, "customers.risk", v)));
  if (filter.from || filter.to) {
    applied.push({
      key: "date",
      label: t("orders.applied", { filter: t("orders.filter.date"), values: t("orders.filter.dateValue", { from: filter.from ?? "…", to: filter.to ?? "…" }) }),
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
        onSelect={(index) => go({ state: TABS[index]?.states ?? [] })}
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
        headings={[
          { title: t("orders.column.order") },
          { title: t("orders.column.date") },
          { title: t("orders.column.state") },
          { title: t("orders.column.lead") },
          { title: t("orders.column.confirmation") },
          { title: t("orders.column.shipping") },
          { title: t("orders.column.problems") },
          { title: t("customers.column.risk") },
          { title: t("orders.column.lastChange") },
        ]}
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
        {page.rows.map((row, index) => (
          <OrderTableRow key={row.id} row={row} index={index} selected={selectedResources.includes(row.id)} />
        ))}
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

function OrderTableRow({ row, index, selected }: { row: OrderRow; index: number; selected: boolean }) {
  const t = useT();
  const format = useFormat();
  const navigate = useNavigate();
  return (
    <IndexTable.Row id={row.id} position={index} selected={selected} onNavigation={() => navigate(`/app/orders/${row.id}`)}>
      <IndexTable.Cell>
        <span data-order={row.orderName}>
          <Link url={`/app/orders/${row.id}`} dataPrimaryLink monochrome removeUnderline>
            <Text as="span" fontWeight="semibold">
              {row.orderName}
            </Text>
          </Link>
        </span>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <span title={row.createdAt}>{format.dateTime(row.createdLocal)}</span>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <span data-cell="state">
          <LinkStateBadge state={row.state} />
        </span>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <span data-cell="lead">{row.leadRef ?? "–"}</span>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <span data-cell="confirmation">
          <ConfirmationBadge status={row.confirmationStatus} />
        </span>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <span data-cell="shipping">
          <ShippingBadge status={row.shippingStatus} />
        </span>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <ProblemBadges row={row} t={t} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <span data-cell="risk">
          <BlockStack gap="100">
            {row.risk && row.risk !== "new" ? <RiskBadge risk={row.risk} /> : null}
            {row.holdReason ? (
              <span data-hold-reason>
                <Text as="span" variant="bodySm" tone="caution">
                  {t("customers.held.short", { reason: holdReasonViewText(t, row.holdReason) })}
                </Text>
              </span>
            ) : null}
          </BlockStack>
        </span>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <span title={row.updatedAt}>{format.dateTime(row.updatedLocal)}</span>
      </IndexTable.Cell>
    </IndexTable.Row>
  );
}

const SHOWN_BADGES = 2;

function ProblemBadges({ row, t }: { row: OrderRow; t: Translate }) {
  const badges = [
    ...row.findings.map((f) => ({ key: `f-${f.code}`, text: codeLabel(t, f.code), tone: f.severity === "blocking" ? ("critical" as const) : ("attention" as const) })),
    ...row.anomalies.map((code) => ({ key: `a-${code}`, text: codeLabel(t, code), tone: "warning" as const })),
    ...(row.possibleDuplicate ? [{ key: "dup", text: t("orders.flag.duplicate"), tone: "warning" as const }] : []),
  ];
  const unique = badges.filter((b, i) => badges.findIndex((x) => x.key === b.key) === i);
  if (unique.length === 0) return <span data-cell="problems" />;
  return (
    <span data-cell="problems">
      <InlineStack gap="100" wrap={false}>
        {unique.slice(0, SHOWN_BADGES).map((b) => (
          <Badge key={b.key} tone={b.tone}>
            {b.text}
          </Badge>
        ))}
        {unique.length > SHOWN_BADGES ? <Badge>{t("orders.more", { count: unique.length - SHOWN_BADGES })}</Badge> : null}
      </InlineStack>
    </span>
  );
}
