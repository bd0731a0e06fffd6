/**
 * Which orders a reconciliation pass reads and which it may take in (pure).
 *
 * A pass reads the orders updated since the watermark (the previous pass's start, less
 * an overlap: Shopify's search can trail a write by a few seconds, and an order read
 * twice changes nothing). It takes in only orders created since the coverage start: the
 * install, or after a reinstall the last order the app saw; never more than the bound back.
 * What lies before the bound is named (uncoveredFrom) for the merchant's Backfill.
 */

export const WATERMARK_OVERLAP_MS = 2 * 60_000;

export interface LedgerMarks {
  coverageFrom: Date;
  uncoveredFrom: Date | null;
  watermark: Date | null;
}

export interface PassWindow {
  /** The pass reads orders updated since here. */
  from: Date;
  /** It takes in orders created since here. */
  coverageFrom: Date;
  /** Orders created from here to coverageFrom were not checked (a pause beyond the bound); null when none. */
  uncoveredFrom: Date | null;
}

/**
 * The first coverage of a shop: from the install, or from the last order the app saw
 * when that is earlier (a reinstall after a pause: the gap since then). Orders arriving
 * while the first pass is on its way are covered either way; the bound applies after.
 */
export function firstCoverage(input: { installedAt: Date; lastSeenOrderAt: Date | null }): Date {
  return input.lastSeenOrderAt && input.lastSeenOrderAt < input.installedAt ? input.lastSeenOrderAt : input.installedAt;
}

/** The window of the next pass, bounded to maxGapMs before now. */
export function passWindow(marks: LedgerMarks, now: Date, maxGapMs: number): PassWindow {
  const floor = new Date(now.getTime() - maxGapMs);
  const from = marks.watermark ?? marks.coverageFrom;
  if (from >= floor) return { from, coverageFrom: marks.coverageFrom, uncoveredFrom: marks.uncoveredFrom };
  // The bound reached: the pass starts there. After a pause (a watermark older than the bound) it
  // says what it left; a shop's first pass was never away, it only starts no further back.
  const coverageFrom = marks.coverageFrom > floor ? marks.coverageFrom : floor;
  const paused = marks.watermark !== null && from < coverageFrom;
  return { from: floor, coverageFrom, uncoveredFrom: marks.uncoveredFrom ?? (paused ? from : null) };
}

/** Where the pass after one that started at `passStartedAt` reads from. */
export function nextWatermark(passStartedAt: Date): Date {
  return new Date(passStartedAt.getTime() - WATERMARK_OVERLAP_MS);
}

/** Shopify's search syntax for an instant (quoted: an ISO time holds colons). */
const instant = (at: Date) => `"${at.toISOString()}"`;

export const updatedSinceQuery = (from: Date) => `updated_at:>=${instant(from)}`;
export const createdBetweenQuery = (from: Date, to: Date) => `created_at:>=${instant(from)} created_at:<${instant(to)}`;

/** The sync ledger's two windows. */
export const LEDGER_WINDOWS = { day: 24 * 3600_000, week: 7 * 24 * 3600_000 } as const;
export type LedgerWindow = keyof typeof LEDGER_WINDOWS;

/** A window's start: its length back from now, never before the coverage start (nothing before is the reconciliation's). */
export function windowStart(window: LedgerWindow, now: Date, coverageFrom: Date): Date {
  const start = new Date(now.getTime() - LEDGER_WINDOWS[window]);
  return start > coverageFrom ? start : coverageFrom;
}
