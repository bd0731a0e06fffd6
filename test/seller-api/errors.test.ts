/** The client's errors: one class per status family, every field carried, the key redacted everywhere. */
import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  errorFromResponse,
  InternalServerError,
  InvalidInputError,
  InvalidLeadInputError,
  NotFoundError,
  OutcomeUnknownError,
  RateLimitError,
  SellerApiError,
  TimeoutError,
  UnexpectedResponseError,
  UnprocessableEntityError,
  type ResponseErrorInit,
} from "../../app/seller-api/errors";
import { createRedactor, REDACTED } from "../../app/seller-api/redact";

const KEY = "cod_live_0123456789abcdef";
const redactor = createRedactor(KEY);
const AT = new Date("2026-03-10T12:00:00.123Z");

const response = (overrides: Partial<ResponseErrorInit> = {}): ResponseErrorInit => ({
  status: 422,
  method: "POST",
  path: "/v1/leads",
  requestTime: AT,
  apiVersion: "1.4",
  requestId: "req_1",
  body: { error: { code: "invalid_phone" } },
  details: { code: "invalid_phone", message: "customer_phone must be a mobile", field: "customer_phone" },
  redactor,
  ...overrides,
});

describe("errorFromResponse", () => {
  it.each([
    [400, BadRequestError, false],
    [401, AuthenticationError, false],
    [404, NotFoundError, false],
    [422, UnprocessableEntityError, false],
    [429, RateLimitError, true],
    [500, InternalServerError, true],
    [503, InternalServerError, true],
    [409, SellerApiError, false],
    [499, SellerApiError, false],
  ])("maps %i to its class", (status, cls, retriable) => {
    const error = errorFromResponse(response({ status }));
    expect(error).toBeInstanceOf(cls);
    expect(error.constructor).toBe(cls);
    expect(error.name).toBe(cls.name);
    expect(error.retriable).toBe(retriable);
    expect(error.status).toBe(status);
  });

  it("says method, path, status, code, server message and field", () => {
    const error = errorFromResponse(response());
    expect(error.message).toBe(
      "POST /v1/leads answered 422 invalid_phone: customer_phone must be a mobile (field customer_phone)",
    );
    expect(error).toMatchObject({
      code: "invalid_phone",
      method: "POST",
      path: "/v1/leads",
      requestTime: AT,
      apiVersion: "1.4",
      requestId: "req_1",
      field: "customer_phone",
    });
    expect(error.body).toEqual({ error: { code: "invalid_phone" } });
    expect(errorFromResponse(response({ status: 500, details: {} })).message).toBe("POST /v1/leads answered 500");
    expect(errorFromResponse(response({ details: { message: "x".repeat(400) } })).message).toBe(
      `POST /v1/leads answered 422: ${"x".repeat(300)}`,
    );
  });

  it("carries the wait of a 429, zero when unknown", () => {
    expect((errorFromResponse(response({ status: 429, retryAfterMs: 1500 })) as RateLimitError).retryAfterMs).toBe(
      1500,
    );
    expect((errorFromResponse(response({ status: 429 })) as RateLimitError).retryAfterMs).toBe(0);
  });

  it("leaves absent details absent", () => {
    const error = errorFromResponse(response({ status: 422, details: {}, requestId: undefined, apiVersion: null }));
    expect(error.code).toBeUndefined();
    expect((error as UnprocessableEntityError).field).toBeUndefined();
    expect(error.requestId).toBeNull();
    expect(error.apiVersion).toBeNull();
  });

  it("redacts the key from every text and the body", () => {
    const error = errorFromResponse(
      response({
        path: `/v1/leads?k=${KEY}`,
        apiVersion: KEY,
        requestId: KEY,
        body: { echo: KEY, [KEY]: [KEY] },
        details: { code: KEY, message: `bad key ${KEY}`, field: KEY },
      }),
    ) as UnprocessableEntityError;
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain(REDACTED);
    expect([error.code, error.path, error.apiVersion, error.requestId, error.field]).toEqual([
      REDACTED,
      `/v1/leads?k=${REDACTED}`,
      REDACTED,
      REDACTED,
      REDACTED,
    ]);
    expect(error.body).toEqual({ echo: REDACTED, [REDACTED]: [REDACTED] });
    expect(String(error.stack)).not.toContain(KEY);
  });
});

describe("errors built by the client", () => {
  it("keeps the cause only when there is one", () => {
    const cause = new Error("socket hang up");
    expect(new SellerApiError({ message: "m", requestTime: AT, cause }).cause).toBe(cause);
    expect(new SellerApiError({ message: "m", requestTime: AT })).not.toHaveProperty("cause");
  });

  it("works without a redactor", () => {
    const error = new SellerApiError({ message: "plain", requestTime: AT, code: "c", path: "/p", body: { a: 1 } });
    expect(error).toMatchObject({
      message: "plain",
      code: "c",
      path: "/p",
      body: { a: 1 },
      apiVersion: null,
      requestId: null,
      retriable: false,
    });
  });

  it("connection and timeout errors are retriable and name the network reason, redacted", () => {
    const connection = new ConnectionError({
      message: `connect to ${KEY}`,
      requestTime: AT,
      reason: `ECONNREFUSED ${KEY}`,
      redactor,
    });
    expect(connection).toMatchObject({
      retriable: true,
      reason: `ECONNREFUSED ${REDACTED}`,
      message: `connect to ${REDACTED}`,
      name: "ConnectionError",
    });
    const timeout = new TimeoutError({ message: "slow", requestTime: AT, reason: "timeout" });
    expect(timeout).toBeInstanceOf(ConnectionError);
    expect(timeout).toMatchObject({ retriable: true, reason: "timeout", name: "TimeoutError" });
  });

  it("an unknown outcome is not retriable and says why", () => {
    const error = new OutcomeUnknownError({ message: "m", requestTime: AT, reason: "unreadable_response" });
    expect(error).toMatchObject({ retriable: false, reason: "unreadable_response", name: "OutcomeUnknownError" });
  });

  it("an unexpected response lists its issues, redacted, none by default", () => {
    expect(
      new UnexpectedResponseError({ message: "m", requestTime: AT, issues: [`ref: ${KEY}`], redactor }).issues,
    ).toEqual([`ref: ${REDACTED}`]);
    expect(new UnexpectedResponseError({ message: "m", requestTime: AT }).issues).toEqual([]);
  });

  it("invalid input names its field, redacted", () => {
    const error = new InvalidLeadInputError({ message: "m", requestTime: AT, field: `items.${KEY}`, redactor });
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ field: `items.${REDACTED}`, name: "InvalidLeadInputError" });
    expect(new InvalidInputError({ message: "m", requestTime: AT, field: "city" }).field).toBe("city");
  });
});
