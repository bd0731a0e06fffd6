/**
 * Every variant of DESIGN section 5's table, through the client with a scripted fetch:
 * the sandbox picks one answer for each open detail, the real platform may pick another.
 */
import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  OutcomeUnknownError,
  SellerApiError,
  UnexpectedResponseError,
  UnprocessableEntityError,
  UnsupportedApiVersionError,
} from "../../app/seller-api/index";
import { lead, meAnswer, setup } from "./helpers/client-setup";
import { json, type Step } from "./helpers/scripted-fetch";

async function caught(promise: Promise<unknown>): Promise<SellerApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof SellerApiError)) throw new Error(`expected a SellerApiError, got ${String(error)}`);
  return error;
}

describe("POST /v1/leads answers: where the ref and the anomalies sit", () => {
  const anomaly = { code: "unknown_sku", message: "SKU ZZZ is not in the catalogue", field: "items[0].sku" };

  it.each<[string, Step, unknown]>([
    ["201 data.ref (sandbox)", json(201, { data: { ref: "ATB-1" } }), { kind: "created", ref: "ATB-1" }],
    ["201 ref at the top", json(201, { ref: "ATB-2", status: "new" }), { kind: "created", ref: "ATB-2" }],
    ["201 data.lead.ref", json(201, { data: { lead: { ref: "ATB-3" } } }), { kind: "created", ref: "ATB-3" }],
    ["201 lead.ref", json(201, { lead: { ref: "ATB-4" } }), { kind: "created", ref: "ATB-4" }],
    [
      "202 data.ref + data.anomalies objects (sandbox)",
      json(202, { data: { ref: "ATB-5", damaged: true, anomalies: [anomaly] } }),
      { kind: "damaged", ref: "ATB-5", anomalies: [anomaly] },
    ],
    [
      "202 ref and anomalies at the top, anomaly as plain string",
      json(202, { ref: "ATB-6", anomalies: ["recent_duplicate"] }),
      { kind: "damaged", ref: "ATB-6", anomalies: [{ code: "recent_duplicate", message: "recent_duplicate" }] },
    ],
    [
      "202 under lead, anomalies beside it, unknown code kept verbatim",
      json(202, {
        lead: { ref: "ATB-7" },
        anomalies: [{ code: "blacklisted_phone", message: "Phone on a blacklist" }],
      }),
      { kind: "damaged", ref: "ATB-7", anomalies: [{ code: "blacklisted_phone", message: "Phone on a blacklist" }] },
    ],
    [
      "202 data.lead.anomalies with type/detail names",
      json(202, { data: { lead: { ref: "ATB-8", anomalies: [{ type: "unknown_city", detail: "Casablanka?" }] } } }),
      { kind: "damaged", ref: "ATB-8", anomalies: [{ code: "unknown_city", message: "Casablanka?" }] },
    ],
    [
      "202 without any ref",
      json(202, { anomalies: ["inconsistent_total"] }),
      { kind: "damaged", anomalies: [{ code: "inconsistent_total", message: "inconsistent_total" }] },
    ],
  ])("%s", async (_label, answer, expected) => {
    const { client } = setup([meAnswer(), answer]);
    const result = await client.createLead(lead);
    expect(result).toMatchObject(expected as object);
    expect(result.raw).toBeDefined();
  });

  it.each<[string, Step]>([
    ["no ref anywhere", json(201, { data: { id: 5 } })],
    ["a body that is not JSON", { status: 201, body: "Created" }],
  ])("GIVEN a 201 with %s THEN OutcomeUnknownError (the lead exists, its ref is unknown)", async (_label, answer) => {
    const { client, requests } = setup([meAnswer(), answer]);
    const error = await caught(client.createLead(lead));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({ reason: "unreadable_response", status: 201, retriable: false });
    expect(requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });
});

describe("error bodies", () => {
  it.each<[string, unknown]>([
    [
      "nested error (sandbox)",
      { error: { code: "validation_error", message: "customer_phone is invalid", field: "customer_phone" } },
    ],
    ["flat", { code: "validation_error", message: "customer_phone is invalid", field: "customer_phone" }],
    [
      "errors array",
      { errors: [{ code: "validation_error", message: "customer_phone is invalid", field: "customer_phone" }] },
    ],
    [
      "errors array with param",
      { errors: [{ code: "validation_error", message: "customer_phone is invalid", param: "customer_phone" }] },
    ],
    [
      "error string + message",
      { error: "validation_error", message: "customer_phone is invalid", field: "customer_phone" },
    ],
    [
      "JSON:API errors",
      {
        errors: [
          { code: "validation_error", detail: "customer_phone is invalid", source: { pointer: "/customer_phone" } },
        ],
      },
    ],
  ])("GIVEN a 422 with a %s body THEN UnprocessableEntityError names the field", async (_label, body) => {
    const { client } = setup([meAnswer(), json(422, body)]);
    const error = await caught(client.createLead(lead));
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({ status: 422, code: "validation_error", field: "customer_phone", retriable: false });
    expect(error.message).toContain("customer_phone is invalid");
  });

  it("GIVEN a 422 with a field-keyed errors object THEN the field is read from the key", async () => {
    const { client } = setup([meAnswer(), json(422, { errors: { total_client: ["is not a decimal"] } })]);
    const error = await caught(client.createLead(lead));
    expect(error).toMatchObject({ field: "total_client" });
  });

  it("GIVEN a 400 THEN BadRequestError with code and message", async () => {
    const { client } = setup([meAnswer(), json(400, { code: "invalid_body", message: "Body is not valid JSON" })]);
    const error = await caught(client.createLead(lead));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: "invalid_body" });
  });

  it("GIVEN a 401 with a plain-text body THEN AuthenticationError with the text as message", async () => {
    const { client, clock } = setup([{ status: 401, body: "Unauthorized", headers: { "X-Api-Version": "1.3" } }]);
    const error = await caught(client.me());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, apiVersion: "1.3", method: "GET", path: "/v1/me" });
    expect(error.requestTime.getTime()).toBe(clock.now());
    expect(error.message).toBe("GET /v1/me answered 401: Unauthorized");
  });

  it("GIVEN an HTML error page THEN it is kept out of the message", async () => {
    const { client } = setup([{ status: 401, body: "<html><body>nginx</body></html>" }]);
    const error = await caught(client.me());
    expect(error.message).toBe("GET /v1/me answered 401");
  });
});

