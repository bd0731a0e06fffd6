/**
 * Mappings: Shopify variants matched against the platform catalogue, the shop's SKU
 * mappings and bundles, city aliases, and CSV import / export.
 */
import { useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { Banner, BlockStack, Layout, Page, Tabs, Text } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import prisma from "../db.server";
import {
  addCityAlias,
  importMappingsCsv,
  loadMappingsPage,
  loadVariantsPage,
  MappingNotFoundError,
  removeCityAlias,
  removeSkuMapping,
  saveSkuMapping,
  type MappingsActionResult,
  type SkuMappingView,
  type VariantRow,
} from "../pages/mappings.server";
import { MAX_CSV_BYTES } from "../pages/mappings-csv";
import { FormTooLargeError, readFormData } from "../http/form-limit.server";
import { localTime } from "../time-zone";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { useFormat, useT, zoneName } from "../i18n/react";
import { pageTitle } from "../i18n/page-title";
import { MappingEditor, type MappingDraft } from "../components/mappings/MappingEditor";
import { VariantsTable } from "../components/mappings/VariantsTable";
import { SkuMappingsTable } from "../components/mappings/SkuMappingsTable";
import { CityAliasesCard } from "../components/mappings/CityAliasesCard";
import { CsvCard } from "../components/mappings/CsvCard";
import { formText } from "../http/form";
import { confirmedRelease, ReleaseNotConfirmedError, sendReleased, type Release } from "../sync/release-held.server";
import { ReleaseModal } from "../components/orders/ReleaseModal";

const TABS = ["products", "skus", "cities", "csv"] as const;
type Tab = (typeof TABS)[number];
const isTab = (value: string | null): value is Tab => value !== null && (TABS as readonly string[]).includes(value);
/** Cursors of the pages before this one, so "previous" works with Shopify's forward-only cursors. */
const MAX_TRAIL = 50;
/** Stands for "no cursor" in the trail (Shopify cursors are base64: never "~"). */
const FIRST_PAGE = "~";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "mappings.title");

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const url = new URL(request.url);
  const tab = isTab(url.searchParams.get("tab")) ? (url.searchParams.get("tab") as Tab) : "products";
  const query = url.searchParams.get("q") ?? "";
  const after = url.searchParams.get("after");
  const page = await loadMappingsPage(prisma, session.shop);
  // Shopify is asked only when its tab is shown.
  const variants = tab === "products" ? await loadVariantsPage(prisma, session.shop, admin, { query, after }) : null;
  // When the catalogue was read, on the shop's wall clock (the page writes it in the reader's format).
  const catalogueLocal = page.catalogueFetchedAt ? localTime(page.catalogueFetchedAt, DEFAULT_TIME_ZONE) : null;
  return { tab, query, ...page, catalogueLocal, variants };
});

const text = (form: FormData, name: string) => formText(form, name) ?? "";

/** The CSV as the page uploads it (a file part) or as a plain field. */
const csvText = async (form: FormData) => {
  const value = form.get("csv");
  return typeof value === "string" ? value : value ? await value.text() : "";
};

/** A form holds at most one CSV file, and room for the multipart framing and the other fields. */
const MAX_FORM_BYTES = MAX_CSV_BYTES + 64 * 1024;

export const action = withErrorReference(async ({ request }: ActionFunctionArgs): Promise<MappingsActionResult> => {
  const { session } = await authenticate.admin(request);
  const shop = session.shop;
  let form: FormData;
  try {
    // Read with the limit enforced while reading: a larger upload is never buffered whole.
    form = await readFormData(request, MAX_FORM_BYTES);
  } catch (error) {
    if (!(error instanceof FormTooLargeError)) throw error;
    // Only an import can be this large: its card says the file is too big.
    return {
      intent: "importCsv",
      ok: false,
      kind: null,
      errors: [{ row: 1, code: "file_too_large", params: { max: MAX_CSV_BYTES / 1024 / 1024 } }],
    };
  }
  const intent = text(form, "intent");
  try {
    switch (intent) {
      case "saveMapping":
        return {
          intent,
          ...(await saveSkuMapping(prisma, shop, {
            id: text(form, "id") || undefined,
            sourceKind: text(form, "sourceKind"),
            sourceKey: text(form, "sourceKey"),
            targets: text(form, "targets"),
            label: text(form, "label"),
          })),
        };
      case "deleteMapping":
        await removeSkuMapping(prisma, shop, text(form, "id"));
        return { intent, ok: true };
      case "saveAlias":
        return {
          intent,
          ...(await addCityAlias(prisma, shop, { alias: text(form, "alias"), cityId: text(form, "cityId") })),
        };
      case "deleteAlias":
        await removeCityAlias(prisma, shop, text(form, "id"));
        return { intent, ok: true };
      case "importCsv":
        return { intent, ...(await importMappingsCsv(prisma, shop, await csvText(form))) };
      case "sendReleased": {
        const { ids, count } = confirmedRelease(form);
        return { intent, ok: true, sent: (await sendReleased(prisma, shop, ids, { by: "merchant" }, count)).sent };
      }
    }
  } catch (error) {
    if (error instanceof MappingNotFoundError) throw new Response("Not found", { status: 404 });
    if (error instanceof ReleaseNotConfirmedError) return { intent: "sendReleased", ok: false, error: "group_changed" };
    throw error;
  }
  throw new Response("Unknown intent", { status: 400 });
});

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

export default function Mappings() {
  const data = useLoaderData<typeof loader>();
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
    go({ tab: TABS[index], after: null, trail: null });
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
            <Tabs
              selected={TABS.indexOf(data.tab)}
              onSelect={selectTab}
              tabs={TABS.map((tab) => ({ id: `mappings-${tab}`, content: t(`mappings.tab.${tab}`) }))}
            />
            {data.catalogueLocal ? (
              <Text as="p" variant="bodySm" tone="subdued">
                {t("mappings.catalogueSynced", {
                  time: format.dateTime(data.catalogueLocal),
                  zone: zoneName(t, DEFAULT_TIME_ZONE),
                  count: data.catalogue.length,
                })}
              </Text>
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
