/**
 * Fuzzing the public entry points: random and hostile
 * orders, phones, cities and CSV files into the pure mapper and the CSV import,
 * and signed webhook bodies posted to a real HTTP server in front of the
 * intake routes, then the pipeline run to the end against the sandbox.
 * Asserted: nothing throws, no 5xx, and nothing is lost (every order the intake accepted ends as a settled order
 * link). Fixed seeds and a bounded budget; a failure names its seed.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapOrderToLead, matchCity, normalizeMoroccanPhone, type ShopOrder } from "../../app/leads";
import { parseMappingsCsv } from "../../app/pages/mappings-csv";
import { cities, context, line, order } from "../leads/helpers";
import { webhookOrder } from "../helpers/orders";
import { startOrderWorld, type OrderWorld } from "./order-world";

const SEED = 15_015;

/** fc.assert with the suite's seed, the seed named in any failure. */
async function check<T>(property: fc.IProperty<T> | fc.IAsyncProperty<T>, numRuns: number, seed = SEED): Promise<void> {
  try {
    await fc.assert(property, { seed, numRuns, endOnFailure: true });
  } catch (error) {
    // The counterexample may hold 100,000 characters: the message keeps its start and the assertion at its end.
    const message = error instanceof Error ? error.message : String(error);
    const short = message.length > 3_000 ? `${message.slice(0, 1_500)}\n…\n${message.slice(-1_500)}` : message;
    throw new Error(`fuzz failed with seed ${seed} (rerun with the same seed to reproduce):\n${short}`);
  }
}

/** Characters that break parsers: separators, quotes, whitespace of every kind, digits of three scripts, RTL text. */
const hostileUnit = fc.constantFrom(
  "a",
  "Z",
  "0",
  "6",
  "7",
  "+",
  " ",
  "\t",
  "\n",
  "\r",
  "\u00a0",
  "\u200f",
  "'",
  '"',
  ",",
  ";",
  "/",
  "|",
  "-",
  "(",
  ")",
  "ou",
  " et ",
  "و",
  "٠",
  "٦",
  "۷",
  "é",
  "الدار",
  "🚚",
  "\ud800",
  "\\",
  "{",
  "}",
  "%",
  "=",
  "@",
);
const hostileText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: hostileUnit, maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(" ", "0", "\t", "ou ", "a'", '"', "1"), fc.integer({ min: 1_000, max: 60_000 }))
      .map(([u, n]) => u.repeat(n)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "",
      "   ",
      "0612345678",
      "+212 6 12 34 56 78",
      "Casablanca",
      "الدار البيضاء",
      "ARG-OIL-50",
    ),
  },
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const shopLine = fc.record({
  id: fc.string({ maxLength: 30 }),
  variantId: maybe(hostileText),
  sku: maybe(hostileText),
  name: maybe(hostileText),
  title: maybe(hostileText),
  quantity: fc.oneof(fc.integer({ min: -2, max: 5 }), fc.constant(1.5), fc.constant(Number.NaN)),
  requiresShipping: fc.boolean(),
  giftCard: fc.boolean(),
});

const shopOrder: fc.Arbitrary<ShopOrder> = fc
  .record({
    phone: maybe(hostileText),
    city: maybe(hostileText),
    address1: maybe(hostileText),
    firstName: maybe(hostileText),
    gateway: hostileText,
    amount: fc.oneof(fc.constant("149.00"), hostileText),
    lines: fc.array(shopLine, { maxLength: 8 }),
    manyLines: fc.boolean(),
  })
  .map((r) => {
    const base = order();
    return {
      ...base,
      phone: r.phone,
      paymentGatewayNames: [r.gateway, "Cash on Delivery (COD)"],
      currentTotal: { amount: r.amount, currencyCode: "MAD" },
      shippingAddress: {
        ...base.shippingAddress,
        phone: r.phone,
        city: r.city,
        address1: r.address1,
        firstName: r.firstName,
      },
      lineItems: r.manyLines ? Array.from({ length: 600 }, (_, i) => line({ id: String(i) })) : [...r.lines, line()],
    };
  });

describe("pure entry points", () => {
  const ctx = context();

  it("maps random and hostile orders without throwing into small results", async () => {
    await check(
      fc.property(shopOrder, (shop) => {
        const value = mapOrderToLead(shop, ctx);
        expect(["send", "hold", "skip"]).toContain(value.decision);
        expect(JSON.stringify(value).length).toBeLessThan(120_000);
      }),
      300,
    );
  });

  it("reads random and hostile phones and cities without throwing", async () => {
    await check(
      fc.property(hostileText, hostileText, (phone, city) => {
        const value = normalizeMoroccanPhone(phone);
        if (value.ok) expect(value.phone).toMatch(/^0[67]\d{8}$/);
        const match = matchCity({ city, address1: phone }, cities);
        expect(["matched", "unmatched", "missing"]).toContain(match.status);
        if (match.status === "matched") expect(cities).toContainEqual(match.city);
      }),
      400,
    );
  });

  it("imports random and hostile CSV files into a result or row errors, never an exception", async () => {
    const csvUnit = fc.constantFrom(
      "kind",
      "source",
      "alias",
      "city_id",
      "sku",
      "variant",
      "101",
      "1",
      ",",
      ";",
      '"',
      "\n",
      "\r\n",
      "\r",
      " ",
      "\uFEFF",
      "=",
      "é",
      "x",
    );
    const header = fc.constantFrom(
      "kind,source,platform_sku,platform_product_id,quantity,label\n",
      "alias,city_id,city_name,source\n",
      "alias;city_id\n",
      "",
    );
    const body = fc.oneof(
      { weight: 4, arbitrary: fc.string({ unit: csvUnit, maxLength: 200 }) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom('"', " ", ",", "\n", "a,", '""', "s\n"), fc.integer({ min: 1_000, max: 200_000 }))
          .map(([u, n]) => u.repeat(n)),
      },
    );
    const known = new Set([
      "empty_file",
      "unclosed_quote",
      "bad_quote",
      "file_too_large",
      "unknown_header",
      "missing_column",
      "too_many_rows",
      "cell_too_long",
    ]);
    await check(
      fc.property(header, body, (head, text) => {
        const value = parseMappingsCsv(head + text, { cities: [{ id: 101, name: "Casablanca" }] });
        if (!value.ok) {
          expect(value.errors.length).toBeGreaterThan(0);
          if (value.kind === null) for (const e of value.errors) expect(known).toContain(e.code);
        }
      }),
      200,
    );
  });
});

