/**
 * Searchable pickers over the cached platform lists: a product (or variant) for
 * an unknown SKU, a delivered city for an unrecognised spelling. The matcher's
 * suggestions come first.
 */
import { useMemo, useState } from "react";
import { Autocomplete, Text } from "@shopify/polaris";
import { useT } from "../../i18n/react";
import type { CityOption, ProductOption } from "../../models/anomaly-groups.server";
import type { Suggestion } from "../../leads/types";

const SHOWN = 50;

/** Polaris' SectionDescriptor (not exported by the package). */
type SectionDescriptor = { title: string; options: { value: string; label: string }[] };

const productLabel = (o: ProductOption, outOfStock: string) => `${o.name} · ${o.sku}${o.inStock ? "" : ` (${outOfStock})`}`;

/** Case- and accent-insensitive. */
const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

interface PickerProps<V> {
  label: string;
  value: V | null;
  onChange(value: V): void;
  suggestions: Suggestion[];
}

export function ProductPicker({ label, value, onChange, suggestions, options }: PickerProps<string> & { options: ProductOption[] }) {
  const t = useT();
  const outOfStock = t("order.fix.outOfStock");
  const labelOf = (o: ProductOption) => productLabel(o, outOfStock);
  const bySku = useMemo(() => new Map(options.map((o) => [o.sku, o])), [options]);
  const [input, setInput] = useState(() => (value && bySku.get(value) ? labelOf(bySku.get(value)!) : ""));

  const sections = useMemo((): SectionDescriptor[] => {
    const query = fold(input.trim());
    const selected = value ? bySku.get(value) : undefined;
    const filtering = query !== "" && (!selected || query !== fold(productLabel(selected, outOfStock)));
    const matching = filtering ? options.filter((o) => fold(`${o.name} ${o.sku}`).includes(query)) : options;
    const suggested = filtering ? [] : suggestions.flatMap((s) => (s.kind === "product" && bySku.has(s.sku) ? [bySku.get(s.sku)!] : []));
    const option = (o: ProductOption) => ({ value: o.sku, label: productLabel(o, outOfStock) });
    const result: SectionDescriptor[] = [];
    if (suggested.length) result.push({ title: t("order.fix.suggested"), options: suggested.map(option) });
    result.push({ title: t("order.fix.all"), options: matching.slice(0, SHOWN).map(option) });
    return result;
  }, [input, options, suggestions, value, bySku, t, outOfStock]);

  return (
    <Autocomplete
      options={sections}
      selected={value ? [value] : []}
      onSelect={(selected) => {
        const option = bySku.get(selected[0]);
        if (!option) return;
        onChange(option.sku);
        setInput(labelOf(option));
      }}
      emptyState={<Text as="p" tone="subdued">{t("order.fix.noMatch")}</Text>}
      textField={
        <Autocomplete.TextField
          label={label}
          value={input}
          onChange={setInput}
          placeholder={t("order.fix.productPlaceholder")}
          autoComplete="off"
        />
      }
    />
  );
}

export function CityPicker({ label, value, onChange, suggestions, options }: PickerProps<number> & { options: CityOption[] }) {
  const t = useT();
  const byId = useMemo(() => new Map(options.map((o) => [String(o.id), o])), [options]);
  const [input, setInput] = useState(() => (value !== null ? (byId.get(String(value))?.name ?? "") : ""));

  const sections = useMemo((): SectionDescriptor[] => {
    const query = fold(input.trim());
    const selectedName = value !== null ? fold(byId.get(String(value))?.name ?? "") : null;
    const filtering = query !== "" && query !== selectedName;
    const matching = filtering ? options.filter((o) => fold(o.name).includes(query)) : options;
    const suggested = filtering ? [] : suggestions.flatMap((s) => (s.kind === "city" && byId.has(String(s.cityId)) ? [byId.get(String(s.cityId))!] : []));
    const result: SectionDescriptor[] = [];
    if (suggested.length) result.push({ title: t("order.fix.suggested"), options: suggested.map((o) => ({ value: String(o.id), label: o.name })) });
    result.push({ title: t("order.fix.all"), options: matching.slice(0, SHOWN).map((o) => ({ value: String(o.id), label: o.name })) });
    return result;
  }, [input, options, suggestions, value, byId, t]);

  return (
    <Autocomplete
      options={sections}
      selected={value !== null ? [String(value)] : []}
      onSelect={(selected) => {
        const option = byId.get(selected[0]);
        if (!option) return;
        onChange(option.id);
        setInput(option.name);
      }}
      emptyState={<Text as="p" tone="subdued">{t("order.fix.noMatch")}</Text>}
      textField={
        <Autocomplete.TextField
          label={label}
          value={input}
          onChange={setInput}
          placeholder={t("order.fix.cityPlaceholder")}
          autoComplete="off"
        />
      }
    />
  );
}
