/**
 * An instant an upstream answered with (the registry's publishedAt/updatedAt, GitHub's pushed_at, OSV's
 * modified), or null when the value names no instant: then the fact is unknown, never a guess.
 *
 * RFC 3339 date-times, read the same on every machine. `new Date(text)` is not that: it reads a time without
 * an offset in the process's own time zone, rolls 2026-02-30 over to 2026-03-02, and its Invalid Date made
 * the write of a whole harvest chunk throw (drizzle calls toISOString). Here:
 * - any number of fraction digits (Go and OSV send up to nine; a JS Date keeps milliseconds, truncated);
 * - `Z` or a numeric offset (`+05:30`); a time without one is UTC, which is what every upstream we read speaks;
 * - a date alone is its UTC midnight;
 * - the year must be 1000–9999: past 9999 there is no RFC 3339 form; before, no upstream event (Go writes its
 *   zero time, 0001-01-01T00:00:00Z, for "unset"), and a year below 100 does not survive the database: drizzle
 *   reads Postgres's "0001-01-01 00:00:00+00" back with `new Date`, which makes it 2001-01-01;
 * - a day, hour, minute or second out of range (a 30th of February, 24:00) is not a time: null.
 */
export function parseUpstreamTime(v: unknown): Date | null {
  if (typeof v !== "string") return null;
  const m = RFC3339.exec(v.trim());
  if (!m) return null;
  const [, y, mo, d, h = "00", mi = "00", s = "00", fraction = "", offset = "Z"] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  const ms = fraction.slice(1, 4).padEnd(3, "0");
  // every field is checked and written in the one form Date.parse reads identically everywhere
  const t = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${offset.toUpperCase() === "Z" ? "Z" : offset.replace(/^([+-]\d{2})(\d{2})$/, "$1:$2")}`);
  return Number.isNaN(t) ? null : new Date(t);
}

/**
 * How far past the moment of reading an upstream time may lie and still be believed: no upstream can have
 * changed anything after we read it, so a later time is its clock's skew, and a day covers any real skew.
 */
export const UPSTREAM_CLOCK_SKEW_MS = 24 * 3600 * 1000;

/**
 * An upstream time, or null where it lies more than the skew past `readAt` (a clock bug, a hand-edited export):
 * unknown, like a time that names no instant. Believed, a registry time dated 2099 made its listing "observed"
 * then and every later listing older than it (nothing delisted, relisted or moved to a newer version again); a
 * GitHub push dated a year ahead counted as fresh maintenance; an OSV `modified` ahead of the clock made every
 * real update look older than the cached record, and a `withdrawn` ahead of it hid an advisory not yet withdrawn.
 */
export function believableTime(at: Date | null, readAt: Date): Date | null {
  return at && at.getTime() > readAt.getTime() + UPSTREAM_CLOCK_SKEW_MS ? null : at;
}

// date [T time [fraction] [offset]]; offsets as +hh:mm (RFC 3339) or +hhmm (ISO 8601 basic, seen in the wild)
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
