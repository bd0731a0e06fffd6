/**
 * `npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--autopilot] [--rate-limit N]
 *                     [--duplicate-window SECONDS]`
 * Prints the listening address, then one line per seeded key (shown once, by design).
 */
import { parseArgs } from "node:util";
import { isLoopbackHost, startSandbox } from "./index";

const USAGE =
  "usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--autopilot] [--rate-limit N] [--duplicate-window SECONDS]";

function positiveInt(name: string, raw: string | undefined, fallback: number, allowZero = false): number {
  if (raw === undefined) return fallback;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(n > 0 || (allowZero && n === 0))) {
    console.error(`--${name} must be ${allowZero ? "a non-negative" : "a positive"} integer\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      autopilot: { type: "boolean" },
      "rate-limit": { type: "string" },
      "duplicate-window": { type: "string" },
      help: { type: "boolean" },
    },
  }));
} catch (err) {
  console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const host = values.host ?? "127.0.0.1";
if (!isLoopbackHost(host)) {
  // Binding elsewhere is possible but must be asked for by name; the control API still answers loopback only.
  console.error(`warning: listening on non-loopback host ${host}; anyone who can reach it can use the seeded keys.`);
}

const options = {
  port: positiveInt("port", values.port, 4010, true),
  host,
  autopilot: values.autopilot ?? false,
  rateLimitPerMinute: positiveInt("rate-limit", values["rate-limit"], 60),
  duplicateWindowSeconds: positiveInt("duplicate-window", values["duplicate-window"], 600, true),
};
const sandbox = await startSandbox(options).catch((err: unknown) => {
  console.error(`cannot listen on ${host}:${options.port}: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

console.log(`Seller Order API sandbox listening on ${sandbox.url}`);
for (const k of sandbox.keys) console.log(`key ${k.account} ${k.store ?? "-"} ${k.key}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void sandbox.close().then(() => process.exit(0));
  });
}
