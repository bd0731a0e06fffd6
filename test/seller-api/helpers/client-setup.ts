/** A client wired to a scripted fetch and a fake clock, recording every onCall. */
import { createSellerApiClient, type CallRecord, type SellerApiClientOptions } from "../../../app/seller-api/index";
import { createFakeClock } from "./fake-clock";
import { json, scriptedFetch, type Step } from "./scripted-fetch";

export const TEST_KEY = "cod_Zk3vQ9xL2mN8pR4tW6yB1cD5fG7hJ0kM2nP4qS6uV8x";

export function meAnswer(rate = 60, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Step {
  return json(
    200,
    {
      data: {
        account: "ACC-1001",
        name: "Atlas Beauty SARL",
        lead_prefix: "ATB",
        api_version: "1.3",
        rate_limit_per_minute: rate,
        ...extra,
      },
    },
    headers,
  );
}

export function setup(steps: Step[], options: Partial<SellerApiClientOptions> = {}) {
  const clock = createFakeClock();
  const scripted = scriptedFetch(steps);
  const calls: CallRecord[] = [];
  const client = createSellerApiClient({
    baseUrl: "http://127.0.0.1:9/api/",
    apiKey: TEST_KEY,
    fetch: scripted.fetch,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    timeoutMs: 50,
    onCall: (record) => void calls.push(record),
    ...options,
  });
  return { client, clock, requests: scripted.requests, calls, remaining: () => steps.length };
}

export const lead = {
  customer_name: "Fatima Zahra",
  customer_phone: "0612345678",
  city: "Casablanca",
  total_client: "149.00",
  items: [{ sku: "ARG-OIL-50", quantity: 2 }],
  external_ref: "#1001",
};
