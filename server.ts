/**
 * The production server (`npm start`): what remix-serve does (compressed
 * responses, hashed assets cached for a year, public/ for an hour, a request
 * log, the Remix handler) plus one thing it cannot do. The request log is the
 * process's JSON log (one line a request, app/runtime/request-log.server.ts);
 * metrics are served on METRICS_PORT, or at /metrics to a request bearing
 * METRICS_TOKEN (app/runtime/metrics-server.server.ts).
 *
 * Shopify's webhook topics are answered from Node's HTTP server directly, by
 * their own route's action, ahead of Express and the Remix router: a flash
 * sale sends hundreds a second, and the middleware and router cost more CPU
 * than verifying and storing a webhook (measured: `npm run bench -- intake`).
 * The route modules stay the only implementation; in development (Vite) the
 * same actions run through Remix as usual.
 *
 * Usage (built to build/server.js by `npm run build`): node build/server.js [build/server/index.js]
 */
// First: NODE_ENV defaults to production before any library reads it.
import { childProcessEnv, databaseEnv, processEnv, workerEnv } from "./app/env.server";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  createReadableStreamFromReadable,
  createRequestHandler,
  installGlobals,
  writeReadableStreamToWritable,
  type ServerBuild,
} from "@remix-run/node";
import compression from "compression";
import express, { type RequestHandler } from "express";
import {
  bodyLimitFor,
  BodyTooLargeError,
  declaresTooMuch,
  limitedStream,
  normalizedPath,
} from "./app/http/body-limit.server";
import { isValidHostHeader } from "./app/http/host-header";
import { limitHeapGrowth } from "./app/runtime/process-memory.server";
import { log, routeConsoleToLogger, setProcessRole } from "./app/runtime/logger.server";
import { recordProcessRole } from "./app/runtime/metrics.server";
import { answerMetrics, startMetricsListener } from "./app/runtime/metrics-server.server";
import { logRequest, logWhenAnswered, requestIdOf, shopOf } from "./app/runtime/request-log.server";

const config = processEnv();
limitHeapGrowth();
setProcessRole("web");
// Libraries' console lines (Shopify's, Prisma's) join the JSON log, redacted.
routeConsoleToLogger();
recordProcessRole("web");

type Action = NonNullable<ServerBuild["routes"][string]["module"]["action"]>;

/**
 * The routes answered directly: `webhooks/...` resource routes (an action, no
 * page, no loader) at a fixed path. A path with a parameter (the platform's
 * `webhooks/seller/:token`) goes through Remix, which parses it.
 */
function directWebhookRoutes(build: ServerBuild): Map<string, Action> {
  const routes = new Map<string, Action>();
  for (const route of Object.values(build.routes)) {
    const { path, parentId, module } = route;
    if (parentId !== "root" || !path?.startsWith("webhooks/") || /[:*]/.test(path)) continue;
    if (!module.action || module.loader || module.default) continue;
    routes.set(`/${path}`, module.action);
  }
  return routes;
}

