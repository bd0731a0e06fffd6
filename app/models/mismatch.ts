/**
 * A sent order Shopify and the platform disagree about in a way that costs money:
 * cancelled or refunded in Shopify while its parcel still ships, or edited after
 * its lead was sent (the Seller Order API can neither cancel nor edit a lead).
 * Stored as OrderLink.mismatch by the intake; it stops costing once the lead
 * reaches a final status (delivered, returned, cancelled on the platform). Pure.
 */
export const MISMATCHES = ["cancelled", "refunded", "edited"] as const;
export type Mismatch = (typeof MISMATCHES)[number];
export const isMismatch = (value: unknown): value is Mismatch => (MISMATCHES as readonly unknown[]).includes(value);

/** A sent order Shopify and the platform disagree about, whose lead is still moving: it costs money. */
export function costsMoney(link: { state: string; mismatch?: string | null; statusFinal?: boolean }): boolean {
  return (link.state === "created" || link.state === "damaged") && isMismatch(link.mismatch) && !link.statusFinal;
}
