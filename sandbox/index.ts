/**
 * Seller Order API sandbox: the whole contract (../shared/seller-order-api.md) as a
 * local HTTP server with in-memory state, plus a loopback-only control API for tests.
 *
 *   const sandbox = await startSandbox({ port: 0 });
 *   const control = sandboxControl(sandbox.url);
 *   ...
 *   await sandbox.close();
 */
import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp, isLoopback, type SandboxRuntime } from "./app";
import { createAutopilot } from "./autopilot";
import { createClock } from "./clock";
import { defaultConfig } from "./config";
import { createEventDispatcher } from "./events";
import { loadSeed } from "./seed";
import { SandboxStore, type SandboxKey } from "./store";

export { API_VERSION } from "./store";
export type { SandboxKey, CallLogEntry } from "./store";
export type { SandboxConfig } from "./config";
export type { Anomaly, AnomalyCode } from "./anomalies";
export type { ConfirmationStatus, ShippingStatus } from "./lifecycle";
export { CONFIRMATION_STATUSES, SHIPPING_STATUSES } from "./lifecycle";
export type { EventDelivery, EventPayload } from "./events";
export { signEvent } from "./events";
export { sandboxControl, SandboxControlError } from "./control-client";
export type {
  SandboxControl,
  ControlKeyInfo,
  ControlConfigPatch,
  ControlLead,
  AdvanceInput,
  CorrectionInput,
} from "./control-client";

export interface StartSandboxOptions {
  /** default 4010; 0 picks a free port */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** move accepted leads through lifecycles on the sandbox clock */
  autopilot?: boolean;
  /** default 60 */
  rateLimitPerMinute?: number;
  /** default 600 */
  duplicateWindowSeconds?: number;
  /** no diagnostics on the console (unexpected errors); the CLI prints its own lines */
  quiet?: boolean;
  /** the clock moves only through POST /_sandbox/clock: exact edges, no real-time drift */
  frozenClock?: boolean;
}

export interface RunningSandbox {
  url: string;
  keys: SandboxKey[];
  close(): Promise<void>;
}

export const isLoopbackHost = (host: string) => host === "localhost" || isLoopback(host);

export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? "127.0.0.1";
  const clock = createClock({ frozen: options.frozenClock });
  const store = new SandboxStore(
    loadSeed(),
    defaultConfig({
      rateLimitPerMinute: options.rateLimitPerMinute,
      duplicateWindowSeconds: options.duplicateWindowSeconds,
      autopilot: options.autopilot,
    }),
  );
  const events = createEventDispatcher(() => store.config.events);
  store.onStatusChange((change) => events.emit(change));
  const autopilot = createAutopilot(store, clock);
  const runtime: SandboxRuntime = {
    store,
    clock,
    events,
    autopilot,
    hanging: new Set(),
    random: Math.random,
    log: options.quiet ? () => undefined : (...args: unknown[]) => console.error("sandbox:", ...args),
  };
  const keys = store.reset(clock.now());
  const app = createApp(runtime);

  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 4010, hostname: host }, () =>
      resolve(s as Server),
    ) as Server;
    s.once("error", reject);
  });
  server.keepAliveTimeout = 5000;
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    keys,
    close() {
      closing ??= new Promise<void>((resolve) => {
        autopilot.stop();
        events.close();
        for (const release of [...runtime.hanging]) release();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
