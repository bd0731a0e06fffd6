/** Pick one platform item from the cached catalogue, searched by name or SKU as the merchant types. */
import { useMemo, useState } from "react";
import { Autocomplete } from "@shopify/polaris";
import { useT } from "../../i18n/react";
import type { CatalogueOption } from "../../pages/mappings.server";

const MAX_OPTIONS = 50;

/** Lower case without accents, so "eau de rose" finds "Eau de rose de Kelâa". */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

export function optionLabel(option: CatalogueOption): string {
  return `${option.sku} · ${option.name}`;
}

export function filterCatalogue(catalogue: readonly CatalogueOption[], query: string): CatalogueOption[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  const out: CatalogueOption[] = [];
  for (const option of catalogue) {
    const haystack = fold(`${option.sku} ${option.name}`);
    if (words.every((w) => haystack.includes(w))) out.push(option);
    if (out.length === MAX_OPTIONS) break;
  }
  return out;
}

export function CataloguePicker({
  catalogue,
  selectedSku,
  fallbackLabel,
  onSelect,
  label,
  error,
}: {
  catalogue: readonly CatalogueOption[];
  /** The SKU currently chosen, if any. */
  selectedSku: string | null;
  /** What to show when the chosen item is not a catalogue SKU (a product id target). */
  fallbackLabel?: string;
  onSelect(option: CatalogueOption): void;
  label: string;
  error?: string;
}) {
  const t = useT();
  const selected = selectedSku ? catalogue.find((o) => o.sku === selectedSku) : undefined;
  const shown = selected ? optionLabel(selected) : (selectedSku ?? fallbackLabel ?? "");
  const [input, setInput] = useState<string | null>(null);
  const options = useMemo(
    () =>
      filterCatalogue(catalogue, input ?? "").map((o) => ({
        value: o.sku,
        label: o.inStock ? optionLabel(o) : `${optionLabel(o)} (${t("mappings.outOfStock")})`,
      })),
    [catalogue, input, t],
  );

  return (
    <Autocomplete
      options={options}
      selected={selectedSku ? [selectedSku] : []}
      onSelect={([sku]) => {
        const option = catalogue.find((o) => o.sku === sku);
        if (option) onSelect(option);
        setInput(null);
      }}
      emptyState={t("mappings.editor.noMatch")}
      textField={
        <Autocomplete.TextField
          label={label}
          value={input ?? shown}
          onChange={setInput}
          placeholder={t("mappings.editor.pickPlaceholder")}
          autoComplete="off"
          error={error}
        />
      }
    />
  );
}
