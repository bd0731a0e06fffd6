/** The mappings CSV format, pure: RFC 4180 cells, spreadsheet-safe export, exact round trip. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatCityAliasesCsv,
  formatSkuMappingsCsv,
  parseCsv,
  parseMappingsCsv,
  type SkuMappingRow,
} from "../../app/pages/mappings-csv";

// Fixed so a run is repeatable; fast-check prints the seed (and the path) of any failure.
// FAST_CHECK_SEED=<n> explores other inputs.
const SEED = Number(process.env.FAST_CHECK_SEED) || 20261124;

const cities = [
  { id: 101, name: "Casablanca" },
  { id: 102, name: "Rabat" },
];

describe("parseCsv", () => {
  it("reads quoted cells with commas, quotes and line breaks, CRLF, a BOM, and skips blank lines", () => {
    const text = '\uFEFFa,b\r\n"x, ""y""","line 1\nline 2"\r\n\r\n,\nlast,\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ['x, "y"', "line 1\nline 2"] },
      { line: 6, cells: ["last", ""] },
    ]);
  });

  it("numbers records by their first line across quoted line breaks and blank lines, and refuses text after a closing quote", () => {
    expect(parseCsv('a,b\r\n"x\r\ny",z\n \n\nc,d\n').map((r) => r.line)).toEqual([1, 2, 6]);
    // The old parser glued the text on ("ab"); spreadsheets never write it, so it is refused with its line.
    expect(parseMappingsCsv('alias,city_id\nCasa,101\n"Casa"blanca,101\n', { cities })).toEqual({
      ok: false,
      kind: null,
      errors: [{ row: 3, code: "bad_quote" }],
    });
    expect(parseMappingsCsv('alias,city_id\nCasa,101\n"Rabat,102\n\n', { cities })).toEqual({
      ok: false,
      kind: null,
      errors: [{ row: 3, code: "unclosed_quote" }],
    });
  });

  it("reads a semicolon-separated file (French spreadsheets)", () => {
    expect(parseCsv("alias;city_id\nCasa;101\n").map((r) => r.cells)).toEqual([
      ["alias", "city_id"],
      ["Casa", "101"],
    ]);
  });
});

describe("export", () => {
  it("writes one row per bundle item and defuses spreadsheet formulas", () => {
    const mappings: SkuMappingRow[] = [
      {
        sourceKind: "sku",
        sourceKey: "PACK",
        targets: [
          { sku: "A", quantity: 2 },
          { product_id: 7, quantity: 1 },
        ],
        label: "+promo",
      },
    ];
    expect(formatSkuMappingsCsv(mappings)).toBe(
      "\uFEFFkind,source,platform_sku,platform_product_id,quantity,label\r\nsku,PACK,A,,2,'+promo\r\nsku,PACK,,7,1,'+promo\r\n",
    );
    expect(
      formatCityAliasesCsv(
        [
          { alias: "casanfa", cityId: 101, source: "learned" },
          { alias: "x", cityId: 9, source: "manual" },
        ],
        cities,
      ),
    ).toBe("\uFEFFalias,city_id,city_name,source\r\ncasanfa,101,Casablanca,learned\r\nx,9,,manual\r\n");
  });

  it("reads back any label exactly", () => {
    // The characters that break naive CSV: separators, quotes, line ends, formula starts, non-Latin text.
    const unit = fc.constantFrom("a", "Z", "1", ",", ";", '"', "'", "\n", "\r", " ", "=", "+", "-", "@", "é", "ا");
    const label = fc.string({ unit, minLength: 1, maxLength: 30 }).filter((s) => s.trim() === s && s !== "");
    fc.assert(
      fc.property(label, (value) => {
        const csv = formatSkuMappingsCsv([
          { sourceKind: "sku", sourceKey: "S", targets: [{ sku: "A", quantity: 1 }], label: value },
        ]);
        const parsed = parseMappingsCsv(csv, { cities });
        expect(parsed).toMatchObject({ ok: true, mappings: [{ label: value }] });
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});

describe("import", () => {
  it("groups a bundle's rows, defaults a blank quantity to 1, and normalises sources as the matcher does", () => {
    const csv =
      "KIND,Source,platform_sku,platform_product_id,quantity\nsku,pack ramadan,AMLOU-250,,\nsku,PACK RAMADAN,,1004,3\nvariant,gid://shopify/ProductVariant/42,X,,1\n";
    expect(parseMappingsCsv(csv, { cities })).toEqual({
      ok: true,
      kind: "sku_mappings",
      rows: 3,
      mappings: [
        {
          sourceKind: "sku",
          sourceKey: "PACKRAMADAN",
          targets: [
            { sku: "AMLOU-250", quantity: 1 },
            { product_id: 1004, quantity: 3 },
          ],
          label: null,
        },
        { sourceKind: "variant", sourceKey: "42", targets: [{ sku: "X", quantity: 1 }], label: null },
      ],
    });
  });

  it("names a missing column, and refuses a bundle of more than 20 items", () => {
    expect(parseMappingsCsv("kind,source,platform_sku\nsku,A,B\n", { cities })).toMatchObject({
      ok: false,
      errors: [{ row: 1, column: "quantity", code: "missing_column" }],
    });
    const rows = Array.from({ length: 21 }, (_, i) => `sku,BIG,ITEM-${i},,1`);
    const result = parseMappingsCsv(["kind,source,platform_sku,platform_product_id,quantity", ...rows].join("\n"), {
      cities,
    });
    expect(result).toMatchObject({ ok: false, errors: [{ row: 22, code: "too_many_targets", params: { max: 20 } }] });
  });

  it("reads aliases by city id or by a city name that names one city", () => {
    const result = parseMappingsCsv(
      "alias,city_id,city_name,source\nCasa Anfa,101,,\nDar el Bida,,casablanca,learned\nX,,Atlantis,\n",
      { cities },
    );
    expect(result).toMatchObject({
      ok: false,
      errors: [{ row: 4, code: "unknown_city", params: { value: "Atlantis" } }],
    });
    const ok = parseMappingsCsv("alias,city_id,city_name,source\nCasa Anfa,101,,\nDar el Bida,,casablanca,learned\n", {
      cities,
    });
    expect(ok).toMatchObject({
      ok: true,
      kind: "city_aliases",
      aliases: [
        { cityId: 101, source: "manual" },
        { cityId: 101, source: "learned" },
      ],
    });
  });

  it("says the file is empty", () => {
    expect(parseMappingsCsv("\uFEFF\r\n\r\n", { cities })).toEqual({
      ok: false,
      kind: null,
      errors: [{ row: 1, code: "empty_file" }],
    });
  });
});
