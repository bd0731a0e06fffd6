/** What each client method's own errors tell the caller: message, code, request and time. */
import { describe, expect, it } from "vitest";
import {
  InternalServerError,
  InvalidLeadInputError,
  OutcomeUnknownError,
  SellerApiError,
  UnexpectedResponseError,
} from "../../app/seller-api/index";
import { lead, meAnswer, setup } from "./helpers/client-setup";
import { json } from "./helpers/scripted-fetch";

async function caught(promise: Promise<unknown>): Promise<SellerApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof SellerApiError)) throw new Error(`expected a SellerApiError, got ${String(error)}`);
  return error;
}

const leadRow = (id: number) => ({
  id,
  ref: `ATB-${id}`,
  confirmation_status: "new",
  shipping_status: "pending",
  total_client: null,
});

describe("client errors", () => {
  it("an unexpected answer names the request, the status, what was expected and every issue", async () => {
    const { client, clock } = setup([meAnswer(), json(200, { data: [{ id: "x" }] })]);
    const error = await caught(client.cities());
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({
      message:
        "GET /v1/cities answered 200 with an unexpected city list: 0.id: Expected number, received string; 0.name: Required; 0.delivery_fee: Required",
      code: "unexpected_response",
      method: "GET",
      path: "/v1/cities",
      status: 200,
      apiVersion: "1.3",
      requestTime: new Date(clock.now()),
    });
  });

  it("an invalid lead names the field and the request it was not sent as", async () => {
    const { client, clock } = setup([]);
    const error = await caught(client.createLead({ ...lead, customer_phone: "1" }));
    expect(error).toBeInstanceOf(InvalidLeadInputError);
    expect(error).toMatchObject({
      message: "Lead not sent: customer_phone must be a Moroccan mobile number of 10 digits starting 06 or 07",
      code: "invalid_lead_input",
      field: "customer_phone",
      method: "POST",
      path: "/v1/leads",
      requestTime: new Date(clock.now()),
    });
  });

  it("a created lead without a readable ref is an unknown outcome, with the answer kept", async () => {
    const { client } = setup([meAnswer(), json(201, { data: { id: 5 } }, { "X-Request-Id": "req-9" })]);
    const error = await caught(client.createLead(lead));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({
      message: "POST /v1/leads answered 201 without a readable lead ref; the lead probably exists",
      code: "outcome_unknown",
      method: "POST",
      path: "/v1/leads",
      apiVersion: "1.3",
      requestId: "req-9",
      body: { data: { id: 5 } },
    });
  });

  it("a repeated cursor names the request and the cursor", async () => {
    const { client } = setup([
      meAnswer(),
      json(200, { data: [leadRow(3)], next_before: 3 }),
      json(200, { data: [leadRow(2)], next_before: 3 }),
    ]);
    const error = await caught(
      (async () => {
        for await (const _ of client.listLeads()) void _;
      })(),
    );
    expect(error).toMatchObject({
      message: "GET /v1/leads?limit=100&before=3 returned the cursor 3 twice; pagination stopped",
      code: "cursor_repeated",
      method: "GET",
      status: 200,
      apiVersion: "1.3",
    });
  });

  it("getLead() answers null only for a missing lead, and throws the rest", async () => {
    const { client } = setup([meAnswer(), json(500, {}), json(500, {}), json(500, {})]);
    expect(await caught(client.getLead("ATB-1"))).toBeInstanceOf(InternalServerError);
  });
});

describe("pages", () => {
  it("gives each page's leads, cursor and raw answer", async () => {
    const first = { data: [leadRow(3)], next_before: 3 };
    const last = { data: [leadRow(2)], next_before: null };
    const { client } = setup([meAnswer(), json(200, first), json(200, last)]);
    const pages = [];
    for await (const page of client.listLeads().pages()) pages.push(page);
    expect(pages.map((p) => [p.leads.map((l) => l.ref), p.nextBefore, p.raw])).toEqual([
      [["ATB-3"], 3, first],
      [["ATB-2"], null, last],
    ]);
  });
});

describe("what an unexpected answer says it expected", () => {
  const garbage = json(200, { data: { nope: true } });
  it.each<[string, (c: ReturnType<typeof setup>["client"]) => Promise<unknown>, string]>([
    ["me()", (c) => c.me(), "GET /v1/me answered 200 with an unexpected account"],
    ["products()", (c) => c.products(), "GET /v1/products answered 200 with an unexpected product list"],
    ["getLead()", (c) => c.getLead("ATB-1"), "GET /v1/leads/ATB-1 answered 200 with an unexpected lead"],
    [
      "listLeads()",
      async (c) => {
        for await (const _ of c.listLeads()) void _;
      },
      "GET /v1/leads?limit=100 answered 200 with an unexpected lead list",
    ],
  ])("%s", async (label, call, prefix) => {
    const { client } = setup(label === "me()" ? [garbage] : [meAnswer(), garbage]);
    const error = await caught(call(client));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message.startsWith(`${prefix}: `)).toBe(true);
  });
});

describe("pacing of GET /v1/me", () => {
  it("charges the first call to the budget once the rate is known, and later reads like any call", async () => {
    const acquired: number[] = [];
    const limiter = {
      acquire: async (_key: string, rate: number) => void acquired.push(rate),
      penalize: async () => undefined,
    };
    const { client, clock } = setup([meAnswer(30), meAnswer(40)], { limiter, rateRefreshMs: 1_000 });
    await client.me();
    expect(acquired).toEqual([30]);
    clock.advance(1_000);
    await client.me();
    expect(acquired).toEqual([30, 30]);
  });
});

describe("getLead parameters", () => {
  it("refuses a ref that is not a string before any call", async () => {
    const { client, requests } = setup([]);
    expect(await caught(client.getLead(42 as unknown as string))).toMatchObject({
      field: "ref",
      code: "invalid_parameter",
    });
    expect(requests).toHaveLength(0);
  });
});
