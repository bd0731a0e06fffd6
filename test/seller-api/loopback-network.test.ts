/**
 * The refused / reset distinction with Node's real fetch over loopback: what undici
 * actually throws decides whether a POST may be sent again.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  ConnectionError,
  createSellerApiClient,
  OutcomeUnknownError,
  type CallRecord,
} from "../../app/seller-api/index";
import { createFakeClock } from "./helpers/fake-clock";
import { lead, TEST_KEY } from "./helpers/client-setup";

const ME = {
  data: { account: "ACC-1001", name: "A", lead_prefix: "ATB", api_version: "1.3", rate_limit_per_minute: 600 },
};
const servers: http.Server[] = [];

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port that was just free: connecting to it is refused. */
async function closedPort(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

const client = (baseUrl: string) => {
  const clock = createFakeClock();
  return createSellerApiClient({ baseUrl, apiKey: TEST_KEY, now: clock.now, sleep: clock.sleep, timeoutMs: 2_000 });
};

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe("real fetch over loopback", () => {
  it("GIVEN the server drops the connection after reading a POST THEN OutcomeUnknownError and one POST received", async () => {
    let posts = 0;
    const url = await serve((req, res) => {
      if (req.method === "GET")
        return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(ME));
      posts++;
      req.resume();
      req.on("end", () => req.socket.destroy());
    });
    const error = await client(url)
      .createLead(lead)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).reason).toBe("connection");
    expect(posts).toBe(1);
  });

  it("GIVEN a GET whose body is cut mid-way THEN it is retried and succeeds", async () => {
    let gets = 0;
    const url = await serve((req, res) => {
      if (req.url === "/v1/me") return res.writeHead(200).end(JSON.stringify(ME));
      gets++;
      if (gets === 1) {
        res.writeHead(200, { "content-length": "500" }).write('{"data": [');
        setTimeout(() => req.socket.destroy(), 5);
        return;
      }
      res.writeHead(200).end(JSON.stringify({ data: [] }));
    });
    await expect(client(url).cities()).resolves.toEqual([]);
    expect(gets).toBe(2);
  });

  it("GIVEN nothing listens for the POST THEN it is retried (nothing was sent) and ends as ConnectionError", async () => {
    const api = await serve((_req, res) => res.writeHead(200).end(JSON.stringify(ME)));
    const nowhere = await closedPort();
    const calls: CallRecord[] = [];
    const c = createSellerApiClient({
      baseUrl: api,
      apiKey: TEST_KEY,
      // GET /v1/me reaches the server; POST /v1/leads goes to a port nobody listens on.
      fetch: (input, init) =>
        globalThis.fetch(String(input).replace(api, init?.method === "POST" ? nowhere : api), init),
      sleep: async () => undefined,
      onCall: (r) => void calls.push(r),
    });
    const error = await c.createLead(lead).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(OutcomeUnknownError);
    expect((error as ConnectionError).reason).toBe("ECONNREFUSED");
    expect(calls.filter((r) => r.method === "POST").map((r) => r.error)).toEqual([
      "ECONNREFUSED",
      "ECONNREFUSED",
      "ECONNREFUSED",
    ]);
  });
});
