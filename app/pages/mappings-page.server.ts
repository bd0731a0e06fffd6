/**
 * The Mappings page's loader and action work, as its route calls them once it has
 * authenticated: the shop's mappings, aliases and catalogue, and Shopify's variants when
 * their tab is shown; then each change (a mapping, an alias, a CSV import, the orders a
 * fix freed). Also the mappings' CSV export, a link of this page.
 */
import prisma from "../db.server";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { localTime } from "../time-zone";
import { formText } from "../http/form";
import { FormTooLargeError, readFormData } from "../http/form-limit.server";
import type { AdminGraphqlClient } from "../shopify/admin-graphql.server";
import { confirmedRelease, ReleaseNotConfirmedError, sendReleased } from "../sync/release-held.server";
import {
  addCityAlias,
  exportMappingsCsv,
  importMappingsCsv,
  loadMappingsPage,
  loadVariantsPage,
  MappingNotFoundError,
  removeCityAlias,
  removeSkuMapping,
  saveSkuMapping,
  type CsvFileKind,
  type MappingsActionResult,
} from "./mappings.server";
import { MAX_CSV_BYTES } from "./mappings-csv";
import { isMappingsTab } from "./mappings-tabs";
import { fileResponse } from "./file-response";

export async function mappingsPageData(request: Request, shop: string, admin: AdminGraphqlClient) {
  const url = new URL(request.url);
  const asked = url.searchParams.get("tab");
  const tab = isMappingsTab(asked) ? asked : "products";
  const query = url.searchParams.get("q") ?? "";
  const after = url.searchParams.get("after");
  const page = await loadMappingsPage(prisma, shop);
  // Shopify is asked only when its tab is shown.
  const variants = tab === "products" ? await loadVariantsPage(prisma, shop, admin, { query, after }) : null;
  // When the catalogue was read, on the shop's wall clock (the page writes it in the reader's format).
  const catalogueLocal = page.catalogueFetchedAt ? localTime(page.catalogueFetchedAt, DEFAULT_TIME_ZONE) : null;
  return { tab, query, ...page, catalogueLocal, variants };
}

const text = (form: FormData, name: string) => formText(form, name) ?? "";

/** The CSV as the page uploads it (a file part) or as a plain field. */
const csvText = async (form: FormData) => {
  const value = form.get("csv");
  return typeof value === "string" ? value : value ? await value.text() : "";
};

/** A form holds at most one CSV file, and room for the multipart framing and the other fields. */
const MAX_FORM_BYTES = MAX_CSV_BYTES + 64 * 1024;

export async function mappingsPageAction(request: Request, shop: string): Promise<MappingsActionResult> {
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
}

/** The shop's SKU mappings or city aliases as a CSV the import reads back. */
export async function mappingsExportFile(request: Request, shop: string): Promise<Response> {
  const kind = new URL(request.url).searchParams.get("kind");
  if (kind !== "sku_mappings" && kind !== "city_aliases")
    throw new Response("kind must be sku_mappings or city_aliases", { status: 400 });
  const csv = await exportMappingsCsv(prisma, shop, kind satisfies CsvFileKind);
  const store = shop.replace(/\.myshopify\.com$/, "");
  return fileResponse(csv, "csv", `${store}-${kind.replace("_", "-")}.csv`);
}
