/**
 * CSV export (downloaded through App Bridge's authenticated fetch: a plain link would
 * carry no session token) and import, with every refused row listed by line number.
 */
import { useEffect, useState } from "react";
import type { Release } from "../../sync/release-held.server";
import { useFetcher } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Button, Card, DropZone, InlineStack, List, Text } from "@shopify/polaris";
import { isMessageKey } from "../../i18n";
import { useT, type Translate } from "../../i18n/react";
import { CardHeading } from "../CardHeading";
import type { CsvRowError } from "../../pages/mappings-csv";
import type { MappingsActionResult } from "../../pages/mappings.server";
import { download } from "../download";

const SHOWN_ERRORS = 50;

export function csvErrorText(t: Translate, error: CsvRowError): string {
  const key = `mappings.csv.error.${error.code}`;
  const params = { column: error.column ?? "", value: "", ...error.params };
  const message = isMessageKey(key) ? t(key, params) : error.code;
  return `${t("mappings.csv.rowError", { row: error.row })}${error.column ? ` (${error.column})` : ""}: ${message}`;
}

/** onSaved: the held orders the imported mappings or spellings freed. */
export function CsvCard({ onSaved }: { onSaved?(release: Release | undefined): void } = {}) {
  const t = useT();
  const shopify = useAppBridge();
  const fetcher = useFetcher<MappingsActionResult>();
  const [exporting, setExporting] = useState<string | null>(null);
  const [fileError, setFileError] = useState(false);
  const result = fetcher.data?.intent === "importCsv" ? fetcher.data : undefined;

  useEffect(() => {
    if (result?.ok) {
      shopify.toast.show(t(`mappings.csv.imported.${result.kind}`, { count: result.saved }));
      onSaved?.(result.release);
    }
  }, [result, shopify, t]);

  const exportFile = (kind: "sku_mappings" | "city_aliases") => {
    setExporting(kind);
    download(`/app/mappings/export?kind=${kind}`, `${kind.replace("_", "-")}.csv`)
      .catch(() => shopify.toast.show(t("mappings.csv.exportFailed"), { isError: true }))
      .finally(() => setExporting(null));
  };

  const importFile = (files: File[]) => {
    const file = files[0];
    if (!file) return;
    if (!/\.csv$/i.test(file.name) && file.type !== "text/csv") {
      setFileError(true);
      return;
    }
    setFileError(false);
    // Sent as the file itself (multipart): the server reads it under a size limit.
    const form = new FormData();
    form.append("intent", "importCsv");
    form.append("csv", file);
    fetcher.submit(form, { method: "post", encType: "multipart/form-data" });
  };

  return (
    <Card>
      <BlockStack gap="400">
        <CardHeading title={t("mappings.csv.title")} intro={t("mappings.csv.intro")} />
        <InlineStack gap="200">
          <Button onClick={() => exportFile("sku_mappings")} loading={exporting === "sku_mappings"}>
            {t("mappings.csv.exportSkus")}
          </Button>
          <Button onClick={() => exportFile("city_aliases")} loading={exporting === "city_aliases"}>
            {t("mappings.csv.exportCities")}
          </Button>
        </InlineStack>
        <BlockStack gap="100">
          <Text as="p" variant="bodySm" tone="subdued">
            {t("mappings.csv.skuFormat")}
          </Text>
          <Text as="p" variant="bodySm" tone="subdued">
            {t("mappings.csv.cityFormat")}
          </Text>
        </BlockStack>
        {fileError ? (
          <Banner tone="critical">
            <p>{t("mappings.csv.notCsv")}</p>
          </Banner>
        ) : null}
        {result && !result.ok ? (
          <Banner tone="critical" title={t("mappings.csv.failed", { count: result.errors.length })}>
            <List type="bullet">
              {result.errors.slice(0, SHOWN_ERRORS).map((error, i) => (
                <List.Item key={i}>{csvErrorText(t, error)}</List.Item>
              ))}
            </List>
            {result.errors.length > SHOWN_ERRORS ? (
              <p>{t("mappings.csv.more", { count: result.errors.length - SHOWN_ERRORS })}</p>
            ) : null}
          </Banner>
        ) : null}
        <DropZone
          accept=".csv,text/csv"
          type="file"
          allowMultiple={false}
          disabled={fetcher.state !== "idle"}
          onDrop={(files) => importFile(files)}
        >
          <DropZone.FileUpload actionTitle={t("mappings.csv.drop")} />
        </DropZone>
      </BlockStack>
    </Card>
  );
}
