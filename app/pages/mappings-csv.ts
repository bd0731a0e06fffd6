/**
 * CSV import and export of a shop's SKU mappings and city aliases. Pure: no I/O.
 *
 * SKU mappings, one row per platform item (a bundle spans several rows):
 *   kind,source,platform_sku,platform_product_id,quantity,label
 *   variant,46000000000001,SMW-X8-BLK,,1,Watch black
 *   sku,PACK-RAMADAN,AMLOU-250,,2,Ramadan pack
 *   sku,PACK-RAMADAN,,1004,1,Ramadan pack
 * City aliases:
 *   alias,city_id,city_name,source
 *   casa anfa,101,Casablanca,manual
 *
 * The kind of file is told by its header. An import is all or nothing: every row is
 * checked, and any error (reported with its line number, the header being line 1)
 * means nothing is saved. Cells are RFC 4180 (quotes, CRLF); a file from a French
 * spreadsheet separated by semicolons is read too.
 */
import { CsvError, parse } from "csv-parse/sync";
import { normalizeCityKey } from "../leads/city-key";
import { LeadRuleError } from "../leads/errors";
import { normalizeCityAliasInput, normalizeSkuMappingInput, type SkuMappingInput } from "../leads/rules";
import { normalizeSku, shopifyIdDigits } from "../leads/sku-match";
import type { SkuMappingTarget } from "../leads/types";

export const SKU_MAPPING_COLUMNS = [
  "kind",
  "source",
  "platform_sku",
  "platform_product_id",
  "quantity",
  "label",
] as const;
export const CITY_ALIAS_COLUMNS = ["alias", "city_id", "city_name", "source"] as const;
/** Rows in one import (a large catalogue of bundles fits; a wrong file is refused early). */
export const MAX_CSV_ROWS = 5000;
/** Bytes of one import file (UTF-8): the rows allowed fit many times over; a larger file is refused unread. */
export const MAX_CSV_BYTES = 1024 * 1024;
/** Characters in one cell: SKUs, ids, labels and city names are short; a longer cell is a wrong file. */
export const MAX_CELL_CHARS = 500;
const MAX_TARGETS = 20;
const MAX_QUANTITY = 1000;

export type CsvErrorCode =
  | "empty_file"
  | "file_too_large"
  | "unclosed_quote"
  | "bad_quote"
  | "cell_too_long"
  | "unknown_header"
  | "missing_column"
  | "too_many_rows"
  | "bad_kind"
  | "missing_source"
  | "bad_variant_id"
  | "no_target"
  | "two_targets"
  | "bad_product_id"
  | "bad_quantity"
  | "label_conflict"
  | "too_many_targets"
  | "invalid_mapping"
  | "missing_alias"
  | "bad_alias"
  | "duplicate_alias"
  | "bad_city_id"
  | "unknown_city"
  | "bad_source";

export interface CsvRowError {
  /** Line of the file where the row starts (the header is line 1). */
  row: number;
  column?: string;
  code: CsvErrorCode;
  params?: Record<string, string | number>;
}

export interface CityRef {
  id: number;
  name: string;
}

export interface SkuMappingRow {
  sourceKind: "variant" | "sku";
  sourceKey: string;
  targets: SkuMappingTarget[];
  label?: string | null;
}

export interface CityAliasRow {
  alias: string;
  cityId: number;
  source: "manual" | "learned";
}

export type CsvImport =
  | { ok: true; kind: "sku_mappings"; mappings: SkuMappingInput[]; rows: number }
  | { ok: true; kind: "city_aliases"; aliases: CityAliasRow[]; rows: number }
  | { ok: false; kind: "sku_mappings" | "city_aliases" | null; errors: CsvRowError[] };

// ---------------------------------------------------------------- cells

const FORMULA_START = /^[=+\-@\t\r']/;

/**
 * One cell. A value a spreadsheet would run as a formula gets a leading apostrophe
 * (CSV injection); the import takes it off again, so a round trip is exact.
 */
function cell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n;]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function uncell(text: string): string {
  return text.length > 1 && text[0] === "'" && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

/** Rows to CSV text, CRLF line ends, with a BOM so spreadsheets read UTF-8 (Arabic city names). */
export function formatCsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return `\uFEFF${rows.map((row) => row.map(cell).join(",")).join("\r\n")}\r\n`;
}

export interface CsvRecord {
  /** Line where the record starts, 1-based. */
  line: number;
  cells: string[];
}

/**
 * RFC 4180 records, read by csv-parse: linear time whatever the quotes and
 * whitespace (a hand-written parser here once took seconds on a file of quotes).
 * Cells are trimmed, records whose cells are all blank are dropped, line ends may
 * be mixed, a quote inside an unquoted cell is kept as text. Throws CsvReadError
 * on a quoted cell never closed or followed by text, and past `maxRecords`
 * records (csv-parse spends tens of microseconds on each record whose length
 * differs from the header's, so a file of short lines is stopped early).
 */
