/**
 * The production server (`npm start`): what remix-serve does (compressed
 * responses, hashed assets cached for a year, public/ for an hour, a request
 * log, the Remix handler) plus one thing it cannot do.
 *
 * Shopify's webhook topics are answered from Node's HTTP server directly, by
 * their own route's action, ahead of Express and the Remix router: a flash
 * sale sends hundreds a second, and the middleware and router cost more CPU
 * than verifying and storing a webhook (measured: `npm run bench -- intake`).
 * The route modules stay the only implementation; in development (Vite) the
 * same actions run through Remix as usual.
 *
 * Usage: node --import tsx server.ts [build/server/index.js]
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import morgan from "morgan";

process.env.NODE_ENV = process.env.NODE_ENV ?? "production";

type Action = NonNullable<ServerBuild["routes"][string]["module"]["action"]>;

/** Shopify sends whole orders; a body over this is refused (413), not buffered. */
const MAX_WEBHOOK_BYTES = 10 * 1024 * 1024;

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

class BodyTooLargeError extends Error {}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_WEBHOOK_BYTES) throw new BodyTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
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
    if (error instanceof BodyTooLargeError) {
      res.writeHead(413, { Connection: "close" }).end("webhook body too large");
      return void req.destroy();
    }
    console.error(`${req.method} ${req.url} failed:`, error);
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
  app.use(morgan("tiny"));
  app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV }));

  const direct = directWebhookRoutes(build);
  const server = createServer((req, res) => {
    const action = direct.get((req.url ?? "").split("?", 1)[0]);
    if (action) void answerDirectly(action, req, res);
    else app(req, res);
  });

  const port = Number(process.env.PORT) || 3000;
  const onListen = () => console.log(`[server] http://${process.env.HOST ?? "localhost"}:${port} (webhooks answered directly: ${direct.size})`);
  if (process.env.HOST) server.listen(port, process.env.HOST, onListen);
  else server.listen(port, onListen);
  // The in-process worker has its own listener (app/queue/shutdown.ts): it stops, then this closes.
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => server.close((error) => error && console.error(error)));
}

await main();
