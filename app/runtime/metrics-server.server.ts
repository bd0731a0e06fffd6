/**
 * Where a scraper reads the metrics. Never on the public app URL for anyone:
 *
 * - METRICS_PORT: a listener of its own (every process, the worker included),
 *   on METRICS_HOST (loopback by default): GET /metrics, /healthz (the process
 *   answers) and /readyz (see readiness.server.ts). An operator firewalls the
 *   port or binds it to a private interface for the scraper.
 * - METRICS_TOKEN: the web server also answers GET /metrics on its own port to
 *   a request bearing the token (Authorization: Bearer), for platforms that
 *   expose one port only; METRICS_PORT asks for it too when set.
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { log } from "./logger.server";
import { METRICS_CONTENT_TYPE, renderMetrics } from "./metrics.server";

/** True when the request bears `token` (compared in constant time). */
export function bearsToken(req: Pick<IncomingMessage, "headers">, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  if (!match) return false;
  const given = Buffer.from(match[1]);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The scrape as an HTTP answer (401 without the token when one is required). */
export async function answerMetrics(
  req: IncomingMessage,
  res: ServerResponse,
  token: string | undefined,
): Promise<void> {
  if (token !== undefined && !bearsToken(req, token)) {
    res
      .writeHead(401, { "Content-Type": "text/plain", "WWW-Authenticate": "Bearer" })
      .end("metrics need the bearer token\n");
    return;
  }
  try {
    const body = await renderMetrics();
    res.writeHead(200, { "Content-Type": METRICS_CONTENT_TYPE, "Cache-Control": "no-store" }).end(body);
  } catch (error) {
    log.error("metrics: the scrape failed", { err: error });
    if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" }).end("metrics unavailable\n");
  }
}

export interface MetricsListenerOptions {
  port: number;
  host: string;
  token?: string;
  /** The readiness answer of this process. */
  readiness: () => Promise<Response>;
}

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/** Starts the listener; a port already taken is logged as an error and the process goes on without it. */
export function startMetricsListener(options: MetricsListenerOptions): Promise<MetricsListener | null> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405, { Allow: "GET" }).end();
    if (path === "/metrics") return void answerMetrics(req, res, options.token);
    if (path === "/healthz")
      return void res.writeHead(200, { "Content-Type": "text/plain", "Cache-Control": "no-store" }).end("ok\n");
    if (path === "/readyz") {
      return void options.readiness().then(
        async (response) => {
          res
            .writeHead(response.status, { "Content-Type": "application/json", "Cache-Control": "no-store" })
            .end(await response.text());
        },
        (error: unknown) => {
          log.error("readiness check failed", { err: error });
          res.writeHead(503, { "Content-Type": "text/plain" }).end("not ready\n");
        },
      );
    }
    res.writeHead(404, { "Content-Type": "text/plain" }).end("not found\n");
  });
  // A scrape never keeps the process alive at shutdown.
  server.unref();
  return new Promise((resolve) => {
    server.once("error", (error) => {
      log.error(`metrics: cannot listen on ${options.host}:${options.port}`, { err: error });
      resolve(null);
    });
    server.listen(options.port, options.host, () => {
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(":") ? `[${options.host}]` : options.host;
      const url = `http://${host}:${port}`;
      log.info(`metrics on ${url}/metrics`, { metricsUrl: `${url}/metrics` });
      resolve({ url, close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}