export function parseCsv(text: string, options: { maxRecords?: number } = {}): CsvRecord[] {
  const source = text.replace(/^\uFEFF/, "");
  const firstBreak = source.search(/[\r\n]/);
  const firstLine = firstBreak < 0 ? source : source.slice(0, firstBreak);
  const delimiter = !firstLine.includes(",") && firstLine.includes(";") ? ";" : ",";
  const bytes = new TextEncoder().encode(source);
  const max = options.maxRecords;
  let parsed: { record: string[]; info: { bytes: number } }[];
  try {
    parsed = parse(bytes, {
      delimiter,
      record_delimiter: ["\r\n", "\n", "\r"],
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      ...(max !== undefined ? { to: max + 1 } : {}),
    }) as unknown as { record: string[]; info: { bytes: number } }[];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    if (error.code === "CSV_QUOTE_NOT_CLOSED") throw new CsvReadError("unclosed_quote", openingLine(source));
    // Any other refusal (text after a closing quote): the line where its record starts.
    const recordStart = (error as unknown as { bytes?: unknown }).bytes;
    throw new CsvReadError("bad_quote", startLine(bytes, typeof recordStart === "number" ? recordStart : 0));
  }
  // A record starts after the previous one's end (info.bytes) and the blank lines
  // skipped since; lines are counted here, csv-parse's count being off in quoted cells.
  const records: CsvRecord[] = [];
  let offset = 0;
  let line = 1;
  for (const [index, { record, info }] of parsed.entries()) {
    for (; offset < bytes.length && isBlank(bytes[offset]); offset++) if (isLineEnd(bytes, offset)) line++;
    if (max !== undefined && index === max) throw new CsvReadError("too_many_rows", line);
    if (record.some((c) => c.trim() !== "")) records.push({ line, cells: record });
    for (; offset < info.bytes; offset++) if (isLineEnd(bytes, offset)) line++;
  }
  return records;
}

/** A line ends at \n (also that of \r\n) and at a lone \r. */
const isLineEnd = (bytes: Uint8Array, i: number) => bytes[i] === 10 || (bytes[i] === 13 && bytes[i + 1] !== 10);

/** ASCII whitespace: blank lines (skipped by csv-parse) and the spaces a record may start with. */
const isBlank = (byte: number) => byte === 32 || (byte >= 9 && byte <= 13);

/** The line of a record that starts at byte `end`, after any empty lines. */
function startLine(bytes: Uint8Array, end: number): number {
  let line = 1;
  let i = 0;
  for (; i < end && i < bytes.length; i++) if (isLineEnd(bytes, i)) line++;
  for (; i < bytes.length && isBlank(bytes[i]); i++) if (isLineEnd(bytes, i)) line++;
  return line;
}

function lineBreaks(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) count++;
  }
  return count;
}

/**
 * The line of the quote left open (csv-parse reports the end of the file). After
 * that quote the cell holds only doubled quotes, so it opens the last run of
 * quotes of odd length.
 */
function openingLine(source: string): number {
  let i = source.length - 1;
  while (i >= 0) {
    if (source[i] !== '"') {
      i--;
      continue;
    }
    let start = i;
    while (start > 0 && source[start - 1] === '"') start--;
    if ((i - start + 1) % 2 === 1) return 1 + lineBreaks(source.slice(0, start));
    i = start - 1;
  }
  return 1;
}

export class CsvReadError extends Error {
  constructor(
    readonly code: "unclosed_quote" | "bad_quote" | "too_many_rows",
    readonly line: number,
  ) {
    super(`${code.replace(/_/g, " ")} at line ${line}`);
    this.name = "CsvReadError";
  }
}

// ---------------------------------------------------------------- export

export function formatSkuMappingsCsv(mappings: readonly SkuMappingRow[]): string {
  const rows: (string | number | null)[][] = [[...SKU_MAPPING_COLUMNS]];
  for (const m of mappings) {
    for (const t of m.targets) {
      rows.push([
        m.sourceKind,
        m.sourceKey,
        "sku" in t ? t.sku : "",
        "product_id" in t ? t.product_id : "",
        t.quantity,
        m.label ?? "",
      ]);
    }
  }
  return formatCsv(rows);
}

export function formatCityAliasesCsv(aliases: readonly CityAliasRow[], cities: readonly CityRef[]): string {
  const names = new Map(cities.map((c) => [c.id, c.name]));
  return formatCsv([
    [...CITY_ALIAS_COLUMNS],
    ...aliases.map((a) => [a.alias, a.cityId, names.get(a.cityId) ?? "", a.source]),
  ]);
}

// ---------------------------------------------------------------- import

type Row = { line: number; get(column: string): string };

