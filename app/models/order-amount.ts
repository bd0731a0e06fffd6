/**
 * OrderLink.totalCents: the amount to collect (totalClient) in integer cents, the
 * column Home sums and the Orders list sorts by. 0 while the amount is unknown;
 * clamped to PostgreSQL's INTEGER (no cash-on-delivery order comes near it). Pure.
 */
import { toCents } from "../leads/money";

export const MAX_TOTAL_CENTS = 2_147_483_647;

export function totalCentsOf(totalClient: string | null | undefined): number {
  const cents = toCents(totalClient ?? undefined);
  return cents === undefined ? 0 : Math.min(cents, MAX_TOTAL_CENTS);
}
