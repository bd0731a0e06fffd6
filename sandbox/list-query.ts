/** Query parameters of GET /v1/leads (pure); every malformed one is a 422 naming it. */
import { ValidationError } from "./errors";
import { isConfirmationStatus } from "./lifecycle";
import type { ListQuery } from "./store";

const INTEGER = /^\d+$/;

export function parseListQuery(params: Record<string, string | undefined>): ListQuery {
  return {
    limit: parseLimit(params.limit),
    before: parseBefore(params.before),
    status: parseStatus(params.status),
    sinceMs: parseSince(params.since),
  };
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return 50;
  const n = INTEGER.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= 100)) throw new ValidationError("limit", "limit must be an integer from 1 to 100.");
  return n;
}

function parseBefore(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const n = INTEGER.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && Number.isSafeInteger(n)))
    throw new ValidationError("before", "before must be a next_before value from a previous page.");
  return n;
}

function parseStatus(raw: string | undefined): ListQuery["status"] {
  if (raw === undefined) return null;
  if (!isConfirmationStatus(raw)) throw new ValidationError("status", "status must be a confirmation_status value.");
  return raw;
}

/** YYYY-MM-DD, a real calendar date, read as the start of that day in UTC. */
function parseSince(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  if (!match || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== raw) {
    throw new ValidationError("since", "since must be a date written YYYY-MM-DD.");
  }
  return ms;
}
