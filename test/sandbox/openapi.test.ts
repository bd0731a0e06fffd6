import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type CallOptions, useSandbox, uniquePhone, validLead } from "./helpers";
import { loadOpenApiDocument, OPENAPI_PATH, strictSchemaCompiler } from "./openapi-checker";

const sb = useSandbox({ rateLimitPerMinute: 100_000 });

describe("sandbox/openapi.yaml", () => {
  // The document's structure is linted by Redocly (`npm run lint:openapi`); this checks
  // what a linter does not: each schema compiles strictly, so a stray key is an error.
  it("is OpenAPI 3.1 and every component schema compiles with no unknown keyword", async () => {
    const doc = (await loadOpenApiDocument()) as { openapi: string; components: { schemas: Record<string, object> } };
    expect(doc.openapi).toMatch(/^3\.1\./);
    const ajv = strictSchemaCompiler();
    const failures = Object.entries(doc.components.schemas).flatMap(([name, schema]) => {
      try {
        ajv.compile(schema);
        return [];
      } catch (error) {
        return [`${name}: ${(error as Error).message}`];
      }
    });
    expect(failures).toEqual([]);
    expect(Object.keys(doc.components.schemas).length).toBeGreaterThan(5);
  });

  it("describes exactly the contract's endpoints, and not the control API", () => {
    const doc = parse(readFileSync(OPENAPI_PATH, "utf8")) as { paths: Record<string, object> };
    const ops = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(ops.sort()).toEqual([
      "GET /v1/cities",
      "GET /v1/leads",
      "GET /v1/leads/{ref}",
      "GET /v1/me",
      "GET /v1/products",
      "POST /v1/leads",
    ]);
  });

  it("the checker used by every contract test rejects a response that breaks the document", () => {
    const check =
      (status: number, body: unknown, headers = new Headers({ "X-Api-Version": "1.3" })) =>
      () =>
        sb.checker.check({ method: "GET", path: "/v1/me", status, headers, body });
    expect(check(200, { account: "ACC-1001" })).toThrow(/invalid/);
    expect(check(418, {})).toThrow(/does not document/);
    expect(check(401, { error: { code: "unauthorized", message: "x" } }, new Headers())).toThrow(/X-Api-Version/);
    expect(check(429, { error: { code: "rate_limited", message: "x" } })).toThrow();
  });

  it("every documented response of every operation is produced by the sandbox and matches the document", async () => {
    const ref = (await sb.createLead(validLead())).body.data.ref;
    type Probe = (opts?: CallOptions) => Promise<unknown>;
    const ops: Record<string, Probe> = {
      getMe: (o) => sb.call("GET", "/v1/me", o),
      listProducts: (o) => sb.call("GET", "/v1/products", o),
      listCities: (o) => sb.call("GET", "/v1/cities", o),
      createLead: (o) => sb.call("POST", "/v1/leads", { body: validLead({ customer_phone: uniquePhone() }), ...o }),
      listLeads: (o) => sb.call("GET", "/v1/leads?limit=1", o),
      getLead: (o) => sb.call("GET", `/v1/leads/${ref}`, o),
    };
    for (const probe of Object.values(ops)) {
      await probe(); // 200 / 201
      await probe({ key: null }); // 401
    }
    // operation-specific answers
    await sb.call("POST", "/v1/leads", { body: validLead({ city: "Atlantis" }) }); // 202
    await sb.call("POST", "/v1/leads", { raw: "{", headers: { "Content-Type": "application/json" } }); // 400
    await sb.call("POST", "/v1/leads", { body: validLead({ customer_phone: "123" }) }); // 422
    await sb.call("GET", "/v1/leads?limit=500"); // 422
    await sb.call("GET", "/v1/leads/ATB-424242"); // 404
    // 500 for every operation
    await sb.control.config({ fault: { error_rate: 1 } });
    for (const probe of Object.values(ops)) await probe();
    await sb.control.config({ fault: { error_rate: 0 }, rate_limit_per_minute: 1 });
    // 429 for every operation, each with a fresh key whose one call is spent
    for (const probe of Object.values(ops)) {
      const { key } = await sb.control.createKey({ account: "ACC-1001", name: "probe" });
      await sb.call("GET", "/v1/cities", { key });
      await probe({ key });
    }
    const missing = sb.checker.declared().filter((pair) => !sb.checker.seen.has(pair));
    expect(missing).toEqual([]);
  });
});
