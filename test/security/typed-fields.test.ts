/**
 * Fields customers and merchants type: the phone splitter's
 * regex backtracked on long whitespace (100,000 spaces took 14 s, through a
 * webhook and through the order correction form). Every typed field is now
 * bounded before parsing and the splitter is linear: a field of 200,000
 * characters maps as one of 100,000 does (the same cut text), findings stay
 * small, and the correction form refuses an over-long field with a message in
 * French and English. How the time grows with the length is a speed:
 * `npm run bench -- complexity`.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapOrderToLead, normalizeMoroccanPhone, type ShopOrder } from "../../app/leads";
import { MAX_FIELD_CHARS } from "../../app/leads/field-limits";
import { MAX_PHONE_CHARS, phoneParts } from "../../app/leads/phone";
import { t as translate } from "../../app/i18n";
import { context, order, withAddress } from "../leads/helpers";
import { webhookOrder } from "../helpers/orders";
import { submit } from "../pages/helpers";
import { HOSTILE_FIELDS, HOSTILE_TEXT } from "../../scripts/dev/bench/lib/hostile-inputs";
import { startOrderWorld, type OrderWorld } from "./order-world";

const FIELDS: Record<string, (text: string) => ShopOrder> = Object.fromEntries(
  Object.entries(HOSTILE_FIELDS).map(([field, set]) => [field, (text: string) => set(order(), text)]),
);

describe("the phone splitter", () => {
  it("splits 100,000 characters of each whitespace the old regex backtracked on, even unbounded", () => {
    // 100,000 spaces took 14 s with the old regex; how the time grows is `npm run bench -- complexity`.
    expect(phoneParts(HOSTILE_TEXT.spaces(100_000))).toEqual([HOSTILE_TEXT.spaces(100_000)]);
    expect(phoneParts(HOSTILE_TEXT["spaces around ou"](100_000))).toEqual(["0612345678"]);
    expect(phoneParts(HOSTILE_TEXT["mixed whitespace"](100_000))).toEqual([HOSTILE_TEXT["mixed whitespace"](100_000)]);
  });

  it("finds the same numbers as the old splitter on short fields", () => {
    // The old regex, harmless on short text: each piece's digits and whether a plus comes first must match.
    const oldParts = (text: string) => text.split(/[/,;|\n]|\s+(?:ou|or|et|and|و)\s+/i).filter((p) => /\d/.test(p));
    const signature = (parts: string[]) => parts.map((p) => `${/^[^\d]*\+/.test(p) ? "+" : ""}${p.replace(/\D/g, "")}`);
    const unit = fc.constantFrom("0", "6", "7", "+", " ", "\t", "\n", "ou", "et", "and", "or", "و", "/", ",", "a", "x");
    const seed = 15_005;
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
        expect(signature(phoneParts(text))).toEqual(signature(oldParts(text)));
      }),
      {
        seed,
        numRuns: 3_000,
        reporter: (details) => {
          if (details.failed) throw new Error(`seed ${seed}: ${fc.defaultReportMessage(details)}`);
        },
      },
    );
  });

  it("still reads two numbers in one field, and refuses a field past 100 characters as no phone", () => {
    expect(phoneParts("06 12 34 56 78 ou 07 11 22 33 44")).toEqual(["06 12 34 56 78", "07 11 22 33 44"]);
    expect(normalizeMoroccanPhone("05 22 11 22 33\n  et   0711223344")).toEqual({
      ok: true,
      phone: "0711223344",
      verified: true,
    });
    expect(normalizeMoroccanPhone("05 22 11 22 33 / 06 12 34 56 78")).toEqual({
      ok: true,
      phone: "0612345678",
      verified: true,
    });
    expect(normalizeMoroccanPhone(`0612345678${" ".repeat(MAX_PHONE_CHARS)}`)).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(normalizeMoroccanPhone(`${" ".repeat(MAX_PHONE_CHARS - 10)}0612345678`)).toMatchObject({
      ok: true,
      phone: "0612345678",
    });
  });
});

describe("the mapper on hostile fields", () => {
  const ctx = context();
  const cases = Object.entries(FIELDS).flatMap(([field, make]) =>
    Object.entries(HOSTILE_TEXT).map(([pattern, text]) => ({ name: `${field} / ${pattern}`, make, text })),
  );

  it("maps each hostile field of 100,000 and of 200,000 characters to the same small result", () => {
    for (const { name, make, text } of cases) {
      const result = mapOrderToLead(make(text(100_000)), ctx);
      expect(JSON.stringify(result).length, name).toBeLessThan(8 * MAX_FIELD_CHARS + 4_000);
      // The bounds cut both to the same text: the work done cannot depend on the length.
      expect(mapOrderToLead(make(text(200_000)), ctx), name).toEqual(result);
    }
  });

  it("keeps normal orders identical (bounds only cut what is over)", () => {
    const plain = order();
    expect(mapOrderToLead(plain, ctx)).toEqual(mapOrderToLead(structuredClone(plain), ctx));
    const longCity = mapOrderToLead(withAddress(order(), { city: "q".repeat(10_000) }), ctx);
    expect(longCity.findings.find((f) => f.code === "city_unmatched")?.params.input).toHaveLength(MAX_FIELD_CHARS);
    const longPhone = mapOrderToLead(withAddress(order(), { phone: `0612345678${" ".repeat(100_000)}` }), ctx);
    expect(longPhone).toMatchObject({ decision: "hold", findings: [{ code: "phone_invalid" }] });
    expect(String(longPhone.findings[0].params.raw).length).toBeLessThanOrEqual(MAX_PHONE_CHARS + 1);
  });
});

describe("through a webhook and the correction form", () => {
  let world: OrderWorld;
  let route: typeof import("../../app/routes/app.orders.$id");
  beforeAll(async () => {
    world = await startOrderWorld();
    route = await import("../../app/routes/app.orders.$id");
  });
  afterAll(() => world?.close());

  it("holds an order whose phone is 200,000 whitespace characters, with a small finding", async () => {
    const body = webhookOrder({ id: 7_770_000_000_001, phone: `06${" ".repeat(100_000)}ou${"\t ".repeat(50_000)}07` });
    expect(await world.post("orders/create", body)).toBe(200);
    await world.pipeline.drain();
    const link = await world.app.db.prisma.orderLink.findUniqueOrThrow({
      where: { shop_orderId: { shop: world.shop, orderId: String(body.id) } },
    });
    expect(link.state).toBe("held");
    expect(JSON.parse(link.findings)).toMatchObject([{ code: "phone_invalid" }]);
    expect(link.findings.length).toBeLessThan(1_000);
  });

  it("refuses an over-long phone or address in the correction form with a clear message, and changes nothing", async () => {
    const link = await world.app.db.prisma.orderLink.findFirstOrThrow({ where: { shop: world.shop } });
    expect(await submitWithId(route, world, link.id, { intent: "correct", phone: " ".repeat(100_000) })).toEqual({
      ok: false,
      intent: "correct",
      error: "too_long",
    });
    expect(
      await submitWithId(route, world, link.id, { intent: "correct", address: "a".repeat(MAX_FIELD_CHARS + 1) }),
    ).toEqual({ ok: false, intent: "correct", error: "too_long" });
    // A phone within the bound but not a phone is the usual phone error.
    expect(await submitWithId(route, world, link.id, { intent: "correct", phone: `06${" ".repeat(90)}x` })).toEqual({
      ok: false,
      intent: "correct",
      error: "invalid_phone",
    });
    const after = await world.app.db.prisma.orderLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(after.overrides).toBe(link.overrides);
    expect(after.state).toBe(link.state);

    expect(translate("en", "fix.error.too_long")).toMatch(/too long/);
    expect(translate("fr", "fix.error.too_long")).toMatch(/trop long/);
  });
});

/** The order page's action for link `id`, posted as the page's fetcher posts it. */
async function submitWithId(
  route: typeof import("../../app/routes/app.orders.$id"),
  world: OrderWorld,
  id: string,
  fields: Record<string, string>,
) {
  const action = (args: Parameters<typeof route.action>[0]) => route.action({ ...args, params: { id } });
  return submit(action, world.shop, `/app/orders/${id}`, fields);
}