describe("version header", () => {
  it.each(["X-Api-Version", "Api-Version", "X-Platform-Api-Version", "x-seller-api-version"])(
    "reads the version from %s",
    async (name) => {
      const { client, calls } = setup([
        meAnswer(60, {}, {}),
        { status: 200, body: { data: [] }, headers: { [name]: "1.4" } },
      ]);
      await client.cities();
      expect(calls.at(-1)?.apiVersion).toBe("1.4");
    },
  );

  it("GIVEN no version header THEN apiVersion is null and nothing breaks", async () => {
    const { client, calls } = setup([
      {
        status: 200,
        body: { data: { account: "A", name: "N", lead_prefix: "P", api_version: "1.3", rate_limit_per_minute: 5 } },
      },
    ]);
    await client.me();
    expect(calls[0].apiVersion).toBeNull();
  });

  it("GIVEN a GET answered with major version 2 THEN UnsupportedApiVersionError says so", async () => {
    const { client } = setup([meAnswer(), json(200, { data: [] }, { "X-Api-Version": "2.0" })]);
    const error = await caught(client.products());
    expect(error).toBeInstanceOf(UnsupportedApiVersionError);
    expect(error.apiVersion).toBe("2.0");
    expect(error.message).toMatch(/version 2\.0.*major version 1/);
  });

  it("GIVEN me() reports api_version 2.1 in its body THEN UnsupportedApiVersionError", async () => {
    const { client } = setup([
      {
        status: 200,
        body: { data: { account: "A", name: "N", lead_prefix: "P", api_version: "2.1", rate_limit_per_minute: 5 } },
      },
    ]);
    await expect(client.me()).rejects.toBeInstanceOf(UnsupportedApiVersionError);
  });

  it("GIVEN a POST answered 201 under version 2 THEN the lead is returned but the next POST is refused unsent", async () => {
    const { client, requests } = setup([meAnswer(), json(201, { data: { ref: "ATB-9" } }, { "X-Api-Version": "2.0" })]);
    await expect(client.createLead(lead)).resolves.toMatchObject({ kind: "created", ref: "ATB-9" });
    await expect(client.createLead(lead)).rejects.toBeInstanceOf(UnsupportedApiVersionError);
    expect(requests).toHaveLength(2);
  });
});

describe("list pagination: the last page", () => {
  const leadRow = (id: number) => ({
    id,
    ref: `ATB-${id}`,
    confirmation_status: "new",
    shipping_status: "pending",
    total_client: "99.00",
  });

  it.each<[string, Step]>([
    ["next_before null (sandbox)", json(200, { data: [leadRow(2)], next_before: null })],
    ["next_before absent", json(200, { data: [leadRow(2)] })],
  ])("GIVEN the last page has %s THEN iteration stops", async (_label, last) => {
    const { client, requests } = setup([meAnswer(), json(200, { data: [leadRow(3)], next_before: 3 }), last]);
    const refs: string[] = [];
    for await (const l of client.listLeads({ limit: 1 })) refs.push(l.ref);
    expect(refs).toEqual(["ATB-3", "ATB-2"]);
    expect(requests.map((r) => r.path)).toEqual([
      "/api/v1/me",
      "/api/v1/leads?limit=1",
      "/api/v1/leads?limit=1&before=3",
    ]);
  });

  it("GIVEN a cursor but then an empty page THEN iteration stops", async () => {
    const { client } = setup([
      meAnswer(),
      json(200, { data: [leadRow(3)], next_before: 3 }),
      json(200, { data: [], next_before: 2 }),
    ]);
    const pages = [];
    for await (const page of client.listLeads().pages()) pages.push(page.leads.length);
    expect(pages).toEqual([1, 0]);
  });

  it("GIVEN a cursor that comes back twice THEN it throws instead of looping", async () => {
    const { client } = setup([
      meAnswer(),
      json(200, { data: [leadRow(3)], next_before: 3 }),
      json(200, { data: [leadRow(2)], next_before: 3 }),
    ]);
    const refs: string[] = [];
    await expect(async () => {
      for await (const l of client.listLeads()) refs.push(l.ref);
    }).rejects.toThrow(UnexpectedResponseError);
    expect(refs).toEqual(["ATB-3", "ATB-2"]);
  });

  it("reads a cursor under meta, and a string cursor", async () => {
    const { client, requests } = setup([
      meAnswer(),
      json(200, { data: [leadRow(3)], meta: { next_before: "c-3" } }),
      json(200, { data: [] }),
    ]);
    for await (const _ of client.listLeads()) void _;
    expect(requests.at(-1)?.path).toBe("/api/v1/leads?limit=100&before=c-3");
  });
});
