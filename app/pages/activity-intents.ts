/** What the Activity page's forms post and what its action answers: the page's action and its cards share them. */
export const RECONCILE_NOW_INTENT = "reconcileNow";

export type ActivityActionResult =
  { intent: "retryJob"; ok: boolean } | { intent: "retryAllDead"; ok: true; count: number };

export type SyncLedgerActionResult = { intent: typeof RECONCILE_NOW_INTENT; ok: true };
