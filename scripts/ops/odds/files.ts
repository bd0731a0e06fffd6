/**
 * The evaluation's two files, JSON Lines (one JSON object a line; blank lines
 * and lines starting with # are skipped), read into the evaluation's orders.
 * Every problem names its file and line; nothing is guessed. The formats
 * (README, "Delivery odds"):
 *
 * orders:   {"id":"1001","placedAt":"2026-03-01T10:15:00Z","phone":"0612345678","city":"Casablanca",
 *            "amount":"249.00","items":[{"product":"ARG-OIL-50","quantity":2,"price":"45.00"}],
 *            "address":"Rue 12, Hay Salam","deliveryFee":"20.00"}
 * outcomes: {"id":"1001","outcome":"delivered","settledAt":"2026-03-04T12:00:00Z"}
 *
 * An order without an outcome line was still on its way (it counts as in
 * progress for its customer, and is not scored). `city` is a name or a platform
 * city id; `deliveryFee` may come from a cities file (GET /v1/cities' answer)
 * instead; `price` is the platform's price of one item (without it the order's
 * profit is unknown).
 */
import { normalizeMoroccanPhone } from "../../../app/leads/phone";
import { normalizeCityKey } from "../../../app/leads/city-key";
import { addressIncomplete } from "../../../app/odds/features";
import { SETTLED_OUTCOMES, type SettledOutcome } from "../../../app/odds/fit";
import type { EvalOrder } from "./evaluate";

export class FileFormatError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "FileFormatError";
  }
}

/** A file's lines as objects, each with its line number. */
function jsonLines(name: string, text: string, problems: string[]): { line: number; value: Record<string, unknown> }[] {
  const rows: { line: number; value: Record<string, unknown> }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    try {
      const value = JSON.parse(line) as unknown;
      if (typeof value !== "object" || value === null || Array.isArray(value))
        problems.push(`${name} line ${i + 1}: not a JSON object`);
      else rows.push({ line: i + 1, value: value as Record<string, unknown> });
    } catch {
      problems.push(`${name} line ${i + 1}: not JSON`);
    }
  });
  return rows;
}

const DECIMAL = /^\d{1,9}(\.\d{1,2})?$/;
const cents = (v: unknown): number | undefined =>
  typeof v === "number" && Number.isFinite(v) && v >= 0
    ? Math.round(v * 100)
    : typeof v === "string" && DECIMAL.test(v.trim())
      ? Math.round(Number(v.trim()) * 100)
      : undefined;
const time = (v: unknown): number | undefined => {
  if (typeof v !== "string") return undefined;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? ms : undefined;
};

export interface CityFee {
  id: number;
  name: string;
  delivery_fee: string;
}

/** Reads the cities file: GET /v1/cities' answer ({ data: [...] }) or its list. */
export function parseCities(text: string, name = "cities"): CityFee[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new FileFormatError([`${name}: not JSON`]);
  }
  const list = Array.isArray(value) ? value : (value as { data?: unknown } | null)?.data;
  if (!Array.isArray(list)) throw new FileFormatError([`${name}: expected a list of cities or { "data": [...] }`]);
  return list.flatMap((c: unknown) => {
    const city = c as Partial<CityFee>;
    return typeof city?.id === "number" && typeof city.name === "string" && cents(city.delivery_fee) !== undefined
      ? [city as CityFee]
      : [];
  });
}

