/** ISO 8601 week numbers of calendar days ("YYYY-MM-DD"). Pure. */
import { addDays, weekOf } from "./days";

/** The ISO week number (1-53) of day: the week belongs to the year of its Thursday. */
export function isoWeekNumber(day: string): number {
  const thursday = addDays(weekOf(day), 3);
  const startOfYear = Date.parse(`${thursday.slice(0, 4)}-01-01T00:00:00Z`);
  return Math.floor((Date.parse(`${thursday}T00:00:00Z`) - startOfYear) / (7 * 86_400_000)) + 1;
}