function readTable(records: CsvRecord[]): { header: string[]; rows: Row[] } {
  const header = records[0].cells.map((h) => h.trim().toLowerCase());
  // Column positions found once (the first of a repeated name wins), not per cell read.
  const positions = new Map<string, number>();
  header.forEach((name, index) => {
    if (!positions.has(name)) positions.set(name, index);
  });
  const rows = records.slice(1).map(({ line, cells }) => ({
    line,
    get(column: string) {
      const index = positions.get(column);
      return index !== undefined ? uncell((cells[index] ?? "").trim()) : "";
    },
  }));
  return { header, rows };
}

const positiveInt = (text: string, max = Number.MAX_SAFE_INTEGER) =>
  /^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= max ? Number(text) : undefined;

/** Reads a mappings or aliases CSV; `cities` are the platform's cached cities (ids are checked against them). */
export function parseMappingsCsv(text: string, options: { cities: readonly CityRef[] }): CsvImport {
  if (text.length > MAX_CSV_BYTES || new TextEncoder().encode(text).length > MAX_CSV_BYTES) {
    return {
      ok: false,
      kind: null,
      errors: [{ row: 1, code: "file_too_large", params: { max: MAX_CSV_BYTES / 1024 / 1024 } }],
    };
  }
  let records: CsvRecord[];
  try {
    // The header, the rows allowed, the first row over (named in the error), and as
    // many blank ones: past that the file is refused without reading the rest.
    records = parseCsv(text, { maxRecords: 2 * (MAX_CSV_ROWS + 2) });
  } catch (error) {
    if (!(error instanceof CsvReadError)) throw error;
    const params = error.code === "too_many_rows" ? { params: { max: MAX_CSV_ROWS } } : {};
    return { ok: false, kind: null, errors: [{ row: error.line, code: error.code, ...params }] };
  }
  if (records.length === 0) return { ok: false, kind: null, errors: [{ row: 1, code: "empty_file" }] };
  const { header, rows } = readTable(records);
  const kind = header.includes("alias")
    ? "city_aliases"
    : header.includes("kind") && header.includes("source")
      ? "sku_mappings"
      : null;
  if (!kind) return { ok: false, kind: null, errors: [{ row: records[0].line, code: "unknown_header" }] };
  const required = kind === "city_aliases" ? ["alias"] : ["kind", "source", "quantity"];
  const missing = required.filter((c) => !header.includes(c));
  if (kind === "sku_mappings" && !header.includes("platform_sku") && !header.includes("platform_product_id"))
    missing.push("platform_sku");
  if (kind === "city_aliases" && !header.includes("city_id") && !header.includes("city_name")) missing.push("city_id");
  if (missing.length > 0) {
    return {
      ok: false,
      kind,
      errors: missing.map((column) => ({ row: records[0].line, column, code: "missing_column" as const })),
    };
  }
  if (rows.length > MAX_CSV_ROWS)
    return {
      ok: false,
      kind,
      errors: [{ row: rows[MAX_CSV_ROWS].line, code: "too_many_rows", params: { max: MAX_CSV_ROWS } }],
    };
  const long = overlongCells(records, header);
  if (long.length > 0) return { ok: false, kind, errors: long };
  return kind === "sku_mappings" ? readSkuMappings(rows) : readCityAliases(rows, options.cities);
}

function overlongCells(records: readonly CsvRecord[], header: readonly string[]): CsvRowError[] {
  const errors: CsvRowError[] = [];
  for (const { line, cells } of records) {
    cells.forEach((cell, index) => {
      if (cell.length > MAX_CELL_CHARS)
        errors.push({
          row: line,
          column: header[index] ?? String(index + 1),
          code: "cell_too_long",
          params: { max: MAX_CELL_CHARS },
        });
    });
  }
  return errors;
}

