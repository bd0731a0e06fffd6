/** The shop's SKU mappings (plain and bundles): edit or delete each. */
import { useEffect } from "react";
import { useFetcher } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Badge, BlockStack, Button, Card, IndexTable, InlineStack, Text } from "@shopify/polaris";
import { useT } from "../../i18n/react";
import { CardHeading } from "../CardHeading";
import { ListTable } from "../ListTable";
import type { MappingsActionResult, SkuMappingView } from "../../pages/mappings.server";

export function SkuMappingsTable({
  mappings,
  onAdd,
  onEdit,
}: {
  mappings: SkuMappingView[];
  onAdd(): void;
  onEdit(mapping: SkuMappingView): void;
}) {
  const t = useT();
  const shopify = useAppBridge();
  const fetcher = useFetcher<MappingsActionResult>();
  const deleted = fetcher.data?.intent === "deleteMapping" ? fetcher.data : undefined;
  useEffect(() => {
    if (deleted?.ok) shopify.toast.show(t("mappings.deleted"));
  }, [deleted, shopify, t]);

  return (
    <Card padding="0">
      <div style={{ padding: "var(--p-space-400)" }}>
        <InlineStack align="space-between" blockAlign="center" gap="300">
          <CardHeading title={t("mappings.skus.title")} intro={t("mappings.skus.intro")} />
          <Button variant="primary" onClick={onAdd}>
            {t("mappings.skus.add")}
          </Button>
        </InlineStack>
      </div>
      <ListTable
        itemCount={mappings.length}
        resourceName={t("mappings.tab.skus")}
        empty={t("mappings.skus.empty")}
        headings={[
          { title: t("mappings.skus.col.source") },
          { title: t("mappings.skus.col.label") },
          { title: t("mappings.skus.col.items") },
          { title: t("mappings.col.actions"), alignment: "end" },
        ]}
      >
        {mappings.map((mapping, index) => (
          <IndexTable.Row id={mapping.id} key={mapping.id} position={index}>
            <IndexTable.Cell>
              <InlineStack gap="200" blockAlign="center">
                <Badge>{t(mapping.sourceKind === "variant" ? "mappings.kind.variant" : "mappings.kind.sku")}</Badge>
                <Text as="span" fontWeight="semibold">
                  {mapping.sourceKey}
                </Text>
                {mapping.targets.length > 1 ? <Badge tone="info">{t("mappings.bundle")}</Badge> : null}
              </InlineStack>
            </IndexTable.Cell>
            <IndexTable.Cell>{mapping.label ?? ""}</IndexTable.Cell>
            <IndexTable.Cell>
              <BlockStack gap="050">
                {mapping.targets.map((target, i) => (
                  <InlineStack key={i} gap="100" blockAlign="center">
                    <Text as="span" variant="bodySm">
                      {t("mappings.item", {
                        quantity: target.quantity,
                        sku: target.kind === "sku" ? target.key : `#${target.key}`,
                      })}
                      {target.name ? ` · ${target.name}` : ""}
                    </Text>
                    {target.name ? null : <Badge tone="critical">{t("mappings.incomplete")}</Badge>}
                  </InlineStack>
                ))}
              </BlockStack>
            </IndexTable.Cell>
            <IndexTable.Cell>
              <InlineStack align="end" gap="200">
                <Button size="slim" onClick={() => onEdit(mapping)}>
                  {t("mappings.edit")}
                </Button>
                <Button
                  size="slim"
                  tone="critical"
                  loading={fetcher.state !== "idle" && fetcher.formData?.get("id") === mapping.id}
                  onClick={() => fetcher.submit({ intent: "deleteMapping", id: mapping.id }, { method: "post" })}
                >
                  {t("mappings.delete")}
                </Button>
              </InlineStack>
            </IndexTable.Cell>
          </IndexTable.Row>
        ))}
      </ListTable>
    </Card>
  );
}
