/**
 * The metrics' labels keep a small fixed set of values (no path, ref or shop
 * leaks into a label), the intake counts add up, and the metrics' settings are
 * checked at start-up like every other variable.
 */
import { describe, expect, it } from "vitest";
import { EnvError, parseProcessEnv } from "../../app/env.server";
import { bearsToken } from "../../app/runtime/metrics-server.server";
import {
  apiStatusLabel,
  endpointLabel,
  metrics,
  recordOrdersStored,
  webhookOutcome,
} from "../../app/runtime/metrics.server";
import { routeGroupOf, shopOf, webhookTopicOf } from "../../app/runtime/request-log.server";

describe("metric labels", () => {
  it("names Seller Order API endpoints without their ref or query", () => {
    expect(endpointLabel("GET", "/v1/leads?limit=100&before=ATB-9")).toBe("GET /v1/leads");
    expect(endpointLabel("GET", "/v1/leads/ATB-100012")).toBe("GET /v1/leads/:ref");
    expect(endpointLabel("POST", "/v1/leads")).toBe("POST /v1/leads");
    expect(endpointLabel("GET", "/v1/me")).toBe("GET /v1/me");
    expect(endpointLabel("GET", "/v2/anything/else")).toBe("GET other");
  });

  it("keeps 429 and 5xx apart, and a missing answer as timeout or network", () => {
    expect([200, 201, 202, 401, 404, 422, 429, 400, 500, 503].map((s) => apiStatusLabel(s))).toEqual([
      "2xx",
      "2xx",
      "2xx",
      "401",
      "404",
      "422",
      "429",
      "4xx",
      "5xx",
      "5xx",
    ]);
    expect(apiStatusLabel(null, "timeout")).toBe("timeout");
    expect(apiStatusLabel(null, "ECONNRESET")).toBe("network");
  });

  it("reads a webhook's outcome from its answer", () => {
    expect([200, 401, 400, 405, 413, 422, 500].map(webhookOutcome)).toEqual([
      "accepted",
      "bad_signature",
      "refused",
      "wrong_method",
      "too_large",
      "unreadable",
      "error",
    ]);
  });

  it("groups requests by route and names webhook topics, never the events token", () => {
    expect(routeGroupOf("/webhooks/orders/create")).toBe("webhook");
    expect(routeGroupOf("/webhooks/seller/secret-token")).toBe("platform_events");
    expect(webhookTopicOf("/webhooks/seller/secret-token")).toBe("platform_events");
    expect(webhookTopicOf("/webhooks/app/uninstalled")).toBe("app/uninstalled");
    expect(routeGroupOf("/app/orders/12")).toBe("admin");
    expect(routeGroupOf("/readyz")).toBe("health");
    expect(shopOf({ headers: {}, url: "/app?shop=atlas-beauty.myshopify.com&host=x" })).toBe(
      "atlas-beauty.myshopify.com",
    );
    expect(shopOf({ headers: {}, url: "/app?shop=evil.example.com" })).toBeUndefined();
  });

  it("counts stored orders as new, redelivered and known", async () => {
    const counter = metrics().intakeOrders;
    const before = async () => Object.fromEntries((await counter.get()).values.map((v) => [v.labels.outcome, v.value]));
    const start = await before();
    // 10 deliveries in one commit: 3 were delivered before, 2 more are new deliveries of stored orders.
    recordOrdersStored(10, 7, 5);
    const end = await before();
    const delta = (k: string) => (end[k] ?? 0) - (start[k] ?? 0);
    expect({ new: delta("new"), known_order: delta("known_order"), redelivered: delta("redelivered") }).toEqual({
      new: 5,
      known_order: 2,
      redelivered: 3,
    });
  });
});

describe("metrics settings", () => {
  it("refuses a short token and a port out of range, and defaults to loopback", () => {
    expect(parseProcessEnv({})).toMatchObject({ METRICS_HOST: "127.0.0.1", METRICS_DATABASE_GAUGES: true });
    expect(parseProcessEnv({}).METRICS_PORT).toBeUndefined();
    expect(() => parseProcessEnv({ METRICS_TOKEN: "short" })).toThrow(EnvError);
    expect(() => parseProcessEnv({ METRICS_PORT: "70000" })).toThrow(EnvError);
    expect(parseProcessEnv({ METRICS_PORT: "0", LOG_FORMAT: "pretty" })).toMatchObject({
      METRICS_PORT: 0,
      LOG_FORMAT: "pretty",
    });
  });

  it("accepts the metrics token only as a bearer, compared whole", () => {
    const token = "a-token-of-sixteen-chars";
    expect(bearsToken({ headers: { authorization: `Bearer ${token}` } }, token)).toBe(true);
    expect(bearsToken({ headers: { authorization: `Bearer ${token}x` } }, token)).toBe(false);
    expect(bearsToken({ headers: { authorization: token } }, token)).toBe(false);
    expect(bearsToken({ headers: {} }, token)).toBe(false);
  });
});
