/** Whole minutes from an instant (ISO) to now, never negative; null for no instant. Ages the pages show as they are. */
export function minutesSince(iso: string | null | undefined, now: number): number | null {
  return iso ? Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000)) : null;
}
