import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { RemixServer } from "@remix-run/react";
import { createReadableStreamFromReadable, type EntryContext } from "@remix-run/node";
import { isbot } from "isbot";
import { addDocumentResponseHeaders } from "./shopify.server";
import prisma from "./db.server";
import { isInProcessWorkerEnabled, startInProcessWorker } from "./queue/in-process.server";
import { jobHandlers, workerTasks } from "./worker.server";
import { registerDatabaseMetrics } from "./runtime/database-metrics.server";
import { log } from "./runtime/logger.server";
import { workerInstruments } from "./runtime/readiness.server";

// The job worker runs inside the app server unless WORKER_IN_PROCESS=false
// (then `npm run worker` runs it). Started once per process, stopped on SIGTERM.
if (isInProcessWorkerEnabled())
  startInProcessWorker(prisma, jobHandlers, { ...workerInstruments(), tasks: workerTasks });
registerDatabaseMetrics(prisma);

export const streamTimeout = 5000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  addDocumentResponseHeaders(request, responseHeaders);
  const userAgent = request.headers.get("user-agent");
  // Bots get the whole document at once; browsers get it streamed from the shell.
  const readyEvent = userAgent && isbot(userAgent) ? "onAllReady" : "onShellReady";

  return new Promise<Response>((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} />, {
      [readyEvent]: () => {
        const body = new PassThrough();
        const stream = createReadableStreamFromReadable(body);
        responseHeaders.set("Content-Type", "text/html");
        resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error) {
        reject(error);
      },
      onError(error) {
        responseStatusCode = 500;
        log.error("rendering failed", { err: error });
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}
