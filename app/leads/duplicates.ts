/**
 * The platform flags the same phone with the same product inside a short window as a
 * recent duplicate. We warn first, from the shop's own recent leads; the platform decides.
 */
import type { RecentLead, RecentLeadsSource } from "./types";

export interface DuplicateHit {
  lead: RecentLead;
  minutesAgo: number;
}

export function findRecentDuplicate(
  source: RecentLeadsSource | undefined,
  phone: string,
  productKeys: readonly string[],
  orderId: string,
  now: Date,
  windowMinutes: number,
): DuplicateHit | undefined {
  if (!source || productKeys.length === 0 || windowMinutes <= 0) return undefined;
  const leads = typeof source === "function" ? source(phone) : source;
  const windowMs = windowMinutes * 60_000;
  const nowMs = now.getTime();
  let best: DuplicateHit | undefined;
  let bestAgeMs = Infinity;
  for (const lead of leads) {
    if (!lead || lead.phone !== phone || lead.orderId === orderId) continue;
    const createdMs = lead.createdAt instanceof Date ? lead.createdAt.getTime() : NaN;
    const ageMs = nowMs - createdMs;
    if (!(ageMs >= 0 && ageMs <= windowMs)) continue;
    if (!lead.productKeys.some((k) => productKeys.includes(k))) continue;
    if (ageMs < bestAgeMs) {
      bestAgeMs = ageMs;
      best = { lead, minutesAgo: Math.floor(ageMs / 60_000) };
    }
  }
  return best;
}
