/**
 * Two worker processes on one database, as with the app server plus
 * `npm run worker`: all jobs run, none twice, and SIGTERM stops them cleanly.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { enqueueJob } from "../../app/queue/jobs.server";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { sleep } from "./helpers";

let t: TestDatabase;
let dir: string;
beforeAll(async () => {
  t = await createTestDatabase();
  dir = mkdtempSync(join(tmpdir(), "queue-race-"));
});
afterAll(async () => {
  await t.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const JOBS = 200;
const script = join(import.meta.dirname, "fixtures", "race-worker.ts");

function startWorker(owner: string, outFile: string) {
  const child = spawn(process.execPath, ["--import", "tsx", script, t.url, owner, outFile], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const ready = async () => {
    while (!stdout.includes("ready")) {
      if (child.exitCode !== null) throw new Error(`worker ${owner} exited: ${stderr}`);
      await sleep(20);
    }
  };
  return { child, exited, ready, output: () => ({ stdout, stderr }) };
}

function stopWorker(child: ChildProcess) {
  child.kill("SIGTERM");
}

it("GIVEN 200 jobs and two worker processes WHEN both run THEN each job runs exactly once", async () => {
  for (let i = 0; i < JOBS; i++) await enqueueJob(t.prisma, { kind: "k", key: `k:${i}` });
  const outFile = join(dir, "ran.txt");

  const workers = [startWorker("p1", outFile), startWorker("p2", outFile)];
  await Promise.all(workers.map((w) => w.ready()));
  const deadline = Date.now() + 30_000;
  while ((await t.prisma.job.count({ where: { state: "done" } })) < JOBS && Date.now() < deadline) await sleep(100);
  workers.forEach((w) => stopWorker(w.child));
  const codes = await Promise.all(workers.map((w) => w.exited));

  const ran = readFileSync(outFile, "utf8").trim().split("\n");
  const perKey = new Map<string, number>();
  for (const key of ran) perKey.set(key, (perKey.get(key) ?? 0) + 1);
  const reports = workers.map((w) => JSON.parse(w.output().stdout.trim().split("\n").at(-1)!));

  expect(codes).toEqual([0, 0]);
  expect(perKey.size).toBe(JOBS);
  expect([...perKey.entries()].filter(([, n]) => n !== 1)).toEqual([]);
  expect(await t.prisma.job.count({ where: { state: "done", attempts: 1 } })).toBe(JOBS);
  for (const report of reports) expect(report.problems).toEqual([]);
});
