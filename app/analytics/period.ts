/**
 * The page's period: the last 7, 30 or 90 days (today included) or a custom
 * run of days, and the previous period of the same length it is compared with.
 * Pure; a bad custom period is answered with what is wrong, never guessed.
 */
import { addDays, isDay } from "./days";
import { daysBetween } from "./contribution";

export const PRESETS = [7, 30, 90] as const;
export type Preset = (typeof PRESETS)[number];
export const DEFAULT_PRESET: Preset = 30;
/** Longest custom period: a year and a day (a leap year). */
export const MAX_PERIOD_DAYS = 366;

export interface Period {
  from: string;
  to: string;
  days: number;
  preset: Preset | null;
  previous: { from: string; to: string };
}

export type PeriodError = "bad_from" | "bad_to" | "reversed" | "too_long" | "future";

export function periodOf(from: string, to: string, preset: Preset | null): Period {
  const days = daysBetween(from, to) + 1;
  return { from, to, days, preset, previous: { from: addDays(from, -days), to: addDays(from, -1) } };
}

export function presetPeriod(preset: Preset, today: string): Period {
  return periodOf(addDays(today, -(preset - 1)), today, preset);
}

/** ?period=7|30|90, or ?from=YYYY-MM-DD&to=YYYY-MM-DD; anything else is the 30-day default plus the error. */
export function parsePeriod(params: URLSearchParams, today: string): { period: Period; error: PeriodError | null } {
  const from = params.get("from");
  const to = params.get("to");
  const fallback = presetPeriod(DEFAULT_PRESET, today);
  if (from !== null || to !== null) {
    if (!from || !isDay(from)) return { period: fallback, error: "bad_from" };
    if (!to || !isDay(to)) return { period: fallback, error: "bad_to" };
    if (to < from) return { period: fallback, error: "reversed" };
    if (to > today) return { period: fallback, error: "future" };
    if (daysBetween(from, to) + 1 > MAX_PERIOD_DAYS) return { period: fallback, error: "too_long" };
    return { period: periodOf(from, to, null), error: null };
  }
  const preset = Number(params.get("period"));
  return {
    period: (PRESETS as readonly number[]).includes(preset) ? presetPeriod(preset as Preset, today) : fallback,
    error: null,
  };
}

/** The query string that reopens period (for links, the CSV export and the period picker). */
export function periodSearch(period: Period): string {
  return period.preset ? `period=${period.preset}` : `from=${period.from}&to=${period.to}`;
}
