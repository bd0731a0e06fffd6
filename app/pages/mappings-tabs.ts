/** The Mappings page's tabs: the ?tab its loader reads (Shopify is asked only for the products tab) and the page draws. */
export const MAPPINGS_TABS = ["products", "skus", "cities", "csv"] as const;
export type MappingsTab = (typeof MAPPINGS_TABS)[number];
export const isMappingsTab = (value: string | null): value is MappingsTab =>
  value !== null && (MAPPINGS_TABS as readonly string[]).includes(value);
