/**
 * No phone number reaches the request log through a URL, however the browser (or
 * anyone) encoded it: form encoding (`q=06+12+34+56+78`), percent encoding
 * (`q=%2B212612345678`), every character escaped, escaped twice, in a query value or
 * a path segment, alone or after a name. Generated (fast-check, fixed seed) over the
 * forms customers write numbers in, their separators and the encodings; each URL
 * goes through logRequest, the access log's own function, into a captured logger.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { logRequest } from "../../app/runtime/request-log.server";
import { useCapturedLog } from "../helpers/log-capture";

const lines = useCapturedLog();

/** The URL as the access log writes it. */
function logged(url: string): string {
  const before = lines().length;
  logRequest({ requestId: "r1", method: "GET", url, path: url.split("?")[0], status: 200, durationMs: 1 });
  expect(lines()).toHaveLength(before + 1);
  return (JSON.parse(lines()[before]) as { url: string }).url;
}

const ARABIC_INDIC = (d: string) => String.fromCharCode(0x660 + Number(d));
const separator = fc.constantFrom("", " ", ".", "-", " - ");

/** A Moroccan mobile as customers write it, and its nine significant digits (6..., 7..., 5...). */
const phone = fc
  .tuple(
    fc.constantFrom("0", "+212", "00212", "+212 ", "212", "+212 (0)"),
    fc.constantFrom("5", "6", "7"),
    fc.stringMatching(/^[0-9]{8}$/),
    fc.array(separator, { minLength: 4, maxLength: 4 }),
    fc.boolean(),
  )
  .map(([prefix, first, rest, seps, arabic]) => {
    const groups = [first, rest.slice(0, 2), rest.slice(2, 4), rest.slice(4, 6), rest.slice(6)];
    let text = prefix + groups.map((g, i) => (i === 0 ? g : seps[i - 1] + g)).join("");
    // Arabic-Indic digits in the national form only (the one customers type them in).
    if (arabic && prefix === "0") text = text.replace(/[0-9]/g, ARABIC_INDIC);
    return { text, digits: first + rest };
  });

const hex = (code: number, lower: boolean) => {
  const h = code.toString(16).padStart(2, "0");
  return `%${lower ? h : h.toUpperCase()}`;
};
const escapeAll = (text: string, lower: boolean) =>
  [...new TextEncoder().encode(text)].map((byte) => hex(byte, lower)).join("");

/** How the value reaches the URL. */
const encoding = fc.constantFrom<[string, (value: string) => string]>(
  ["as typed, spaces as +", (v) => v.replace(/ /g, "+")],
  ["encodeURIComponent", (v) => encodeURIComponent(v)],
  ["a form (URLSearchParams)", (v) => new URLSearchParams({ q: v }).toString().slice(2)],
  ["every byte escaped", (v) => escapeAll(v, false)],
  ["every byte escaped, lower-case", (v) => escapeAll(v, true)],
  ["encoded twice", (v) => encodeURIComponent(encodeURIComponent(v))],
  ["only the + escaped", (v) => v.replace(/\+/g, "%2B").replace(/ /g, "+")],
);

/** Where the value sits in the URL. */
const placement = fc.constantFrom<(value: string) => string>(
  (v) => `/app/orders?q=${v}`,
  (v) => `/app/orders?tab=held&q=Khadija+${v}&after=abc`,
  (v) => `/app/orders?q=${v}#details`,
  (v) => `/app/customers/${v}/orders`,
  (v) => `/api/orders/123/status?phone=${v}`,
);

/** Every digit in the text as ASCII, after decoding it as far as it goes, without separators. */
function digitsIn(text: string): string {
  let decoded = text.replace(/\+/g, " ");
  for (let i = 0; i < 4; i++) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      break;
    }
  }
  return decoded.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x660)).replace(/[\s.\-()+/]/g, "");
}

describe("phone numbers in logged URLs", () => {
  it("GIVEN the issue's three Orders searches WHEN logged THEN none of them shows the number", () => {
    for (const url of [
      "/app/orders?q=06+12+34+56+78",
      "/app/orders?q=%2B212+6+12+34+56+78",
      "/app/orders?q=%2B212612345678",
    ]) {
      const line = logged(url);
      expect(line).toBe("/app/orders?q=[redacted]");
    }
    // What is not a phone is kept byte for byte: an order number, a date, a page cursor.
    expect(logged("/app/orders?q=%231042&from=2026-11-01&after=eyJpZCI6MTJ9")).toBe(
      "/app/orders?q=%231042&from=2026-11-01&after=eyJpZCI6MTJ9",
    );
  });

  it("GIVEN any form, separator, encoding and place WHEN logged THEN the number's digits are not in the line", () => {
    fc.assert(
      fc.property(phone, encoding, placement, (number, [, encode], place) => {
        const url = place(encode(number.text));
        const line = logged(url);
        expect(digitsIn(line), `${url} was logged as ${line}`).not.toContain(number.digits);
        // The route stays readable.
        expect(line.startsWith(url.split(/[?]/)[0].split("/").slice(0, 2).join("/"))).toBe(true);
      }),
      { seed: 4747, numRuns: 1500 },
    );
  });
});
