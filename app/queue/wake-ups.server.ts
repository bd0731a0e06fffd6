/**
 * Wake-ups for a worker, pushed by PostgreSQL instead of found by polling: the
 * Job table's trigger (migration job_wake_ups) notifies channel "cod_job" with
 * the runAt of every job that becomes pending or failed, when its transaction
 * commits. A worker LISTENs on a connection of its own (a pooled one would be
 * handed to other work) and is woken at that runAt: at once for due work, by a
 * timer for later work (a post waiting for its key's slot, a retry's backoff).
 *
 * A notification can be missed (the connection dropped, the worker started
 * after it): the worker still polls, less often, and is woken on reconnect.
 */
import pg from "pg";
import { errorMessage } from "./errors";
import type { QueueLogger } from "./types";

export const JOB_CHANNEL = "cod_job";
const RECONNECT_MS = 1_000;

export interface WakeUps {
  close(): Promise<void>;
}

/**
 * Listens on `connectionString` and calls `wake(runAtMs)` for every job that
 * became waiting (runAtMs null: a reconnect, when anything may have been missed).
 */
export function listenForJobs(
  connectionString: string,
  wake: (runAtMs: number | null) => void,
  logger: QueueLogger,
): WakeUps {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;

  async function connect(): Promise<void> {
    if (closed) return;
    const next = new pg.Client({ connectionString });
    next.on("notification", (message) => {
      const runAtMs = Number(message.payload);
      if (message.channel === JOB_CHANNEL && Number.isFinite(runAtMs)) wake(runAtMs);
    });
    next.on("error", (error) => {
      logger.warn(`worker: the wake-up connection failed (${errorMessage(error)}); polling until it is back`);
      void next.end().catch(() => {});
      if (client === next) client = undefined;
      scheduleReconnect();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${JOB_CHANNEL}`);
    } catch (error) {
      await next.end().catch(() => {});
      logger.warn(`worker: cannot listen for wake-ups (${errorMessage(error)}); polling until it can`);
      scheduleReconnect();
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    wake(null);
  }

  function scheduleReconnect(): void {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, RECONNECT_MS);
    retry.unref?.();
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