function readSkuMappings(rows: Row[]): CsvImport {
  const errors: CsvRowError[] = [];
  const groups = new Map<string, { firstLine: number; labelLine: number; input: SkuMappingInput }>();
  for (const row of rows) {
    const before = errors.length;
    const fail = (column: string, code: CsvErrorCode, params?: CsvRowError["params"]) =>
      errors.push({ row: row.line, column, code, ...(params ? { params } : {}) });
    const kind = row.get("kind").toLowerCase();
    if (kind !== "variant" && kind !== "sku") fail("kind", "bad_kind", { value: row.get("kind") });
    const source = row.get("source");
    let sourceKey: string | undefined;
    if (!source) fail("source", "missing_source");
    else if (kind === "variant") {
      sourceKey = /^(gid:\/\/shopify\/ProductVariant\/)?\d+$/.test(source) ? shopifyIdDigits(source) : undefined;
      if (!sourceKey) fail("source", "bad_variant_id", { value: source });
    } else if (kind === "sku") sourceKey = normalizeSku(source) || undefined;

    const sku = row.get("platform_sku");
    const productText = row.get("platform_product_id");
    let target: SkuMappingTarget | undefined;
    const quantityText = row.get("quantity");
    // A blank quantity means one, as a merchant would expect.
    const quantity = quantityText === "" ? 1 : positiveInt(quantityText, MAX_QUANTITY);
    if (quantity === undefined) fail("quantity", "bad_quantity", { value: quantityText, max: MAX_QUANTITY });
    if (sku && productText) fail("platform_sku", "two_targets");
    else if (!sku && !productText) fail("platform_sku", "no_target");
    else if (productText) {
      const productId = positiveInt(productText);
      if (productId === undefined) fail("platform_product_id", "bad_product_id", { value: productText });
      else if (quantity !== undefined) target = { product_id: productId, quantity };
    } else if (quantity !== undefined) target = { sku, quantity };
    if (errors.length > before || !sourceKey || !target) continue;

    const key = `${kind}:${sourceKey}`;
    const label = row.get("label") || null;
    let group = groups.get(key);
    if (!group) {
      group = {
        firstLine: row.line,
        labelLine: row.line,
        input: { sourceKind: kind as "variant" | "sku", sourceKey, targets: [], label },
      };
      groups.set(key, group);
    } else if (label && group.input.label && label !== group.input.label) {
      fail("label", "label_conflict", { line: group.labelLine });
      continue;
    } else if (label && !group.input.label) {
      group.input.label = label;
      group.labelLine = row.line;
    }
    if (group.input.targets.length >= MAX_TARGETS) {
      fail("platform_sku", "too_many_targets", { max: MAX_TARGETS });
      continue;
    }
    group.input.targets.push(target);
  }
  // The same checks as a mapping saved from the page, so nothing the form refuses gets in.
  const mappings: SkuMappingInput[] = [];
  for (const { firstLine, input } of groups.values()) {
    try {
      mappings.push(normalizeSkuMappingInput(input));
    } catch (error) {
      if (!(error instanceof LeadRuleError)) throw error;
      errors.push({ row: firstLine, column: error.field, code: "invalid_mapping", params: { message: error.message } });
    }
  }
  if (errors.length > 0) return { ok: false, kind: "sku_mappings", errors: sortErrors(errors) };
  return { ok: true, kind: "sku_mappings", mappings, rows: rows.length };
}

function readCityAliases(rows: Row[], cities: readonly CityRef[]): CsvImport {
  const errors: CsvRowError[] = [];
  const byId = new Map(cities.map((c) => [c.id, c]));
  const byName = new Map<string, CityRef | null>();
  for (const city of cities) {
    const key = normalizeCityKey(city.name);
    byName.set(key, byName.has(key) ? null : city);
  }
  const seen = new Map<string, number>();
  const aliases: CityAliasRow[] = [];
  for (const row of rows) {
    const before = errors.length;
    const fail = (column: string, code: CsvErrorCode, params?: CsvRowError["params"]) =>
      errors.push({ row: row.line, column, code, ...(params ? { params } : {}) });
    const aliasText = row.get("alias");
    let alias: string | undefined;
    if (!aliasText) fail("alias", "missing_alias");
    else {
      try {
        alias = normalizeCityAliasInput(aliasText, 1).alias;
      } catch {
        fail("alias", "bad_alias", { value: aliasText });
      }
    }
    const idText = row.get("city_id");
    const nameText = row.get("city_name");
    let cityId: number | undefined;
    if (idText) {
      cityId = positiveInt(idText);
      if (cityId === undefined) fail("city_id", "bad_city_id", { value: idText });
      else if (cities.length > 0 && !byId.has(cityId)) fail("city_id", "unknown_city", { value: idText });
    } else {
      // No id: the city's name, when it names exactly one delivered city.
      cityId = nameText ? byName.get(normalizeCityKey(nameText))?.id : undefined;
      if (cityId === undefined) fail("city_id", "unknown_city", { value: nameText });
    }
    const sourceText = row.get("source").toLowerCase();
    if (sourceText && sourceText !== "manual" && sourceText !== "learned")
      fail("source", "bad_source", { value: row.get("source") });
    if (alias && seen.has(alias)) fail("alias", "duplicate_alias", { line: seen.get(alias)! });
    if (errors.length > before || !alias || cityId === undefined) continue;
    seen.set(alias, row.line);
    aliases.push({ alias, cityId, source: sourceText === "learned" ? "learned" : "manual" });
  }
  if (errors.length > 0) return { ok: false, kind: "city_aliases", errors: sortErrors(errors) };
  return { ok: true, kind: "city_aliases", aliases, rows: rows.length };
}

const sortErrors = (errors: CsvRowError[]) => [...errors].sort((a, b) => a.row - b.row);
