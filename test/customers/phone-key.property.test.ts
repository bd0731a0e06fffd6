/**
 * The record's key is the normalised phone: any way a customer types the same
 * Moroccan mobile gives the same key (fixed seed, like test/leads/properties.test.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeMoroccanPhone } from "../../app/leads";
import { recordsOf, type CustomerFact } from "../../app/customers/record";

const SEED = Number(process.env.FAST_CHECK_SEED) || 20261124;
const ARABIC_INDIC = "٠١٢٣٤٥٦٧٨٩";

/** A national number without its leading zero: 6 or 7 then 8 digits. */
const national = fc
  .tuple(fc.constantFrom("6", "7"), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 8, maxLength: 8 }))
  .map(([first, rest]) => first + rest.join(""));
const prefix = fc.constantFrom("0", "+212", "00212", "212", "+212 0", "+212-", "(+212) ");
const separator = fc.constantFrom("", " ", ".", "-", "  ");
const arabic = fc.boolean();

/** The number as a customer might type it: a prefix, digits grouped with a separator, maybe Arabic-Indic digits. */
const typed = fc
  .tuple(national, prefix, separator, arabic, fc.integer({ min: 1, max: 3 }))
  .map(([digits, pre, sep, useArabic, group]) => {
    const chunks: string[] = [digits[0]];
    for (let i = 1; i < digits.length; i += group) chunks.push(digits.slice(i, i + group));
    const body = chunks.join(sep);
    const text = `${pre}${pre.endsWith(" ") || pre.endsWith("-") ? "" : sep}${body}`;
    return { digits, text: useArabic ? text.replace(/\d/g, (d) => ARABIC_INDIC[Number(d)]) : text };
  });

describe("customer phone key", () => {
  it("any formatting of the same mobile gives the same key", () => {
    fc.assert(
      fc.property(typed, typed, ({ digits, text }, other) => {
        const key = normalizeMoroccanPhone(text);
        expect(key).toMatchObject({ ok: true, phone: `0${digits}` });
        // Two formattings of the same digits share a key; of other digits, never.
        const second = normalizeMoroccanPhone(other.text);
        expect(second).toMatchObject({ ok: true, phone: `0${other.digits}` });
        expect(second.ok && key.ok && second.phone === key.phone).toBe(other.digits === digits);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it("a record's counts add up to its orders, whatever the order of the facts", () => {
    const outcome = fc.constantFrom("delivered", "returned", "refused", "cancelled", "wrong_number", "in_progress");
    const fact = fc.record({
      phoneKey: fc.constantFrom("0611111111", "0722222222"),
      outcome,
      day: fc.integer({ min: 0, max: 365 }),
      amountCents: fc.integer({ min: 0, max: 100_000 }),
    });
    fc.assert(
      fc.property(fc.array(fact, { maxLength: 40 }), (raw) => {
        const facts: CustomerFact[] = raw.map((f, i) => ({
          linkId: `l${i}`,
          phoneKey: f.phoneKey,
          customerId: null,
          orderName: `#${i}`,
          outcome: f.outcome,
          outcomeAt: new Date(Date.UTC(2026, 0, 1) + f.day * 86_400_000),
          amountCents: f.amountCents,
          orderedAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000),
        }));
        const forward = recordsOf(["0611111111"], facts);
        const backward = recordsOf(["0611111111"], [...facts].reverse());
        for (const [key, r] of forward) {
          const mine = facts.filter((f) => f.phoneKey === key);
          expect(r.orders).toBe(mine.length);
          expect(r.delivered + r.returned + r.refused + r.cancelled + r.wrongNumber + r.inProgress).toBe(mine.length);
          expect(r.collectedCents).toBe(
            mine.filter((f) => f.outcome === "delivered").reduce((s, f) => s + f.amountCents, 0),
          );
          expect(backward.get(key)).toEqual(r);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
