/**
 * Calendar days ("YYYY-MM-DD") in the merchant's time zone: rollups are keyed by
 * the day an order arrived there, and periods are runs of such days. Pure.
 */
import { zoneOffsetMs } from "../time-zone";

/** Every shop's day is cut at Moroccan midnight: the app serves Moroccan COD shops. */
export const DEFAULT_TIME_ZONE = "Africa/Casablanca";

/** The calendar day of instant in timeZone. */
export function localDay(timeZone: string, instant: Date): string {
  return new Date(instant.getTime() + zoneOffsetMs(timeZone, instant.getTime())).toISOString().slice(0, 10);
}

/** day + n days. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The instant local midnight of day begins in timeZone (DST-safe). */
export function startOfLocalDay(timeZone: string, day: string): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  let guess = midnightUtc - zoneOffsetMs(timeZone, midnightUtc);
  // The offset at the guess may differ (a DST change between the two instants).
  guess = midnightUtc - zoneOffsetMs(timeZone, guess);
  return new Date(guess);
}

/** The Monday of day's week (ISO weeks). */
export function weekOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** A real calendar day written YYYY-MM-DD ("2026-02-30" is not). */
export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) return false;
  return addDays(value, 0) === value;
}
