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

function count(sql: string): void {
  if (cpuAtFirstMs === null) cpuAtFirstMs = cpuNowMs();
  if (texts) {
    const text = sql.replace(/\s+/g, " ").slice(0, 2000);
    texts.set(text, (texts.get(text) ?? 0) + 1);
  }
  const head = sql.trimStart().slice(0, 10).toUpperCase();
  if (head.startsWith("BEGIN") || head.startsWith("START")) counts.begins++;
  else if (head.startsWith("COMMIT") || head.startsWith("END")) counts.commits++;
  else if (head.startsWith("ROLLBACK")) counts.rollbacks++;
  else counts.statements++;
}

// Every statement goes through a pooled pg.Client's query().
try {
  const pg = require("pg") as { Client: { prototype: { query: AnyFn } } };
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, config: unknown, ...rest: unknown[]) {
    count(typeof config === "string" ? config : String((config as { text?: unknown } | null)?.text ?? ""));
    return query.call(this, config, ...rest);
  };
} catch {
  // No pg here.
}

process.on("SIGUSR2", () => {
  if (texts) {
    const top = [...texts].sort((a, b) => b[1] - a[1]);
    process.stderr.write(top.map(([text, n]) => `[bench-sql] ${String(n).padStart(7)} ${text}`).join("\n") + "\n");
  }
  const cpuMs = cpuAtFirstMs === null ? 0 : cpuNowMs() - cpuAtFirstMs;
  process.stderr.write(`[bench-stats] ${JSON.stringify({ ...counts, cpuMs: Math.round(cpuMs * 10) / 10 })}\n`);
});
