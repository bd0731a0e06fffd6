/**
 * One sandbox per test file over loopback, and clients whose `sleep` moves the sandbox
 * clock instead of waiting: a 60 s rate-limit wait takes a millisecond.
 */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { sandboxControl, startSandbox, type RunningSandbox, type SandboxControl } from "../../../sandbox/index";
import {
  createSellerApiClient,
  type CallRecord,
  type SellerApiClient,
  type SellerApiClientOptions,
} from "../../../app/seller-api/index";

export interface SandboxKeyInfo {
  id: string;
  account: string;
  key: string;
}

export interface Harness {
  url: string;
  control: SandboxControl;
  /** Fresh after every reset: ACC-1001 (ATB) first, ACC-1002 (RIF) second. */
  keys: SandboxKeyInfo[];
  /** Client time, kept equal to the sandbox clock: real time plus every fake sleep. */
  now: () => number;
  /** Moves both clocks forward; records the wait. */
  sleep: (ms: number) => Promise<void>;
  sleeps: number[];
  client(key: string, options?: Partial<SellerApiClientOptions>): { client: SellerApiClient; calls: CallRecord[] };
}

export function useSandbox(): Harness {
  let sandbox: RunningSandbox;
  let offsetMs = 0;
  const harness: Harness = {
    url: "",
    control: undefined as unknown as SandboxControl,
    keys: [],
    now: () => Date.now() + offsetMs,
    sleeps: [],
    async sleep(ms) {
      harness.sleeps.push(ms);
      if (ms <= 0) return;
      offsetMs += ms;
      await harness.control.clock(ms / 1000);
    },
    client(key, options = {}) {
      const calls: CallRecord[] = [];
      const client = createSellerApiClient({
        baseUrl: harness.url,
        apiKey: key,
        now: harness.now,
        sleep: harness.sleep,
        onCall: (r) => void calls.push(r),
        ...options,
      });
      return { client, calls };
    },
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true });
    harness.url = sandbox.url;
    harness.control = sandboxControl(sandbox.url);
  });

  beforeEach(async () => {
    const { keys } = await harness.control.reset();
    harness.keys = keys.map((k) => ({ id: k.id, account: k.account, key: k.key }));
    harness.sleeps.length = 0;
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  return harness;
}
