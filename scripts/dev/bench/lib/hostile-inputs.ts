/**
 * The inputs that once made a routine quadratic or its regex backtrack, as
 * functions of their length n: the security tests check what the routines
 * answer on them, `npm run bench -- complexity` how their time grows with n.
 */
import type { ShopOrder } from "../../../../app/leads";

/** Mappings CSV files of n characters that cost the old parser (or its header lookup) n² steps. */
export const SKU_CSV_HEADER = "kind,source,platform_sku,platform_product_id,quantity,label\n";

export const HOSTILE_CSV: Record<string, (n: number) => string> = {
  "quotes inside an unquoted cell": (n) => `${SKU_CSV_HEADER}sku,a${'"'.repeat(n)},X,,1,\n`,
  "a file of quotes": (n) => '"'.repeat(n),
  "spaces before a quote": (n) => `${SKU_CSV_HEADER}${" ".repeat(n)}"sku",A,B,,1,\n`,
  "a header of thousands of columns": (n) =>
    `${Array.from({ length: n / 8 }, (_, i) => `c${i}`).join(",")},kind,source,platform_sku,quantity\n${"sku,".repeat(n / 16)}\n`,
  "one row of separators": (n) => `${SKU_CSV_HEADER}${",".repeat(n)}x\n`,
  "a quote never closed": (n) => `alias,city_id\n"${"a\n".repeat(n / 2)}`,
  "line ends only": (n) => `alias,city_id\n${"\r\n \n".repeat(n / 4)}`,
  "short rows": (n) => `${SKU_CSV_HEADER}${"s\n".repeat(n / 2)}`,
};

/** Field texts of n characters: whitespace the phone splitter's old regex backtracked on, and long words. */
export const HOSTILE_TEXT: Record<string, (n: number) => string> = {
  spaces: (n) => `06${" ".repeat(n)}x`,
  "spaces around ou": (n) => `0612345678${" ".repeat(n)}ou${" \t".repeat(n / 2)}`,
  "mixed whitespace": (n) => `0${" \t\u00a0\r".repeat(n / 4)}7`,
  digits: (n) => `${"1".repeat(n)}x`,
  "digits and spaces": (n) => "0 1 ".repeat(n / 4),
  words: (n) => "ab ".repeat(n / 3),
  arabic: (n) => "الدار ".repeat(n / 6),
  elisions: (n) => "d'".repeat(n / 2),
};

const address = (order: ShopOrder, fields: Partial<NonNullable<ShopOrder["shippingAddress"]>>): ShopOrder => ({
  ...order,
  shippingAddress: { ...order.shippingAddress, ...fields },
});
const firstLine = (order: ShopOrder, fields: Partial<ShopOrder["lineItems"][number]>): ShopOrder => ({
  ...order,
  lineItems: [{ ...order.lineItems[0], ...fields }],
});

/** Every field a customer or merchant types, set to `text` on a plain order (one line item). */
export const HOSTILE_FIELDS: Record<string, (order: ShopOrder, text: string) => ShopOrder> = {
  "shipping phone": (o, s) => address(o, { phone: s }),
  "order phone": (o, s) => address({ ...o, phone: s }, { phone: undefined }),
  city: (o, s) => address(o, { city: s }),
  "address line": (o, s) => address(o, { city: "", address1: s }),
  "first name": (o, s) => address(o, { firstName: s }),
  sku: (o, s) => firstLine(o, { sku: s }),
  title: (o, s) => firstLine(o, { sku: undefined, variantId: "999999", title: s, name: s }),
  "variant id": (o, s) => firstLine(o, { sku: undefined, variantId: s }),
  gateway: (o, s) => ({ ...o, paymentGatewayNames: [s] }),
};

/** Every hostile field with every hostile text: named cases, each an order for a length n. */
export function hostileOrders(plain: ShopOrder): { name: string; at: (n: number) => ShopOrder }[] {
  return Object.entries(HOSTILE_FIELDS).flatMap(([field, set]) =>
    Object.entries(HOSTILE_TEXT).map(([pattern, text]) => ({
      name: `${field} / ${pattern}`,
      at: (n: number) => set(plain, text(n)),
    })),
  );
}
