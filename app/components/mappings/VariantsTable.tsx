/** The shop's Shopify variants, a page at a time, with how each one reaches the platform catalogue. */
import { useState } from "react";
import { ShopifyErrorBanner } from "../ShopifyErrorBanner";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  IndexTable,
  InlineStack,
  Text,
  TextField,
  useBreakpoints,
} from "@shopify/polaris";
import { useT, type Translate } from "../../i18n/react";
import { ListTable } from "../ListTable";
import type { VariantRow, VariantStatus, VariantsResult } from "../../pages/mappings.server";

const TONES: Record<VariantStatus, "success" | "warning" | "critical" | "attention"> = {
  mapped: "success",
  matched: "success",
  mapping_broken: "critical",
  unmatched: "warning",
  no_sku: "attention",
};

export function itemsText(t: Translate, items: VariantRow["items"]): string {
  return items
    .map(
      (item) =>
        `${t("mappings.item", { quantity: item.quantity, sku: item.sku })}${item.name ? ` · ${item.name}` : ` (${t("mappings.unknownItem")})`}`,
    )
    .join(", ");
}

export function VariantsTable({
  variants,
  query,
  hasPrevious,
  onSearch,
  onNext,
  onPrevious,
  onRetry,
  retrying = false,
  onMap,
}: {
  variants: VariantsResult;
  query: string;
  hasPrevious: boolean;
  onSearch(query: string): void;
  onNext(cursor: string): void;
  onPrevious(): void;
  onRetry(): void;
  /** A retry is loading. */
  retrying?: boolean;
  onMap(row: VariantRow): void;
}) {
  const t = useT();
  // Below 768 px (a phone) one stacked line per variant instead of four columns cut at the screen's edge.
  const { mdDown } = useBreakpoints();
  const [search, setSearch] = useState(query);
  const rows = variants.ok ? variants.rows : [];
  const matched = rows.filter((r) => r.status === "mapped" || r.status === "matched").length;

  return (
    <Card padding="0">
      <BlockStack gap="0">
        <div style={{ padding: "var(--p-space-400)" }}>
          <BlockStack gap="300">
            <form
              onSubmit={(event) => {
                event.preventDefault();
                onSearch(search);
              }}
            >
              <TextField
                label={t("mappings.variants.search")}
                value={search}
                onChange={setSearch}
                helpText={t("mappings.variants.searchHelp")}
                autoComplete="off"
                clearButton
                onClearButtonClick={() => {
                  setSearch("");
                  onSearch("");
                }}
                connectedRight={<Button submit>{t("mappings.variants.searchAction")}</Button>}
              />
            </form>
            {!variants.ok ? (
              <ShopifyErrorBanner
                failure={{ kind: variants.error, retryAfterSeconds: variants.retryAfterSeconds }}
                work="products"
                onRetry={onRetry}
                retrying={retrying}
              />
            ) : null}
            {variants.ok && rows.length > 0 ? (
              <Text as="p" tone="subdued">
                {t("mappings.variants.summary", { matched, unmatched: rows.length - matched })}
              </Text>
            ) : null}
          </BlockStack>
        </div>
        <ListTable
          condensed={mdDown}
          itemCount={rows.length}
          resourceName={{ singular: t("mappings.variants.col.variant"), plural: t("mappings.tab.products") }}
          // Without Shopify's answer there is no list to call empty: the banner above says why.
          empty={variants.ok ? t("mappings.variants.empty") : <span />}
          headings={[
            { title: t("mappings.variants.col.variant") },
            { title: t("mappings.variants.col.status") },
            { title: t("mappings.variants.col.items") },
            { title: t("mappings.col.actions"), alignment: "end" },
          ]}
          pagination={{
            hasNext: variants.ok && variants.hasNextPage,
            hasPrevious,
            onNext: () => variants.ok && variants.endCursor && onNext(variants.endCursor),
            onPrevious,
          }}
        >
          {rows.map((row, index) => {
            const name = (
              <BlockStack gap="050">
                <Text as="span" fontWeight="semibold">
                  {row.displayName}
                </Text>
                <Text as="span" variant="bodySm" tone="subdued">
                  {row.sku ?? t("mappings.noSkuValue")}
                </Text>
              </BlockStack>
            );
            const status = (
              <span data-status={row.status}>
                <Badge tone={TONES[row.status]}>{t(`mappings.status.${row.status}`)}</Badge>
              </span>
            );
            const items = (
              <Text as="span" variant="bodySm">
                {row.items.length > 0
                  ? itemsText(t, row.items)
                  : row.suggestions[0]
                    ? t("mappings.suggestion", { name: `${row.suggestions[0].sku} · ${row.suggestions[0].name}` })
                    : "—"}
              </Text>
            );
            const action = (
              <Button
                size="slim"
                onClick={() => onMap(row)}
                variant={row.status === "matched" || row.status === "mapped" ? undefined : "primary"}
              >
                {row.mappingId ? t("mappings.editMapping") : t("mappings.map")}
              </Button>
            );
            return (
              <IndexTable.Row id={row.variantId} key={row.variantId} position={index}>
                {mdDown ? (
                  // A phone: the variant, its status, its platform items and its button stacked, all on the screen.
                  <div className="cod-condensed-row" data-variant-card={row.variantId}>
                    <BlockStack gap="100">
                      <InlineStack align="space-between" blockAlign="start" gap="200" wrap={false}>
                        {name}
                        {status}
                      </InlineStack>
                      {items}
                      <InlineStack align="end">{action}</InlineStack>
                    </BlockStack>
                  </div>
                ) : (
                  <>
                    <IndexTable.Cell>{name}</IndexTable.Cell>
                    <IndexTable.Cell>{status}</IndexTable.Cell>
                    <IndexTable.Cell>{items}</IndexTable.Cell>
                    <IndexTable.Cell>
                      <InlineStack align="end">{action}</InlineStack>
                    </IndexTable.Cell>
                  </>
                )}
              </IndexTable.Row>
            );
          })}
        </ListTable>
      </BlockStack>
    </Card>
  );
}