export function parseEvaluationFiles(input: {
  orders: { name: string; text: string };
  outcomes: { name: string; text: string };
  cities?: CityFee[];
}): EvalOrder[] {
  const problems: string[] = [];
  const byKey = new Map<string, CityFee>();
  for (const city of input.cities ?? []) {
    byKey.set(normalizeCityKey(city.name), city);
    byKey.set(String(city.id), city);
  }
  // Cities named but not in a cities file get ids of their own, in order of appearance.
  const ownIds = new Map<string, number>();
  const outcomes = new Map<string, { outcome: SettledOutcome; settledAt: number }>();
  for (const { line, value } of jsonLines(input.outcomes.name, input.outcomes.text, problems)) {
    const where = `${input.outcomes.name} line ${line}`;
    const id = value.id;
    const settledAt = time(value.settledAt);
    if (typeof id !== "string" || !id) problems.push(`${where}: "id" must be the order's id, as text`);
    else if (!(SETTLED_OUTCOMES as readonly unknown[]).includes(value.outcome))
      problems.push(`${where}: "outcome" must be one of ${SETTLED_OUTCOMES.join(", ")}`);
    else if (settledAt === undefined) problems.push(`${where}: "settledAt" must be an ISO 8601 time`);
    else if (outcomes.has(id)) problems.push(`${where}: a second outcome for order ${id}`);
    else outcomes.set(id, { outcome: value.outcome as SettledOutcome, settledAt });
  }

  const orders: EvalOrder[] = [];
  const ids = new Set<string>();
  for (const { line, value } of jsonLines(input.orders.name, input.orders.text, problems)) {
    const where = `${input.orders.name} line ${line}`;
    const before = problems.length;
    const id = value.id;
    const placedAt = time(value.placedAt);
    if (typeof id !== "string" || !id) problems.push(`${where}: "id" must be the order's id, as text`);
    else if (ids.has(id)) problems.push(`${where}: order ${id} appears twice`);
    if (placedAt === undefined) problems.push(`${where}: "placedAt" must be an ISO 8601 time`);
    const amountCents = value.amount === undefined || value.amount === null ? null : cents(value.amount);
    if (amountCents === undefined) problems.push(`${where}: "amount" must be a decimal like "249.00"`);
    const items = Array.isArray(value.items) ? value.items : null;
    if (!items || items.length === 0) problems.push(`${where}: "items" must list the order's products`);
    let quantity = 0;
    let cost: number | null = 0;
    const productKeys = new Set<string>();
    for (const [i, raw] of (items ?? []).entries()) {
      const item = raw as { product?: unknown; quantity?: unknown; price?: unknown } | null;
      const q = item?.quantity ?? 1;
      if (typeof item?.product !== "string" && typeof item?.product !== "number")
        problems.push(`${where}: items[${i}].product must name the product (SKU or id)`);
      else productKeys.add(String(item.product));
      if (typeof q !== "number" || !Number.isInteger(q) || q < 1)
        problems.push(`${where}: items[${i}].quantity must be a whole number from 1`);
      else quantity += q;
      const price = item?.price === undefined || item.price === null ? null : cents(item.price);
      if (price === undefined) problems.push(`${where}: items[${i}].price must be a decimal like "45.00"`);
      cost = cost === null || price === null || price === undefined || typeof q !== "number" ? null : cost + price * q;
    }
    if (value.address !== undefined && value.address !== null && typeof value.address !== "string")
      problems.push(`${where}: "address" must be text`);
    const cityRaw = value.city;
    let cityId: number | null = null;
    let known: CityFee | undefined;
    if (typeof cityRaw === "number" || typeof cityRaw === "string") {
      known = byKey.get(typeof cityRaw === "number" ? String(cityRaw) : normalizeCityKey(cityRaw));
      if (known) cityId = known.id;
      else if (typeof cityRaw === "number" && Number.isInteger(cityRaw)) cityId = cityRaw;
      else {
        const key = normalizeCityKey(String(cityRaw));
        cityId = ownIds.get(key) ?? ownIds.set(key, -(ownIds.size + 1)).get(key)!;
      }
    } else if (cityRaw !== undefined && cityRaw !== null) problems.push(`${where}: "city" must be a name or an id`);
    const fee =
      value.deliveryFee === undefined || value.deliveryFee === null
        ? known
          ? cents(known.delivery_fee)!
          : null
        : cents(value.deliveryFee);
    if (fee === undefined) problems.push(`${where}: "deliveryFee" must be a decimal like "20.00"`);
    if (problems.length > before) continue;
    ids.add(id as string);
    const phone = typeof value.phone === "string" ? normalizeMoroccanPhone(value.phone) : null;
    const outcome = outcomes.get(id as string);
    orders.push({
      id: id as string,
      placedAt: placedAt!,
      phoneKey: phone?.ok ? phone.phone : null,
      cityId,
      productKeys: [...productKeys].sort(),
      amountCents: amountCents ?? null,
      quantity,
      addressIncomplete: addressIncomplete(value.address as string | undefined),
      platformCostCents: cost,
      deliveryFeeCents: fee ?? null,
      outcome: outcome?.outcome ?? null,
      settledAt: outcome?.settledAt ?? null,
    });
  }
  for (const id of outcomes.keys())
    if (!ids.has(id) && problems.length < 50)
      problems.push(`${input.outcomes.name}: order ${id} is not in ${input.orders.name}`);
  if (problems.length > 0) throw new FileFormatError(problems.slice(0, 50));
  return orders;
}

/** The orders back as the two files' lines (the world and the export write them). */
export function toEvaluationFiles(
  orders: readonly (EvalOrder & {
    phone?: string | null;
    items?: { product: string; quantity: number; price: string | null }[];
  })[],
): { orders: string; outcomes: string } {
  const decimal = (c: number | null) => (c === null ? null : (c / 100).toFixed(2));
  const orderLines = orders.map((o) =>
    JSON.stringify({
      id: o.id,
      placedAt: new Date(o.placedAt).toISOString(),
      phone: o.phone ?? o.phoneKey,
      city: o.cityId,
      amount: decimal(o.amountCents),
      items: o.items ?? o.productKeys.map((product) => ({ product, quantity: 1, price: null })),
      address: o.address ?? null,
      deliveryFee: decimal(o.deliveryFeeCents),
    }),
  );
  const outcomeLines = orders.flatMap((o) =>
    o.outcome === null
      ? []
      : [
          JSON.stringify({
            id: o.id,
            outcome: o.outcome,
            settledAt: new Date(o.settledAt ?? o.placedAt).toISOString(),
          }),
        ],
  );
  return { orders: orderLines.join("\n") + "\n", outcomes: outcomeLines.join("\n") + "\n" };
}
