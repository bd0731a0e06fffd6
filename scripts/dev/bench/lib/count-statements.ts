/**
 * A preload for the benchmarks' worker processes (`node --import tsx --import
 * <this file> worker.ts`): counts every SQL statement the process sends to its
 * database, at the driver (node-postgres' Client#query), whatever layer sent it (Prisma, raw SQL, the queue), and the
 * process's CPU time from its first statement on (start-up and module loading
 * left out). On SIGUSR2 it prints one line to stderr:
 *
 *   [bench-stats] {"statements":…,"begins":…,"commits":…,"rollbacks":…,"cpuMs":…}
 *
 * statements leaves out BEGIN, COMMIT and ROLLBACK, counted apart.
 * Nothing of the app imports this; it changes no result.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
// The driver's patched method: any function shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFn = (...args: any[]) => unknown;

const counts = { statements: 0, begins: 0, commits: 0, rollbacks: 0 };
let cpuAtFirstMs: number | null = null;
const cpuNowMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** BENCH_STATEMENT_TEXTS=1: also count each statement text, printed on SIGUSR2 (most frequent first). */
const texts = process.env.BENCH_STATEMENT_TEXTS === "1" ? new Map<string, number>() : null;
/**
 * BENCH_STATEMENT_SOURCES=1: also count the statements by who sent them, the
 * chain of the app's functions on the (async) stack, outermost first, with the head of
 * the statement, printed on SIGUSR2 as `[bench-src]` lines. Costs CPU: a stack per statement.
 */
const sources = process.env.BENCH_STATEMENT_SOURCES === "1" ? new Map<string, number>() : null;
if (sources) Error.stackTraceLimit = 60;

/** "worker.server.ts:runBatch < post-lead.server.ts:runPostLead < ...": the app's frames of the current stack. */
function sourceOf(): string {
  const frames: string[] = [];
  for (const line of (new Error().stack ?? "").split("\n").slice(3)) {
    const m = /at (?:async )?(?:[\w$.<>]+\.)?([\w$<>]+) \(.*\/(app|scripts)\/(?:[\w-]+\/)*([\w.-]+\.ts)/.exec(line);
    if (!m || m[3] === "count-statements.ts") continue;
    const frame = `${m[3]}:${m[1]}`;
    if (frames[frames.length - 1] !== frame) frames.push(frame);
  }
  return frames.reverse().join(" < ") || "(outside the app)";
}

function count(sql: string, source: string | undefined): void {
  if (cpuAtFirstMs === null) cpuAtFirstMs = cpuNowMs();
  if (texts) {
    const text = sql.replace(/\s+/g, " ").slice(0, 2000);
    texts.set(text, (texts.get(text) ?? 0) + 1);
  }
  if (sources) {
    const key = `${source ?? sourceOf()} | ${sql.replace(/\s+/g, " ").trim().slice(0, 90)}`;
    sources.set(key, (sources.get(key) ?? 0) + 1);
  }
  const head = sql.trimStart().slice(0, 10).toUpperCase();
  if (head.startsWith("BEGIN") || head.startsWith("START")) counts.begins++;
  else if (head.startsWith("COMMIT") || head.startsWith("END")) counts.commits++;
  else if (head.startsWith("ROLLBACK")) counts.rollbacks++;
  else counts.statements++;
}

const SOURCE = Symbol("bench source");
type Pooled = { [SOURCE]?: string };

// Every statement goes through a pooled pg.Client's query().
try {
  const pg = require("pg") as { Client: { prototype: { query: AnyFn } }; Pool: { prototype: { connect: AnyFn } } };
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: Pooled, config: unknown, ...rest: unknown[]) {
    count(
      typeof config === "string" ? config : String((config as { text?: unknown } | null)?.text ?? ""),
      this[SOURCE],
    );
    return query.call(this, config, ...rest);
  };
  if (sources) {
    // A client handed out by the pool loses its borrower's async stack: the borrower's, taken when it asked.
    const connect = pg.Pool.prototype.connect;
    pg.Pool.prototype.connect = function (this: unknown, callback?: AnyFn) {
      const source = sourceOf();
      const mark = (client: unknown) => {
        if (client) (client as Pooled)[SOURCE] = source;
        return client;
      };
      if (typeof callback === "function")
        return connect.call(this, (error: unknown, client: unknown, done: unknown) =>
          callback(error, mark(client), done),
        );
      return (connect.call(this) as Promise<unknown>).then(mark);
    };
  }
} catch {
  // No pg here.
}

process.on("SIGUSR2", () => {
  if (texts) {
    const top = [...texts].sort((a, b) => b[1] - a[1]);
    process.stderr.write(top.map(([text, n]) => `[bench-sql] ${String(n).padStart(7)} ${text}`).join("\n") + "\n");
  }
  if (sources) {
    const top = [...sources].sort((a, b) => b[1] - a[1]);
    process.stderr.write(top.map(([source, n]) => `[bench-src] ${String(n).padStart(7)} ${source}`).join("\n") + "\n");
  }
  const cpuMs = cpuAtFirstMs === null ? 0 : cpuNowMs() - cpuAtFirstMs;
  process.stderr.write(`[bench-stats] ${JSON.stringify({ ...counts, cpuMs: Math.round(cpuMs * 10) / 10 })}\n`);
});
