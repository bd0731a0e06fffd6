/**
 * Readers for the parts of a response whose shape the contract leaves open
 * (DESIGN section 5): where the ref and anomalies sit in a 201/202, the error body,
 * the list cursor. Each accepts every reasonable variant; all are pure.
 */
import type { ErrorDetails } from "./errors";
import { toAnomaly, type Anomaly } from "./schemas";

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const text = (v: unknown): string | undefined =>
  typeof v === "string" && v.trim() !== "" ? v : typeof v === "number" ? String(v) : undefined;

/** Successful bodies are wrapped in `data`; a bare body is accepted too. */
export function unwrapData(body: unknown): unknown {
  return isRecord(body) && "data" in body ? body.data : body;
}

export type CreateLeadResult =
  | { kind: "created"; ref: string; raw: unknown }
  | { kind: "damaged"; ref?: string; anomalies: Anomaly[]; raw: unknown };

/**
 * Reads a 2xx answer to POST /v1/leads. The ref and the anomalies may sit under `data`,
 * `data.lead`, `lead` or at the top; anomalies may be objects or plain strings.
 * Returns undefined for a "created" answer with no readable ref.
 */
export function readCreateResult(status: number, body: unknown): CreateLeadResult | undefined {
  const data = isRecord(body) ? body.data : undefined;
  const places = [data, isRecord(data) ? data.lead : undefined, isRecord(body) ? body.lead : undefined, body].filter(
    isRecord,
  );
  const ref = pick(places, (p) => text(p.ref) ?? text(p.reference) ?? text(p.lead_ref));
  const list = pick(places, (p) =>
    Array.isArray(p.anomalies) ? p.anomalies : Array.isArray(p.warnings) ? p.warnings : undefined,
  );
  const anomalies = (list ?? []).map(toAnomaly);
  const flaggedDamaged = places.some((p) => p.damaged === true || p.status === "damaged");
  if (status === 202 || flaggedDamaged) {
    return ref === undefined
      ? { kind: "damaged", anomalies, raw: body }
      : { kind: "damaged", ref, anomalies, raw: body };
  }
  return ref === undefined ? undefined : { kind: "created", ref, raw: body };
}

function pick<T>(places: Json[], read: (p: Json) => T | undefined): T | undefined {
  for (const place of places) {
    const value = read(place);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * Code, message and field of an error answer, from `{error: {...}}`, a flat body,
 * `{errors: [...]}`, `{errors: {field: [messages]}}`, `{error: "code", message}`,
 * or a short plain-text body.
 */
export function readErrorDetails(body: unknown): ErrorDetails {
  if (typeof body === "string") {
    const t = body.trim();
    return t && t.length <= 200 && !t.startsWith("<") ? { message: t } : {};
  }
  if (!isRecord(body)) return {};
  if (isRecord(body.error)) return detailsOf(body.error);
  if (typeof body.error === "string") {
    return compact({
      code: text(body.code) ?? body.error,
      message: text(body.message) ?? text(body.error_description) ?? text(body.detail),
      field: fieldOf(body),
    });
  }
  if (Array.isArray(body.errors) && body.errors.length > 0) {
    const first = body.errors[0];
    if (isRecord(first)) return detailsOf(first, text(body.code));
    if (typeof first === "string") return compact({ code: text(body.code), message: first });
  }
  if (isRecord(body.errors)) {
    const [field, messages] = Object.entries(body.errors)[0] ?? [];
    if (field !== undefined) {
      const message = Array.isArray(messages) ? text(messages[0]) : text(messages);
      return compact({ code: text(body.code), field, message: message ? `${field} ${message}` : undefined });
    }
  }
  return detailsOf(body);
}

function detailsOf(o: Json, fallbackCode?: string): ErrorDetails {
  return compact({
    code: text(o.code) ?? text(o.type) ?? fallbackCode,
    message: text(o.message) ?? text(o.detail) ?? text(o.description) ?? text(o.title),
    field: fieldOf(o),
  });
}

function fieldOf(o: Json): string | undefined {
  for (const name of ["field", "param", "path", "loc", "attribute"]) {
    const v = o[name];
    if (typeof v === "string" && v !== "") return v;
    if (Array.isArray(v) && v.length > 0) return v.join(".");
  }
  if (isRecord(o.source) && typeof o.source.pointer === "string") {
    return o.source.pointer.replace(/^\/+/, "").replace(/\//g, ".") || undefined;
  }
  return undefined;
}

function compact(d: ErrorDetails): ErrorDetails {
  return Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)) as ErrorDetails;
}

/**
 * The cursor of the next page: `next_before` at the top (or under `meta` / `pagination`).
 * Null, absent, or an empty string all mean "no further page".
 */
export function readNextBefore(body: unknown): string | number | null {
  if (!isRecord(body)) return null;
  for (const place of [body, body.meta, body.pagination]) {
    if (!isRecord(place)) continue;
    const v = place.next_before;
    if (typeof v === "number" && Number.isFinite(v)) return v;
    if (typeof v === "string" && v.trim() !== "") return v;
  }
  return null;
}
