/**
 * Searchable pickers over the cached platform lists: a product (or variant) for
 * an unknown SKU, a delivered city for an unrecognised spelling. The matcher's
 * suggestions come first; a search that finds nothing says the platform has no such item.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Autocomplete } from "@shopify/polaris";
import { useT } from "../../i18n/react";
import type { CityOption, ProductOption } from "../../pages/anomalies.server";
import type { Suggestion } from "../../leads/types";

const SHOWN = 50;

/** Polaris' option and section descriptors (not exported by the package). */
type OptionDescriptor = { value: string; label: string; disabled?: boolean };
type SectionDescriptor = { title: string; options: OptionDescriptor[] };

/** The one option of a search that found nothing (disabled: it says so, it picks nothing). */
const NOTHING = "\u0000nothing";

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
  const { options, selectedKey, suggestedKeys, keyOf, labelOf, searchTextOf, nothingFound } = props;
  const t = useT();
  const byKey = useMemo(() => new Map(options.map((o) => [keyOf(o), o])), [options, keyOf]);
  const selected = selectedKey !== null ? byKey.get(selectedKey) : undefined;
  const [input, setInput] = useState(() => (selected ? labelOf(selected) : ""));
  // A choice made outside the picker (a proposal's "Choose") shows in its field.
  useEffect(() => {
    if (selected) setInput(labelOf(selected));
  }, [selected, labelOf]);

  const sections = useMemo((): SectionDescriptor[] | OptionDescriptor[] => {
    const query = fold(input.trim());
    const filtering = query !== "" && (!selected || query !== fold(labelOf(selected)));
    const matching = filtering ? options.filter((o) => fold(searchTextOf(o)).includes(query)) : options;
    // Nothing found is said in the list itself, as its one option, not as an empty list.
    if (filtering && matching.length === 0)
      return [{ value: NOTHING, label: nothingFound(input.trim()), disabled: true }];
    const suggested = filtering ? [] : suggestedKeys.flatMap((key) => (byKey.has(key) ? [byKey.get(key)!] : []));
    const option = (o: O) => ({ value: keyOf(o), label: labelOf(o) });
    const result: SectionDescriptor[] = [];
    if (suggested.length) result.push({ title: t("order.fix.suggested"), options: suggested.map(option) });
    result.push({ title: t("order.fix.all"), options: matching.slice(0, SHOWN).map(option) });
    return result;
  }, [input, options, suggestedKeys, selected, byKey, keyOf, labelOf, searchTextOf, t, nothingFound]);

  // Polaris leaves the closed list's active option on the field (aria-activedescendant and aria-owns
  // naming elements that are gone), which screen readers and axe-core reject: removed while closed.
  const field = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const input = field.current?.querySelector("input[role=combobox]");
    if (!input) return;
    const tidy = () => {
      if (input.getAttribute("aria-expanded") === "true") return;
      for (const name of ["aria-activedescendant", "aria-owns"])
        if (input.hasAttribute(name)) input.removeAttribute(name);
    };
    const observer = new MutationObserver(tidy);
    observer.observe(input, {
      attributes: true,
      attributeFilter: ["aria-expanded", "aria-activedescendant", "aria-owns"],
    });
    tidy();
    return () => observer.disconnect();
  }, []);

  return (
    <div ref={field}>
      <Autocomplete
        options={sections}
        selected={selectedKey !== null ? [selectedKey] : []}
        onSelect={(keys) => {
          const option = byKey.get(keys[0]);
          if (!option) return;
          props.onPick(option);
          setInput(labelOf(option));
        }}
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
    </div>
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
  const nothingFound = useCallback((query: string) => t("suggestions.picker.noProduct", { query }), [t]);
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
      nothingFound={nothingFound}
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
  const nothingFound = useCallback((query: string) => t("suggestions.picker.noCity", { query }), [t]);
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
      nothingFound={nothingFound}
    />
  );
}
