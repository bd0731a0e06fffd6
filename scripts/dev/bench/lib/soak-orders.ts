/**
 * The soak's orders: the demo's clean Casablanca order and its foreign-phone
 * order (held by the shop's rules) as templates, each copy with its own id,
 * name and Moroccan phone (so no two are duplicates of each other), dated now.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ORDERS_DIR = join(import.meta.dirname, "..", "..", "demo", "orders");
const template = (file: string) =>
  (JSON.parse(readFileSync(join(ORDERS_DIR, file), "utf8")) as { payload: Record<string, unknown> }).payload;

export const ID_BASE = 6_900_000_000_000;

export interface SoakOrder {
  id: string;
  /** Must end held (refused by the shop's rules), never as a lead. */
  held: boolean;
  body: string;
}

/** Which orders of a run the shop's rules must hold (a foreign phone): one in `every`. */
export const isHeldOrder = (index: number, every: number): boolean => index % every === 7;

export function createOrderFactory(runTag: number) {
  const clean = template("01-clean-casablanca.json");
  const held = template("27-foreign-phone.json");
  return (index: number, mustHold: boolean): SoakOrder => {
    const id = ID_BASE + runTag * 1_000_000 + index;
    const now = new Date().toISOString();
    const source = mustHold ? held : clean;
    // 06 + 8 digits: unique per order within a run.
    const phone = mustHold ? "+33 6 12 34 56 78" : `06${String(index % 100_000_000).padStart(8, "0")}`;
    const withPhone = (address: unknown) => (address && typeof address === "object" ? { ...address, phone } : address);
    const payload = {
      ...source,
      id,
      admin_graphql_api_id: `gid://shopify/Order/${id}`,
      name: `#S${index}`,
      order_number: 100000 + index,
      created_at: now,
      updated_at: now,
      processed_at: now,
      shipping_address: withPhone(source.shipping_address),
      billing_address: withPhone(source.billing_address),
    };
    return { id: String(id), held: mustHold, body: JSON.stringify(payload) };
  };
}
