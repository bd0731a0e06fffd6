/** The shop's city spellings: add one (picking a delivered city), see learned ones, delete. */
import { useEffect, useState } from "react";
import { useFetcher } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  FormLayout,
  IndexTable,
  InlineStack,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useT, type Translate } from "../../i18n/react";
import { CardHeading } from "../CardHeading";
import { ListTable } from "../ListTable";
import { isMessageKey } from "../../i18n";
import type { CityAliasView, MappingsActionResult } from "../../pages/mappings.server";
import type { Release } from "../../sync/release-held.server";

/** What is wrong with a city spelling, by the field the rules named, in the merchant's language. */
function aliasProblem(t: Translate, field: string): string {
  const key = `mappings.cities.problem.${field}`;
  return t(isMessageKey(key) ? key : "mappings.cities.problem.other");
}

export function CityAliasesCard({
  aliases,
  cities,
  onSaved,
}: {
  aliases: CityAliasView[];
  cities: { id: number; name: string }[];
  /** The held orders the saved spelling freed. */
  onSaved?(release: Release | undefined): void;
}) {
  const t = useT();
  const shopify = useAppBridge();
  const addFetcher = useFetcher<MappingsActionResult>();
  const deleteFetcher = useFetcher<MappingsActionResult>();
  const [alias, setAlias] = useState("");
  const [cityId, setCityId] = useState("");
  const added = addFetcher.data?.intent === "saveAlias" ? addFetcher.data : undefined;
  const deleted = deleteFetcher.data?.intent === "deleteAlias" ? deleteFetcher.data : undefined;

  useEffect(() => {
    if (added?.ok) {
      setAlias("");
      shopify.toast.show(t("mappings.cities.saved"));
      onSaved?.(added.release);
    }
    // Only a new answer (onSaved is a new function on every render).
  }, [added, shopify, t]);
  useEffect(() => {
    if (deleted?.ok) shopify.toast.show(t("mappings.cities.deleted"));
  }, [deleted, shopify, t]);

  const error = added && !added.ok ? added.error : undefined;

  return (
    <Card padding="0">
      <div style={{ padding: "var(--p-space-400)" }}>
        <BlockStack gap="300">
          <CardHeading title={t("mappings.cities.title")} intro={t("mappings.cities.intro")} />
          {cities.length === 0 ? (
            <Banner tone="warning">
              <p>{t("mappings.cities.noCities")}</p>
            </Banner>
          ) : null}
          {error && error.field !== "alias" && error.field !== "cityId" ? (
            <Banner tone="critical">
              <p>{t("mappings.cities.error", { problem: aliasProblem(t, error.field) })}</p>
            </Banner>
          ) : null}
          <FormLayout>
            <FormLayout.Group>
              <TextField
                label={t("mappings.cities.alias")}
                value={alias}
                onChange={setAlias}
                autoComplete="off"
                error={
                  error?.field === "alias"
                    ? t("mappings.cities.error", { problem: aliasProblem(t, error.field) })
                    : undefined
                }
              />
              <Select
                label={t("mappings.cities.city")}
                options={[
                  { label: t("mappings.cities.pickCity"), value: "" },
                  ...cities.map((c) => ({ label: c.name, value: String(c.id) })),
                ]}
                value={cityId}
                onChange={setCityId}
                error={
                  error?.field === "cityId"
                    ? t("mappings.cities.error", { problem: aliasProblem(t, error.field) })
                    : undefined
                }
              />
            </FormLayout.Group>
            <InlineStack align="end">
              <Button
                variant="primary"
                disabled={!alias.trim() || !cityId}
                loading={addFetcher.state !== "idle"}
                onClick={() => addFetcher.submit({ intent: "saveAlias", alias, cityId }, { method: "post" })}
              >
                {t("mappings.cities.add")}
              </Button>
            </InlineStack>
          </FormLayout>
        </BlockStack>
      </div>
      <ListTable
        itemCount={aliases.length}
        resourceName={t("mappings.cities.title")}
        empty={t("mappings.cities.empty")}
        headings={[
          { title: t("mappings.cities.col.alias") },
          { title: t("mappings.cities.col.city") },
          { title: t("mappings.cities.col.source") },
          { title: t("mappings.col.actions"), alignment: "end" },
        ]}
      >
        {aliases.map((a, index) => (
          <IndexTable.Row id={a.id} key={a.id} position={index}>
            <IndexTable.Cell>
              <Text as="span" fontWeight="semibold">
                {a.alias}
              </Text>
            </IndexTable.Cell>
            <IndexTable.Cell>{a.cityName ?? t("mappings.cities.unknownCity", { id: a.cityId })}</IndexTable.Cell>
            <IndexTable.Cell>
              <Badge tone={a.source === "learned" ? "info" : undefined}>
                {t(a.source === "learned" ? "mappings.cities.source.learned" : "mappings.cities.source.manual")}
              </Badge>
            </IndexTable.Cell>
            <IndexTable.Cell>
              <InlineStack align="end">
                <Button
                  size="slim"
                  tone="critical"
                  loading={deleteFetcher.state !== "idle" && deleteFetcher.formData?.get("id") === a.id}
                  onClick={() => deleteFetcher.submit({ intent: "deleteAlias", id: a.id }, { method: "post" })}
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