describe("signed webhooks through a real HTTP server", () => {
  let world: OrderWorld;
  beforeAll(async () => {
    world = await startOrderWorld();
  });
  afterAll(() => world?.close());

  it("answers every body without a 5xx, and every accepted order ends settled", async () => {
    let nextId = 6_600_000_000_000;
    const accepted = new Set<string>();
    const refused: number[] = [];
    const jsonValue = fc.oneof(
      hostileText,
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(hostileText, { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 5 }), hostileText, { maxKeys: 3 }),
    );
    const field = fc.constantFrom(
      "name",
      "phone",
      "email",
      "currency",
      "financial_status",
      "gateway",
      "payment_gateway_names",
      "cancelled_at",
      "test",
      "current_total_price",
      "current_total_price_set",
      "customer",
      "shipping_address",
      "billing_address",
      "line_items",
      "tags",
      "note",
    );
    const addressField = fc.constantFrom(
      "phone",
      "city",
      "address1",
      "address2",
      "province",
      "first_name",
      "last_name",
      "name",
      "zip",
    );
    const lineField = fc.constantFrom(
      "sku",
      "variant_id",
      "quantity",
      "current_quantity",
      "title",
      "name",
      "requires_shipping",
      "gift_card",
      "price",
    );
    const mutation = fc.oneof(
      fc.tuple(fc.constant("order" as const), field, jsonValue),
      fc.tuple(fc.constant("address" as const), addressField, jsonValue),
      fc.tuple(fc.constant("line" as const), lineField, jsonValue),
    );
    const body = fc.oneof(
      {
        weight: 8,
        arbitrary: fc
          .tuple(fc.array(mutation, { maxLength: 4 }), fc.integer({ min: 1, max: 3 }))
          .map(([mutations, items]) => ({ kind: "order" as const, mutations, items })),
      },
      {
        weight: 1,
        arbitrary: fc.string({ unit: hostileUnit, maxLength: 300 }).map((raw) => ({ kind: "raw" as const, raw })),
      },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 40 }).map((depth) => ({ kind: "nested" as const, depth })) },
    );

    await check(
      fc.asyncProperty(body, async (spec) => {
        const id = nextId++;
        let payload: unknown;
        if (spec.kind === "raw") payload = spec.raw;
        else if (spec.kind === "nested")
          payload = {
            ...webhookOrder({ id }),
            note_attributes: JSON.parse(`${"[".repeat(spec.depth)}${"]".repeat(spec.depth)}`),
          };
        else {
          const o = webhookOrder({
            id,
            items: Array.from({ length: spec.items }, (_, i) => ({
              sku: i === 0 ? "ARG-OIL-100" : `SKU-${i}`,
              quantity: 1,
              price: "99.00",
            })),
          }) as Record<string, Record<string, unknown>>;
          for (const [where, key, value] of spec.mutations) {
            if (where === "order") (o as Record<string, unknown>)[key] = value;
            else if (where === "address" && o.shipping_address && typeof o.shipping_address === "object")
              o.shipping_address[key] = value;
            else if (
              where === "line" &&
              Array.isArray(o.line_items) &&
              o.line_items[0] &&
              typeof o.line_items[0] === "object"
            )
              (o.line_items[0] as Record<string, unknown>)[key] = value;
          }
          payload = o;
        }
        const status = await world.post("orders/create", payload, { timeoutMs: 10_000 });
        expect(status, JSON.stringify(spec).slice(0, 300)).toBeLessThan(500);
        if (status === 200 && spec.kind !== "raw") accepted.add(String(id));
        else refused.push(status);
      }),
      80,
    );
    expect(world.serverErrors).toEqual([]);

    // The pipeline to the end: every accepted order is a link in a settled state, none left in flight.
    // A bound for a stuck queue, not the machine's speed: beside two other suites (load 18) 423 jobs took a minute.
    await world.pipeline.drain({ timeoutMs: 240_000 });
    const links = await world.app.db.prisma.orderLink.findMany({
      where: { shop: world.shop, orderId: { in: [...accepted] } },
      select: { orderId: true, state: true },
    });
    console.log(
      `fuzz webhooks: ${accepted.size} accepted, ${refused.length} refused (${[...new Set(refused)].join(", ")}); states ${JSON.stringify(countBy(links.map((l) => l.state)))}`,
    );
    expect(links.map((l) => l.orderId).sort()).toEqual([...accepted].sort());
    for (const link of links)
      expect(["created", "damaged", "held", "skipped", "invalid", "cancelled"], link.orderId).toContain(link.state);
    expect(
      await world.app.db.prisma.job.count({ where: { kind: "post-lead", state: { notIn: ["done", "dead"] } } }),
    ).toBe(0);
  }, 360_000);
});

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
