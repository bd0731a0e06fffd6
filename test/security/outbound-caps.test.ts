/**
 * Every answer from the platform is read with a cap and
 * within the timeout. A real loopback server streams a 400 MiB answer (chunked
 * and declared), or trickles one byte at a time: the client stops reading at
 * 5 MiB or at its timeout, with a typed error that never carries the key, and
 * the process's memory stays bounded.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionError, createSellerApiClient, OutcomeUnknownError, TimeoutError } from "../../app/seller-api/index";
import { MAX_RESPONSE_BYTES } from "../../app/seller-api/read-capped";
import { lead, TEST_KEY } from "../seller-api/helpers/client-setup";

const MiB = 1024 * 1024;
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
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/** Streams `total` bytes of a JSON string that repeats the caller's key, with back-pressure; counts what went out. */
function hugeAnswer(res: http.ServerResponse, total: number, key: string, declared: boolean, sent: { bytes: number }) {
  res.writeHead(200, { "Content-Type": "application/json", ...(declared ? { "Content-Length": String(total) } : {}) });
  const piece = Buffer.from(`"${key}" `.repeat(Math.ceil((64 * 1024) / (key.length + 3)))).subarray(0, 64 * 1024);
  const pump = () => {
    while (sent.bytes < total && !res.destroyed) {
      sent.bytes += piece.length;
      if (!res.write(piece)) return void res.once("drain", pump);
    }
    if (!res.destroyed) res.end();
  };
  res.write('{"data": "');
  pump();
}

const noWait = { sleep: async () => {} };

function expectNoKey(error: unknown) {
  const e = error as Error & { cause?: unknown; body?: unknown };
  for (const text of [e.message, e.stack, JSON.stringify(e), String(e.cause), JSON.stringify(e.body ?? null)]) {
    expect(text ?? "").not.toContain(TEST_KEY);
  }
}

describe("platform answers are read with a cap and a timeout", () => {
  it("stops reading a 400 MiB answer at the cap, chunked or declared, with bounded memory and a typed error", async () => {
    for (const declared of [false, true]) {
      const sent = { bytes: 0 };
      const url = await serve((req, res) =>
        hugeAnswer(res, 400 * MiB, String(req.headers.authorization), declared, sent),
      );
      const client = createSellerApiClient({ baseUrl: url, apiKey: TEST_KEY, timeoutMs: 30_000, ...noWait });
      global.gc?.();
      const before = process.memoryUsage().rss;
      const error = await client.me().catch((e: unknown) => e);
      const grew = (process.memoryUsage().rss - before) / MiB;

      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).not.toBeInstanceOf(TimeoutError);
      expect((error as ConnectionError).code).toBe("response_too_large");
      expect((error as ConnectionError).reason).toBe("response_too_large");
      expect((error as Error).message).toMatch(/longer than 5242880 bytes/);
      expectNoKey(error);
      // Not retried, not read to the end: a declared length is refused before reading.
      expect(sent.bytes, `server wrote ${sent.bytes} bytes`).toBeLessThan(100 * MiB);
      expect(grew, `rss grew ${grew.toFixed(0)} MiB`).toBeLessThan(150);
    }
  });

  it("accepts an answer just under the cap", async () => {
    const padding = "x".repeat(MAX_RESPONSE_BYTES - 200);
    const url = await serve((_req, res) =>
      res.writeHead(200).end(JSON.stringify({ data: { ...ME.data, note: padding } })),
    );
    const client = createSellerApiClient({ baseUrl: url, apiKey: TEST_KEY, ...noWait });
    await expect(client.me()).resolves.toMatchObject({ account: "ACC-1001" });
  });

  it("reports a POST whose answer is too large as outcome unknown (the lead may exist), sent once", async () => {
    let posts = 0;
    const url = await serve((req, res) => {
      if (req.method === "GET") return res.writeHead(200).end(JSON.stringify(ME));
      posts++;
      req.resume();
      hugeAnswer(res, 100 * MiB, String(req.headers.authorization), false, { bytes: 0 });
    });
    const client = createSellerApiClient({ baseUrl: url, apiKey: TEST_KEY, ...noWait });
    const error = await client.createLead(lead).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).reason).toBe("unreadable_response");
    expectNoKey(error);
    expect(posts).toBe(1);
  });

  it("times out a body that trickles in after prompt headers: the timeout covers the body, not only the headers", async () => {
    const url = await serve((req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"data": "');
      const timer = setInterval(() => res.write(String(req.headers.authorization).slice(0, 1)), 50);
      res.on("close", () => clearInterval(timer));
    });
    const client = createSellerApiClient({
      baseUrl: url,
      apiKey: TEST_KEY,
      timeoutMs: 400,
      retry: { maxAttempts: 2 },
      ...noWait,
    });
    // An endless read would never end (the server trickles until the connection closes): a timeout ends it.
    const error = await client.me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expectNoKey(error);
  });

  it("does not overflow the stack on a deeply nested answer", async () => {
    const deep = `{"data":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
    const url = await serve((_req, res) => res.writeHead(200, { "Content-Type": "application/json" }).end(deep));
    const client = createSellerApiClient({ baseUrl: url, apiKey: TEST_KEY, ...noWait });
    const error = await client.me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(RangeError);
    expect((error as Error).name).toBe("UnexpectedResponseError");
  });
});
