/**
 * The order tags the app owns (pure). An order carries `cod:lead:<ref>`, the lead's
 * `cod:<confirmation_status>` and `cod:<shipping_status>`, and `cod:anomaly` while the
 * lead has anomalies; other `cod:` tags the merchant wrote are never touched.
 */
import { CONFIRMATION_STATUSES, parcelOf, SHIPPING_STATUSES } from "../vocabulary/platform-status";

export const ANOMALY_TAG = "cod:anomaly";

// "canceled" is both a confirmation and a shipping status: one `cod:canceled` tag stands for either.
const KNOWN_STATUS_TAGS = new Set([...CONFIRMATION_STATUSES, ...SHIPPING_STATUSES].map((s) => `cod:${s}`));

export interface TaggedLead {
  leadRef: string | null;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  hasAnomalies: boolean;
}

// Shopify splits tags on commas; keep each value one tag.
const tagValue = (value: string) => value.trim().replace(/,/g, "-");

export const leadTag = (ref: string) => `cod:lead:${tagValue(ref)}`;
export const statusTag = (status: string) => `cod:${tagValue(status).toLowerCase()}`;

/** Shopify compares tags case-insensitively. */
export const tagKey = (tag: string) => tag.trim().toLowerCase();

export function desiredTags(lead: TaggedLead): string[] {
  const tags: string[] = [];
  if (lead.leadRef) tags.push(leadTag(lead.leadRef));
  if (lead.confirmationStatus) tags.push(statusTag(lead.confirmationStatus));
  // Every lead starts with no parcel (shipping_status "pending"): tagging it would only
  // repeat what the confirmation tag says.
  if (lead.shippingStatus && parcelOf(lead.shippingStatus) !== "none") tags.push(statusTag(lead.shippingStatus));
  if (lead.hasAnomalies) tags.push(ANOMALY_TAG);
  return uniqueTags(tags);
}

/**
 * Whether a tag on the order is ours to remove when it is no longer current: a lead
 * tag, the anomaly tag, a status tag of a known status, or any tag we wrote before
 * (covers statuses the platform adds later).
 */
export function isManagedTag(tag: string, writtenBefore: readonly string[]): boolean {
  const key = tagKey(tag);
  return (
    key.startsWith("cod:lead:") ||
    key === ANOMALY_TAG ||
    KNOWN_STATUS_TAGS.has(key) ||
    writtenBefore.some((t) => tagKey(t) === key)
  );
}

/** Tags without case-insensitive duplicates, first spelling kept. */
export function uniqueTags(tags: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const tag of tags) if (!byKey.has(tagKey(tag))) byKey.set(tagKey(tag), tag);
  return [...byKey.values()];
}
