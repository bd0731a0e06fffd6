/**
 * Mappings CSV import under hostile files: the parser answers the inputs that
 * made the hand-written one quadratic (a cell of 200,000 quotes froze the server
 * for 13.8 s; how its time grows is `npm run bench -- complexity`), the route reads the upload under
 * a size limit enforced while reading, and a file past the row limit is refused
 * with a message in French and English. Nothing is saved by a refused import.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { t as translate } from "../../app/i18n";
import { MAX_CSV_BYTES, MAX_CSV_ROWS, parseMappingsCsv } from "../../app/pages/mappings-csv";
import { adminRequest } from "../helpers/admin";
import { SHOP_A, startAdminApp, stopAdminApp, submit, type AdminApp } from "../pages/helpers";
import { HOSTILE_CSV, SKU_CSV_HEADER } from "../../scripts/dev/bench/lib/hostile-inputs";

type MappingsRoute = typeof import("../../app/routes/app.mappings");
let app: AdminApp;
let route: MappingsRoute;

beforeAll(async () => {
  app = await startAdminApp();
  route = await import("../../app/routes/app.mappings");
  await app.db.prisma.shop.create({
    data: {
      domain: SHOP_A,
      citiesJson: JSON.stringify([{ id: 101, name: "Casablanca" }]),
      citiesFetchedAt: new Date(),
    },
  });
});
afterAll(() => stopAdminApp(app));

const SKU_HEADER = SKU_CSV_HEADER;

describe("CSV import of hostile files", () => {
  it("answers each 200,000-character file that made the old parser quadratic with what is wrong in it", () => {
    // How the time grows with such a file is `npm run bench -- complexity`: a speed, not asserted here.
    const answers = Object.fromEntries(
      Object.entries(HOSTILE_CSV).map(([name, make]) => {
        const result = parseMappingsCsv(make(200_000), { cities: [{ id: 101, name: "Casablanca" }] });
        return [name, result.ok ? result.kind : [result.kind, ...new Set(result.errors.map((e) => e.code))]];
      }),
    );
    expect(answers).toEqual({
      "quotes inside an unquoted cell": ["sku_mappings", "cell_too_long"],
      "a file of quotes": [null, "unknown_header"],
      "spaces before a quote": "sku_mappings",
      "a header of thousands of columns": ["sku_mappings", "bad_kind", "missing_source", "no_target"],
      "one row of separators": ["sku_mappings", "bad_kind", "missing_source", "no_target"],
      "a quote never closed": [null, "unclosed_quote"],
      "line ends only": "city_aliases",
      "short rows": [null, "too_many_rows"],
    });
  });

  it("answers the reviewer's 200,000-character upload through the route with a row error, not a frozen server", async () => {
    const csv = HOSTILE_CSV["quotes inside an unquoted cell"](200_000);
    const result = await submit(route.action, SHOP_A, "/app/mappings", { intent: "importCsv", csv });
    // A quote inside an unquoted cell is text: the row is read, and its 200,001-character source refused.
    expect(result).toEqual({
      intent: "importCsv",
      ok: false,
      kind: "sku_mappings",
      errors: [{ row: 2, column: "source", code: "cell_too_long", params: { max: 500 } }],
    });
    expect(await app.db.prisma.skuMapping.count()).toBe(0);
  });
});

describe("CSV upload limits", () => {
  /** A multipart upload whose file part never ends; counts the bytes the server pulled. */
  function endlessUpload() {
    const boundary = "----cod-lead-sync-test";
    const encoder = new TextEncoder();
    const chunk = encoder.encode(`${"sku,A,B,,1,\n".repeat(5_000)}`);
    let pulled = 0;
    let first = true;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const part = first
          ? encoder.encode(
              `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nimportCsv\r\n--${boundary}\r\n` +
                `Content-Disposition: form-data; name="csv"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n${SKU_HEADER}`,
            )
          : chunk;
        first = false;
        pulled += part.byteLength;
        // Stop by ourselves far past the limit, so a server that reads everything fails the test instead of hanging.
        if (pulled > 20 * MAX_CSV_BYTES) controller.close();
        else controller.enqueue(part);
      },
    });
    return { body, boundary, pulled: () => pulled };
  }

  it("stops reading a chunked upload at the limit and says the file is too large", async () => {
    const upload = endlessUpload();
    const request = await adminRequest(SHOP_A, "/app/mappings", {
      as: "fetch",
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${upload.boundary}` },
      body: upload.body,
      duplex: "half",
    } as RequestInit);
    const result = await route.action({ request, params: {}, context: {} });
    expect(result).toEqual({
      intent: "importCsv",
      ok: false,
      kind: null,
      errors: [{ row: 1, code: "file_too_large", params: { max: 1 } }],
    });
    // Read up to the limit and at most one more chunk: never the whole body.
    expect(upload.pulled()).toBeLessThan(MAX_CSV_BYTES + 64 * 1024 + 128 * 1024);
    expect(await app.db.prisma.skuMapping.count()).toBe(0);
  });

  it("refuses a declared Content-Length over the limit before reading", async () => {
    const upload = endlessUpload();
    const request = await adminRequest(SHOP_A, "/app/mappings", {
      as: "fetch",
      method: "POST",
      headers: {
        "Content-Type": `multipart/form-data; boundary=${upload.boundary}`,
        "Content-Length": String(50 * MAX_CSV_BYTES),
      },
      body: upload.body,
      duplex: "half",
    } as RequestInit);
    const result = await route.action({ request, params: {}, context: {} });
    expect(result).toMatchObject({ ok: false, errors: [{ code: "file_too_large" }] });
    // Nothing but what the stream queued on its own before anyone read it.
    expect(upload.pulled()).toBeLessThan(256 * 1024);
  });

  it("imports a file sent as a multipart file part, as the page sends it", async () => {
    const form = new FormData();
    form.append("intent", "importCsv");
    form.append("csv", new File([`${SKU_HEADER}sku,PACK,AMLOU-250,,2,Pack\n`], "mappings.csv", { type: "text/csv" }));
    const request = await adminRequest(SHOP_A, "/app/mappings", { as: "fetch", method: "POST", body: form });
    expect(await route.action({ request, params: {}, context: {} })).toMatchObject({
      intent: "importCsv",
      ok: true,
      saved: 1,
    });
    await app.db.prisma.skuMapping.deleteMany();
  });

  it("refuses a text over the size limit sent as a plain field, and the rows past the limit, with a message in French and English", async () => {
    const big = await submit(route.action, SHOP_A, "/app/mappings", {
      intent: "importCsv",
      csv: `${SKU_HEADER}${"x".repeat(MAX_CSV_BYTES)}`,
    });
    expect(big).toMatchObject({ ok: false, errors: [{ code: "file_too_large" }] });

    const rows = Array.from({ length: MAX_CSV_ROWS + 1 }, (_, i) => `sku,S${i},AMLOU-250,,1,`);
    const result = await submit(route.action, SHOP_A, "/app/mappings", {
      intent: "importCsv",
      csv: SKU_HEADER + rows.join("\n"),
    });
    // The header is line 1: the first row over the limit is line 5,002.
    expect(result).toEqual({
      intent: "importCsv",
      ok: false,
      kind: "sku_mappings",
      errors: [{ row: MAX_CSV_ROWS + 2, code: "too_many_rows", params: { max: MAX_CSV_ROWS } }],
    });
    expect(translate("en", "mappings.csv.error.too_many_rows", { max: MAX_CSV_ROWS })).toBe(
      "More than 5000 rows: split the file",
    );
    expect(translate("fr", "mappings.csv.error.too_many_rows", { max: MAX_CSV_ROWS })).toBe(
      "Plus de 5000 lignes : découpez le fichier",
    );
    expect(translate("en", "mappings.csv.error.file_too_large", { max: 1 })).toBe("The file is over 1 MB: split it");
    expect(translate("fr", "mappings.csv.error.file_too_large", { max: 1 })).toBe(
      "Le fichier dépasse 1 Mo : découpez-le",
    );

    // Thousands of blank-looking lines cannot make the parser read on: refused as too many rows.
    const blanks = await submit(route.action, SHOP_A, "/app/mappings", {
      intent: "importCsv",
      csv: `${SKU_HEADER}${" ,\n".repeat(3 * MAX_CSV_ROWS)}`,
    });
    expect(blanks).toMatchObject({ ok: false, errors: [{ code: "too_many_rows" }] });
    expect(await app.db.prisma.skuMapping.count()).toBe(0);
  });
});
