/**
 * Wall-clock time in a named time zone (the merchant's, Africa/Casablanca by
 * default) without a date library: Intl gives the local parts, the offset is
 * their difference from UTC. Pure; formatters are cached per zone.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localParts(timeZone: string, instant: number): LocalParts {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, Number(p.value)]));
  return parts as unknown as LocalParts;
}

/** Offset of timeZone from UTC at instant, in ms (local - UTC). */
export function zoneOffsetMs(timeZone: string, instant: number): number {
  const p = localParts(timeZone, instant);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(instant / 1000) * 1000;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** instant in timeZone as "YYYY-MM-DD HH:MM:SS" and its offset "+01:00". */
export function zonedTime(instant: Date, timeZone: string): { local: string; offset: string } {
  const p = localParts(timeZone, instant.getTime());
  const local = `${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
  const minutes = Math.round(zoneOffsetMs(timeZone, instant.getTime()) / 60_000);
  const abs = Math.abs(minutes);
  return { local, offset: `${minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}` };
}

/** instant in timeZone as wall-clock text, "YYYY-MM-DD HH:MM:SS": what the pages' formatters read (app/i18n/format.ts). */
export function localTime(instant: Date | string, timeZone: string): string {
  return zonedTime(typeof instant === "string" ? new Date(instant) : instant, timeZone).local;
}
