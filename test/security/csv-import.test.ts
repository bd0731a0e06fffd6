/**
 * Mappings CSV import under hostile files: the parser is
 * linear on the inputs that made the hand-written one quadratic (a cell of
 * 200,000 quotes froze the server for 13.8 s), the route reads the upload under
 * a size limit enforced while reading, and a file past the row limit is refused
 * with a message in French and English. Nothing is saved by a refused import.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { t as translate } from "../../app/i18n";
import { MAX_CSV_BYTES, MAX_CSV_ROWS, parseMappingsCsv } from "../../app/pages/mappings-csv";
import { adminRequest } from "../helpers/admin";
import { SHOP_A, startAdminApp, stopAdminApp, submit, type AdminApp } from "../pages/helpers";
import { LINEAR_BOUND, repeat, repetitionsFor, timeRatio } from "./complexity";

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

const cities = [{ id: 101, name: "Casablanca" }];
const SKU_HEADER = "kind,source,platform_sku,platform_product_id,quantity,label\n";

/** Files of n characters that cost the old parser (or its header lookup) n² steps. */
const HOSTILE: Record<string, (n: number) => string> = {
  "quotes inside an unquoted cell": (n) => `${SKU_HEADER}sku,a${'"'.repeat(n)},X,,1,\n`,
  "a file of quotes": (n) => '"'.repeat(n),
  "spaces before a quote": (n) => `${SKU_HEADER}${" ".repeat(n)}"sku",A,B,,1,\n`,
  "a header of thousands of columns": (n) =>
    `${Array.from({ length: n / 8 }, (_, i) => `c${i}`).join(",")},kind,source,platform_sku,quantity\n${"sku,".repeat(n / 16)}\n`,
  "one row of separators": (n) => `${SKU_HEADER}${",".repeat(n)}x\n`,
  "a quote never closed": (n) => `alias,city_id\n"${"a\n".repeat(n / 2)}`,
  "line ends only": (n) => `alias,city_id\n${"\r\n \n".repeat(n / 4)}`,
  "short rows": (n) => `${SKU_HEADER}${"s\n".repeat(n / 2)}`,
};

describe("CSV import complexity", () => {
  for (const [name, make] of Object.entries(HOSTILE)) {
    it(`reads ${name} in linear time`, () => {
      // 200,000 characters froze the old parser for 13.8 s. Each size is timed over enough parses to last 50 ms.
      const n = 200_000;
      const sample = make(n);
      const reps = repetitionsFor(() => parseMappingsCsv(sample, { cities }), 50, 1_000);
      const { ratio, small, large } = timeRatio(
        (size) => {
          const text = make(size);
          return () => repeat(() => parseMappingsCsv(text, { cities }), reps);
        },
        n,
        7,
      );
      console.log(`csv ${name}: n=${n} ${small.toFixed(1)} ms, 4n ${large.toFixed(1)} ms, ratio ${ratio.toFixed(2)}`);
      expect(ratio).toBeLessThan(LINEAR_BOUND);
    });
  }

  it("answers the reviewer's 200,000-character upload through the route with a row error, not a frozen server", async () => {
    const csv = `${SKU_HEADER}sku,a${'"'.repeat(200_000)},X,,1,\n`;
    const started = performance.now();
    const result = await submit(route.action, SHOP_A, "/app/mappings", { intent: "importCsv", csv });
    const elapsed = performance.now() - started;
    // A quote inside an unquoted cell is text: the row is read, and its 200,001-character source refused.
    expect(result).toEqual({
      intent: "importCsv",
      ok: false,
      kind: "sku_mappings",
      errors: [{ row: 2, column: "source", code: "cell_too_long", params: { max: 500 } }],
    });
    // Generous: the quadratic parser took 13.8 s here; a linear one takes milliseconds.
    expect(elapsed).toBeLessThan(3_000);
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
