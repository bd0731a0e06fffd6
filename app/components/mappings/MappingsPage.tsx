/**
 * Mappings: Shopify variants matched against the platform catalogue, the shop's SKU
 * mappings and bundles, city aliases, and CSV import / export.
 */
import { useState } from "react";
import { useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { Banner, BlockStack, Layout, Page, Tabs, Text } from "@shopify/polaris";
import { PhoneInset } from "../PhoneInset";
import type { mappingsPageData } from "../../pages/mappings-page.server";
import type { SkuMappingView, VariantRow } from "../../pages/mappings.server";
import { MAPPINGS_TABS } from "../../pages/mappings-tabs";
import type { Release } from "../../sync/release-held.server";
import { DEFAULT_TIME_ZONE } from "../../analytics/days";
import { useFormat, useT, zoneName } from "../../i18n/react";
import { ReleaseModal } from "../orders/ReleaseModal";
import { MappingEditor, type MappingDraft } from "./MappingEditor";
import { VariantsTable } from "./VariantsTable";
import { SkuMappingsTable } from "./SkuMappingsTable";
import { CityAliasesCard } from "./CityAliasesCard";
import { CsvCard } from "./CsvCard";

/** Cursors of the pages before this one, so "previous" works with Shopify's forward-only cursors. */
const MAX_TRAIL = 50;
/** Stands for "no cursor" in the trail (Shopify cursors are base64: never "~"). */
const FIRST_PAGE = "~";

function draftFromVariant(row: VariantRow, mapping: SkuMappingView | undefined): MappingDraft {
  return {
    id: mapping?.id,
    sourceKind: mapping?.sourceKind ?? "variant",
    sourceKey: mapping?.sourceKey ?? row.variantId,
    sourceLabel: row.sku ? `${row.displayName} (${row.sku})` : row.displayName,
    label: mapping?.label ?? row.displayName,
    targets: mapping ? draftTargets(mapping) : [],
    suggestions: row.suggestions,
  };
}

function draftTargets(mapping: SkuMappingView): MappingDraft["targets"] {
  return mapping.targets.map((target) => ({
    sku: target.kind === "sku" ? target.key : null,
    productId: target.kind === "product" ? Number(target.key) : null,
    quantity: String(target.quantity),
  }));
}

export function MappingsPage() {
  const data = useLoaderData<typeof mappingsPageData>();
  const t = useT();
  const format = useFormat();
  const [params, setParams] = useSearchParams();
  const revalidator = useRevalidator();
  const [draft, setDraft] = useState<MappingDraft | null>(null);
  // Held orders a saved fix freed: offered to send at once (one confirmation).
  const [release, setRelease] = useState<Release | null>(null);
  const onSaved = (saved: Release | undefined) => setRelease(saved && saved.orders.length > 0 ? saved : null);
  const trail = (params.get("trail") ?? "").split(",").filter(Boolean);

  const go = (change: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(change)) {
      if (value === null || value === "") next.delete(name);
      else next.set(name, value);
    }
    setParams(next);
  };
  const selectTab = (index: number) => {
    setDraft(null);
    go({ tab: MAPPINGS_TABS[index], after: null, trail: null });
  };

  return (
    <Page title={t("mappings.title")}>
      <Layout>
        {data.catalogue.length === 0 ? (
          <Layout.Section>
            <Banner
              tone="warning"
              title={t("mappings.noCatalogue.title")}
              action={{ content: t("mappings.openSettings"), url: "/app/settings" }}
            >
              <p>{t("mappings.noCatalogue.body")}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            {/* Fitted, with one-word labels: below 768 px Polaris scrolls a tab strip sideways, cutting it on a phone. */}
            <Tabs
              fitted
              selected={MAPPINGS_TABS.indexOf(data.tab)}
              onSelect={selectTab}
              tabs={MAPPINGS_TABS.map((tab) => ({ id: `mappings-${tab}`, content: t(`mappings.tab.${tab}`) }))}
            />
            {data.catalogueLocal ? (
              <PhoneInset>
                <Text as="p" variant="bodySm" tone="subdued">
                  {t("mappings.catalogueSynced", {
                    time: format.dateTime(data.catalogueLocal),
                    zone: zoneName(t, DEFAULT_TIME_ZONE),
                    count: data.catalogue.length,
                  })}
                </Text>
              </PhoneInset>
            ) : null}
            {draft ? (
              <MappingEditor
                key={draft.id ?? draft.sourceKey}
                draft={draft}
                catalogue={data.catalogue}
                onClose={() => setDraft(null)}
                onSaved={onSaved}
              />
            ) : null}
            {data.tab === "products" && data.variants ? (
              <VariantsTable
                variants={data.variants}
                query={data.query}
                hasPrevious={trail.length > 0}
                onSearch={(q) => go({ q, after: null, trail: null })}
                onNext={(cursor) =>
                  go({
                    after: cursor,
                    trail: [...trail, params.get("after") ?? FIRST_PAGE].slice(-MAX_TRAIL).join(","),
                  })
                }
                onPrevious={() => {
                  const previous = trail[trail.length - 1];
                  go({ after: previous === FIRST_PAGE ? null : previous, trail: trail.slice(0, -1).join(",") });
                }}
                onRetry={() => revalidator.revalidate()}
                retrying={revalidator.state === "loading"}
                onMap={(row) =>
                  setDraft(
                    draftFromVariant(
                      row,
                      data.mappings.find((m) => m.id === row.mappingId),
                    ),
                  )
                }
              />
            ) : null}
            {data.tab === "skus" ? (
              <SkuMappingsTable
                mappings={data.mappings}
                onAdd={() => setDraft({ sourceKind: "sku", sourceKey: "", label: "", targets: [] })}
                onEdit={(mapping) =>
                  setDraft({
                    id: mapping.id,
                    sourceKind: mapping.sourceKind,
                    sourceKey: mapping.sourceKey,
                    label: mapping.label ?? "",
                    targets: draftTargets(mapping),
                  })
                }
              />
            ) : null}
            {data.tab === "cities" ? (
              <CityAliasesCard aliases={data.aliases} cities={data.cities} onSaved={onSaved} />
            ) : null}
            {data.tab === "csv" ? <CsvCard onSaved={onSaved} /> : null}
          </BlockStack>
        </Layout.Section>
      </Layout>
      <ReleaseModal release={release} onClose={() => setRelease(null)} />
    </Page>
  );
}
