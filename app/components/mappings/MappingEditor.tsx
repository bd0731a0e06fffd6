/**
 * Create or edit one SKU mapping: the Shopify side (a variant or a SKU) and one or
 * several platform items with quantities (several make a bundle).
 */
import { useEffect, useState } from "react";
import { useFetcher } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Button, Card, FormLayout, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import { useT, type Translate } from "../../i18n/react";
import { isMessageKey } from "../../i18n";
import type { ProductSuggestion } from "../../leads/types";
import type { CatalogueOption, MappingsActionResult } from "../../pages/mappings.server";
import type { Release } from "../../sync/release-held.server";
import { CataloguePicker } from "./CataloguePicker";
import { UnsavedChangesBar } from "../UnsavedChanges";

export interface DraftTarget {
  sku: string | null;
  productId: number | null;
  quantity: string;
}

export interface MappingDraft {
  /** Set when editing a saved mapping. */
  id?: string;
  sourceKind: "variant" | "sku";
  sourceKey: string;
  /** Shown instead of the source fields when the source is fixed (opened from a variant or a mapping). */
  sourceLabel?: string;
  label: string;
  targets: DraftTarget[];
  suggestions?: ProductSuggestion[];
}

const emptyTarget = (): DraftTarget => ({ sku: null, productId: null, quantity: "1" });

/** What is wrong with a mapping, by the field the rules named ("targets[0].quantity"), in the merchant's language. */
function mappingProblem(t: Translate, field: string): string {
  const name = field.split(/[.[]/)[0];
  const key = `mappings.editor.problem.${name}`;
  return t(isMessageKey(key) ? key : "mappings.editor.problem.other");
}

export function MappingEditor({
  draft,
  catalogue,
  onClose,
  onSaved,
}: {
  draft: MappingDraft;
  catalogue: readonly CatalogueOption[];
  onClose(): void;
  /** The held orders the saved mapping freed. */
  onSaved?(release: Release | undefined): void;
}) {
  const t = useT();
  const shopify = useAppBridge();
  const fetcher = useFetcher<MappingsActionResult>();
  const [sourceKind, setSourceKind] = useState(draft.sourceKind);
  const [sourceKey, setSourceKey] = useState(draft.sourceKey);
  const [label, setLabel] = useState(draft.label);
  const [targets, setTargets] = useState<DraftTarget[]>(draft.targets.length ? draft.targets : [emptyTarget()]);
  const result = fetcher.data?.intent === "saveMapping" ? fetcher.data : undefined;

  useEffect(() => {
    if (result?.ok) {
      shopify.toast.show(t("mappings.saved"));
      onSaved?.(result.release);
      onClose();
    }
    // Only a new answer closes the editor (onClose is a new function on every render).
  }, [result]);

  const setTarget = (index: number, change: Partial<DraftTarget>) =>
    setTargets((current) => current.map((target, i) => (i === index ? { ...target, ...change } : target)));

  const save = () => {
    const payload = targets
      .filter((target) => target.sku || target.productId)
      .map((target) =>
        target.sku
          ? { sku: target.sku, quantity: Number(target.quantity) }
          : { product_id: target.productId, quantity: Number(target.quantity) },
      );
    fetcher.submit(
      {
        intent: "saveMapping",
        ...(draft.id ? { id: draft.id } : {}),
        sourceKind,
        sourceKey,
        label,
        targets: JSON.stringify(payload),
      },
      { method: "post" },
    );
  };

  const error = result && !result.ok ? result.error : undefined;
  // Changed since it opened: App Bridge's save bar, and leaving asks first.
  const initialTargets = draft.targets.length ? draft.targets : [emptyTarget()];
  const dirty =
    sourceKind !== draft.sourceKind ||
    sourceKey !== draft.sourceKey ||
    label !== draft.label ||
    JSON.stringify(targets) !== JSON.stringify(initialTargets);

  return (
    <Card>
      <UnsavedChangesBar
        id="mapping-save-bar"
        dirty={dirty && !result?.ok}
        saving={fetcher.state !== "idle"}
        onSave={save}
        onDiscard={onClose}
        saveLabel={t("mappings.editor.save")}
        discardLabel={t("common.discard")}
      />
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          {draft.sourceLabel
            ? t("mappings.editor.editTitle", { source: draft.sourceLabel })
            : t("mappings.editor.newTitle")}
        </Text>
        {error ? (
          <Banner tone="critical">
            <p>{t("mappings.editor.error", { problem: mappingProblem(t, error.field) })}</p>
          </Banner>
        ) : null}
        <FormLayout>
          {draft.sourceLabel ? null : (
            <FormLayout.Group>
              <Select
                label={t("mappings.editor.sourceKind")}
                options={[
                  { label: t("mappings.editor.kind.sku"), value: "sku" },
                  { label: t("mappings.editor.kind.variant"), value: "variant" },
                ]}
                value={sourceKind}
                onChange={(value) => setSourceKind(value === "variant" ? "variant" : "sku")}
              />
              <TextField
                label={t("mappings.editor.sourceKey")}
                value={sourceKey}
                onChange={setSourceKey}
                autoComplete="off"
                error={error?.field === "sourceKey" ? mappingProblem(t, error.field) : undefined}
              />
            </FormLayout.Group>
          )}
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {t("mappings.editor.items")}
            </Text>
            <Text as="p" variant="bodySm" tone="subdued">
              {t("mappings.editor.itemsHelp")}
            </Text>
            {draft.suggestions?.length ? (
              <InlineStack gap="200">
                {draft.suggestions.map((s) => (
                  <Button
                    key={s.sku}
                    size="slim"
                    onClick={() => setTarget(targets.length - 1, { sku: s.sku, productId: null })}
                  >
                    {t("mappings.suggestion", { name: `${s.sku} · ${s.name}` })}
                  </Button>
                ))}
              </InlineStack>
            ) : null}
            {targets.map((target, index) => (
              <InlineStack key={index} gap="200" blockAlign="end" wrap={false}>
                <div style={{ flex: 1 }}>
                  <CataloguePicker
                    label={t("mappings.editor.pick")}
                    catalogue={catalogue}
                    selectedSku={target.sku}
                    fallbackLabel={
                      target.productId ? t("mappings.editor.product", { id: target.productId }) : undefined
                    }
                    onSelect={(option) => setTarget(index, { sku: option.sku, productId: null })}
                    error={error?.field.startsWith(`targets[${index}]`) ? mappingProblem(t, error.field) : undefined}
                  />
                </div>
                <div style={{ width: "7rem" }}>
                  <TextField
                    label={t("mappings.editor.quantity")}
                    type="number"
                    min={1}
                    value={target.quantity}
                    onChange={(value) => setTarget(index, { quantity: value })}
                    autoComplete="off"
                  />
                </div>
                <Button
                  variant="plain"
                  tone="critical"
                  disabled={targets.length === 1}
                  onClick={() => setTargets((current) => current.filter((_, i) => i !== index))}
                >
                  {t("mappings.editor.removeItem")}
                </Button>
              </InlineStack>
            ))}
            <InlineStack>
              <Button onClick={() => setTargets((current) => [...current, emptyTarget()])}>
                {t("mappings.editor.addItem")}
              </Button>
            </InlineStack>
          </BlockStack>
          <TextField label={t("mappings.editor.label")} value={label} onChange={setLabel} autoComplete="off" />
        </FormLayout>
        <InlineStack align="end" gap="200">
          <Button onClick={onClose}>{t("mappings.editor.cancel")}</Button>
          <Button variant="primary" onClick={save} loading={fetcher.state !== "idle"}>
            {t("mappings.editor.save")}
          </Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}