/** Reads the body, refusing it (BodyTooLargeError) as soon as it passes the path's limit. */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  const limit = bodyLimitFor(req.url ?? "/");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLargeError(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** 413, then the connection is closed: the rest of the body is never read. */
function refuseTooLarge(req: IncomingMessage, res: ServerResponse, limit: number): void {
  if (res.headersSent) return void req.destroy();
  res.writeHead(413, { "Content-Type": "text/plain", Connection: "close" });
  res.end(`request body over ${limit} bytes`, () => req.destroy());
}

const hasBody = (method: string | undefined) => method !== "GET" && method !== "HEAD";

/**
 * The Request Remix gets, built as @remix-run/express builds it, except that
 * the body is counted while Remix reads it: past the path's limit the client
 * gets 413 at once and the action's read fails.
 */
function remixRequest(req: express.Request, res: express.Response): Request {
  // req.hostname drops the port: take it from X-Forwarded-Host or Host, as the adapter does.
  const port = [req.get("X-Forwarded-Host"), req.get("host")]
    .map((host) => Number.parseInt(host?.split(":")[1] ?? "", 10))
    .find(Number.isSafeInteger);
  const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value ? [value] : []) headers.append(name, one);
  }
  // Aborted when the client goes away before the answer is finished.
  const controller = new AbortController();
  res.on("close", () => !res.writableFinished && controller.abort());
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (hasBody(req.method)) {
    const limit = bodyLimitFor(req.originalUrl);
    init.body = limitedStream(createReadableStreamFromReadable(req), limit, () => refuseTooLarge(req, res, limit));
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

async function sendRemixResponse(res: express.Response, response: Response): Promise<void> {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

/** @remix-run/express's handler over remixRequest: what Remix answers after a 413 is dropped. */
function remixHandler(build: ServerBuild): RequestHandler {
  const handleRequest = createRequestHandler(build, config.NODE_ENV);
  return async (req, res, next) => {
    try {
      const response = await handleRequest(remixRequest(req, res));
      if (res.headersSent) return void (await response.body?.cancel().catch(() => undefined));
      await sendRemixResponse(res, response);
    } catch (error) {
      if (res.headersSent) return void req.destroy();
      next(error);
    }
  };
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body);
}

/** Runs a webhook route's action as Remix would: a thrown Response is the answer, anything else a 500. */
async function answerDirectly(action: Action, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    if (req.method !== "POST") return await send(res, new Response(null, { status: 405, headers: { Allow: "POST" } }));
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url}`, {
      method: "POST",
      headers,
      body: new Uint8Array(await readBody(req)),
    });
    let response: unknown;
    try {
      response = await action({ request, params: {}, context: {} });
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      response = thrown;
    }
    await send(res, response instanceof Response ? response : new Response(null, { status: 204 }));
  } catch (error) {
    if (error instanceof BodyTooLargeError) return refuseTooLarge(req, res, error.limit);
    log.error("webhook failed", { method: req.method, path: normalizedPath(req.url ?? "/"), err: error });
    if (!res.headersSent) res.writeHead(500).end("Internal Server Error");
    else res.destroy();
  }
}

async function main() {
  const buildPath = resolve(process.argv[2] ?? "build/server/index.js");
  const build: ServerBuild = await import(pathToFileURL(buildPath).href);
  installGlobals({ nativeFetch: build.future.v3_singleFetch });

  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
  app.use(express.static("public", { maxAge: "1h" }));
  app.all("*", remixHandler(build));

  const direct = directWebhookRoutes(build);
  const server = createServer((req, res) => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    res.setHeader("X-Request-Id", requestId);
    // The path as the router matches it, so /webhooks/orders/create/ is the same route.
    const path = normalizedPath(req.url ?? "/");
    const logged = () => logWhenAnswered(req, res, path, requestId, started);
    // A Host that cannot make a URL is the client's error, not a 500.
    if (!isValidHostHeader(req.headers.host)) {
      logged();
      return void res.writeHead(400, { "Content-Type": "text/plain", Connection: "close" }).end("bad Host header");
    }
    // Every route's limit applies before routing: a declared oversize body is never read.
    const limit = bodyLimitFor(req.url ?? "/");
    if (hasBody(req.method) && declaresTooMuch(req.headers["content-length"], limit)) {
      logged();
      return refuseTooLarge(req, res, limit);
    }
    const action = direct.get(path);
    if (action) {
      // Webhooks (the busiest requests) are logged once answered, without a listener each.
      void answerDirectly(action, req, res).finally(() =>
        logRequest({
          requestId,
          method: req.method ?? "POST",
          url: req.url ?? "/",
          path,
          shop: shopOf(req),
          status: res.statusCode,
          durationMs: performance.now() - started,
        }),
      );
      return;
    }
    logged();
    // The metrics on the app's own port only to a request bearing METRICS_TOKEN (else Remix's 404).
    if (path === "/metrics" && config.METRICS_TOKEN && req.method === "GET")
      return void answerMetrics(req, res, config.METRICS_TOKEN);
    app(req, res);
  });

  const port = config.PORT;
  const onListen = () =>
    log.info(`listening on http://${config.HOST ?? "localhost"}:${port}`, { port, directWebhookRoutes: direct.size });
  if (config.HOST) server.listen(port, config.HOST, onListen);
  else server.listen(port, onListen);
  if (config.METRICS_PORT !== undefined) {
    // The listener's /readyz is the app's own (its database client, its in-process worker), with the
    // whole report: the load context says so (requests from the network get none, so only ready or not).
    const readyz = createRequestHandler(build, config.NODE_ENV);
    await startMetricsListener({
      port: config.METRICS_PORT,
      host: config.METRICS_HOST,
      token: config.METRICS_TOKEN,
      readiness: () =>
        readyz(new Request(`http://${config.HOST ?? "localhost"}:${port}/readyz`), { readinessReport: true }),
    });
  }
  // The in-process worker has its own listener (app/queue/shutdown.ts): it stops, then this closes.
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () =>
      server.close((error) => error && log.error("closing the server failed", { err: error })),
    );
  }
}

// No DATABASE_URL: one machine's own embedded PostgreSQL, kept between runs, and this server
// run again on it as a child process, with the job worker inside (scripts/lib/local-database.ts).
if (databaseEnv().DATABASE_URL) await main();
else {
  const { runOnLocalDatabase } = await import("./scripts/lib/local-database");
  const command = {
    file: process.execPath,
    args: [...process.execArgv, ...process.argv.slice(1)],
    env: childProcessEnv({ WORKER_IN_PROCESS: String(workerEnv().WORKER_IN_PROCESS ?? true) }),
  };
  process.exit(await runOnLocalDatabase(command, { log: (line) => log.info(line) }));
}
