/**
 * Searchable pickers over the cached platform lists: a product (or variant) for
 * an unknown SKU, a delivered city for an unrecognised spelling. The matcher's
 * suggestions come first; a search that finds nothing says the platform has no such item.
 */
import { useCallback, useEffect, useMemo, useState } from "react";
import { Autocomplete, Text } from "@shopify/polaris";
import { useT } from "../../i18n/react";
import type { CityOption, ProductOption } from "../../pages/anomalies.server";
import type { Suggestion } from "../../leads/types";

const SHOWN = 50;

/** Polaris' SectionDescriptor (not exported by the package). */
type SectionDescriptor = { title: string; options: { value: string; label: string }[] };

const productLabel = (o: ProductOption, outOfStock: string) =>
  `${o.name} · ${o.sku}${o.inStock ? "" : ` (${outOfStock})`}`;

/** Case- and accent-insensitive. */
const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

interface PickerProps<V> {
  label: string;
  value: V | null;
  onChange(value: V): void;
  suggestions: Suggestion[];
}

/**
 * One searchable list: the suggested options first (until the merchant types),
 * then the first SHOWN options whose search text contains what was typed.
 */
function OptionPicker<O>(props: {
  label: string;
  placeholder: string;
  options: O[];
  selectedKey: string | null;
  suggestedKeys: string[];
  keyOf(option: O): string;
  labelOf(option: O): string;
  searchTextOf(option: O): string;
  onPick(option: O): void;
  /** What to say when the search finds nothing. */
  nothingFound(query: string): string;
}) {
  const { options, selectedKey, suggestedKeys, keyOf, labelOf, searchTextOf } = props;
  const t = useT();
  const byKey = useMemo(() => new Map(options.map((o) => [keyOf(o), o])), [options, keyOf]);
  const selected = selectedKey !== null ? byKey.get(selectedKey) : undefined;
  const [input, setInput] = useState(() => (selected ? labelOf(selected) : ""));
  // A choice made outside the picker (a proposal's "Choose") shows in its field.
  useEffect(() => {
    if (selected) setInput(labelOf(selected));
  }, [selected, labelOf]);

  const sections = useMemo((): SectionDescriptor[] => {
    const query = fold(input.trim());
    const filtering = query !== "" && (!selected || query !== fold(labelOf(selected)));
    const matching = filtering ? options.filter((o) => fold(searchTextOf(o)).includes(query)) : options;
    const suggested = filtering ? [] : suggestedKeys.flatMap((key) => (byKey.has(key) ? [byKey.get(key)!] : []));
    const option = (o: O) => ({ value: keyOf(o), label: labelOf(o) });
    const result: SectionDescriptor[] = [];
    if (suggested.length) result.push({ title: t("order.fix.suggested"), options: suggested.map(option) });
    // No section at all when nothing matches: the picker then says so (Polaris shows emptyState).
    if (matching.length > 0) result.push({ title: t("order.fix.all"), options: matching.slice(0, SHOWN).map(option) });
    return result;
  }, [input, options, suggestedKeys, selected, byKey, keyOf, labelOf, searchTextOf, t]);

  return (
    <Autocomplete
      options={sections}
      selected={selectedKey !== null ? [selectedKey] : []}
      onSelect={(keys) => {
        const option = byKey.get(keys[0]);
        if (!option) return;
        props.onPick(option);
        setInput(labelOf(option));
      }}
      emptyState={
        <div data-picker-empty>
          <Text as="p" tone="subdued">
            {input.trim() ? props.nothingFound(input.trim()) : t("order.fix.noMatch")}
          </Text>
        </div>
      }
      textField={
        <Autocomplete.TextField
          label={props.label}
          value={input}
          onChange={setInput}
          placeholder={props.placeholder}
          autoComplete="off"
        />
      }
    />
  );
}

const productKey = (o: ProductOption) => o.sku;
const productSearchText = (o: ProductOption) => `${o.name} ${o.sku}`;
const cityKey = (o: CityOption) => String(o.id);
const cityName = (o: CityOption) => o.name;

export function ProductPicker({
  label,
  value,
  onChange,
  suggestions,
  options,
}: PickerProps<string> & { options: ProductOption[] }) {
  const t = useT();
  const outOfStock = t("order.fix.outOfStock");
  const labelOf = useCallback((o: ProductOption) => productLabel(o, outOfStock), [outOfStock]);
  const suggestedKeys = useMemo(() => suggestions.flatMap((s) => (s.kind === "product" ? [s.sku] : [])), [suggestions]);
  return (
    <OptionPicker
      label={label}
      placeholder={t("order.fix.productPlaceholder")}
      options={options}
      selectedKey={value || null}
      suggestedKeys={suggestedKeys}
      keyOf={productKey}
      labelOf={labelOf}
      searchTextOf={productSearchText}
      onPick={(o) => onChange(o.sku)}
      nothingFound={(query) => t("suggestions.picker.noProduct", { query })}
    />
  );
}

export function CityPicker({
  label,
  value,
  onChange,
  suggestions,
  options,
}: PickerProps<number> & { options: CityOption[] }) {
  const t = useT();
  const suggestedKeys = useMemo(
    () => suggestions.flatMap((s) => (s.kind === "city" ? [String(s.cityId)] : [])),
    [suggestions],
  );
  return (
    <OptionPicker
      label={label}
      placeholder={t("order.fix.cityPlaceholder")}
      options={options}
      selectedKey={value !== null ? String(value) : null}
      suggestedKeys={suggestedKeys}
      keyOf={cityKey}
      labelOf={cityName}
      searchTextOf={cityName}
      onPick={(o) => onChange(o.id)}
      nothingFound={(query) => t("suggestions.picker.noCity", { query })}
    />
  );
}
