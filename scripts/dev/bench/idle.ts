/**
 * `npm run bench -- idle [--seconds 60] [--workers 1] [--cpu-prof DIR] [--compare DIR]`
 *
 * What a worker process (`worker.ts`) costs with nothing to do: W workers on a
 * fresh database with one connected shop (write-back and Flow on, as the
 * drain's shop), no order queued. After a 10 s settling, it reads each
 * worker's CPU time and SQL statements (the count-statements preload), waits
 * `--seconds`, reads them again and prints CPU ms and statements a second per
 * worker. Beside it, as a floor measured in the same run, a bare node process
 * with a 1 s interval timer. `--compare DIR` runs another checkout's worker
 * first (as the drain's `--compare`), on a fresh database of this checkout's
 * schema. `BENCH_STATEMENT_TEXTS=1` prints each worker's statements by text.
 */
import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { connectShop } from "../lib/connected-shop";
import { createPrismaClient } from "../../../app/db/client";
import { openBenchDatabase } from "./lib/bench-database";
import { countStatementsImport, minusStats, statsReader, sumStats, type ProcessStats } from "./lib/worker-stats";
import { benchShopSettings } from "./lib/shopify-beside";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    workers: { type: "string", default: "1" },
    "cpu-prof": { type: "string" },
    compare: { type: "string" },
  },
});
const SECONDS = Number(values.seconds);
const W = Number(values.workers);
const SETTLE_MS = 10_000;
const root = join(import.meta.dirname, "..", "..", "..");
process.env.ENCRYPTION_KEY ||= randomBytes(32).toString("base64");

interface IdleResult {
  label: string;
  cpuMsPerSecond: number;
  statementsPerSecond: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function idle(label: string, workerRoot: string, profileDir: string | undefined): Promise<IdleResult> {
  const database = await openBenchDatabase();
  const db = createPrismaClient(database.url);
  const workers: ChildProcess[] = [];
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  try {
    // The sandbox is never called: nothing is queued.
    await connectShop(db, {
      apiKey: "idle-bench-key",
      baseUrl: "http://127.0.0.1:9",
      settings: benchShopSettings(true),
    });
    for (let w = 0; w < W; w++) {
      workers.push(
        spawn(
          process.execPath,
          [...profile, "--import", "tsx", ...countStatementsImport, join(workerRoot, "worker.ts")],
          {
            cwd: workerRoot,
            env: {
              ...process.env,
              NODE_ENV: "production",
              DATABASE_URL: database.url,
              LOG_LEVEL: "warn",
            },
            stdio: ["ignore", "ignore", "pipe"],
          },
        ),
      );
    }
    const readers = workers.map((w, i) => statsReader(w, `worker ${i + 1}`));
    await sleep(SETTLE_MS);
    const start = sumStats(await Promise.all(readers.map((r) => r.read())));
    const startedAt = Date.now();
    await sleep(SECONDS * 1000);
    const end = sumStats(await Promise.all(readers.map((r) => r.read())));
    const seconds = ((Date.now() - startedAt) / 1000) * W;
    const spent: ProcessStats = minusStats(end, start);
    const result = {
      label,
      cpuMsPerSecond: spent.cpuMs / seconds,
      statementsPerSecond: (spent.statements + spent.begins + spent.commits + spent.rollbacks) / seconds,
    };
    console.log(
      `idle (${label}): ${W} worker(s) for ${SECONDS} s: CPU ${result.cpuMsPerSecond.toFixed(2)} ms/s, ` +
        `${result.statementsPerSecond.toFixed(2)} statements/s (BEGIN/COMMIT included) per worker`,
    );
    return result;
  } finally {
    for (const w of workers) w.kill("SIGTERM");
    await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.on("exit", r)))));
    await db.$disconnect();
    await database.close();
  }
}

/** A bare node process with a 1 s timer for the same time: the machine's floor for "doing nothing". */
async function floor(): Promise<number> {
  const code = `const t=()=>{const u=process.cpuUsage();return (u.user+u.system)/1000};setTimeout(()=>{const a=t();setTimeout(()=>{console.log(String((t()-a)/${SECONDS}));process.exit(0)},${SECONDS * 1000});setInterval(()=>{},1000)},${SETTLE_MS})`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  await new Promise((r) => child.on("exit", r));
  return Number(out.trim());
}

const floorRun = floor();
const results: IdleResult[] = [];
if (values.compare)
  results.push(
    await idle(
      `baseline ${values.compare}`,
      resolve(values.compare),
      values["cpu-prof"] && join(values["cpu-prof"], "baseline"),
    ),
  );
results.push(await idle("this checkout", root, values["cpu-prof"]));
const floorMs = await floorRun;
console.log(
  `\nfloor: a bare node process with a 1 s timer, ${floorMs.toFixed(2)} ms/s (measured during the first run)`,
);
console.log(["run", "CPU ms/s", "÷ floor", "statements/s"].map((h) => h.padStart(14)).join(" "));
for (const r of results)
  console.log(
    [
      r.label.slice(0, 14),
      r.cpuMsPerSecond.toFixed(2),
      (r.cpuMsPerSecond / floorMs).toFixed(1),
      r.statementsPerSecond.toFixed(2),
    ]
      .map((v) => String(v).padStart(14))
      .join(" "),
  );
