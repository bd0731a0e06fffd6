import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { isInProcessWorkerEnabled, startInProcessWorker, stopInProcessWorker } from "../../app/queue/in-process.server";
import { stopOnShutdownSignal, type ShutdownSignal, type SignalTarget } from "../../app/queue/shutdown";
import type { QueueDb } from "../../app/queue/types";
import { captureLogger, deferred, sleep } from "./helpers";
import { parseWorkerEnv } from "../../app/env.server";

/** A stand-in for `process`: emits signals, records kill() calls. */
function fakeProcess() {
  const emitter = new EventEmitter();
  const kills: ShutdownSignal[] = [];
  const target: SignalTarget & { emit(signal: ShutdownSignal): void; kills: ShutdownSignal[] } = {
    pid: 4242,
    kills,
    prependListener: (s, l) => emitter.prependListener(s, l),
    removeListener: (s, l) => emitter.removeListener(s, l),
    listenerCount: (s) => emitter.listenerCount(s),
    kill: (_pid, s) => kills.push(s),
    emit: (s) => emitter.emit(s, s),
  };
  return { target, emitter };
}

describe("stopOnShutdownSignal", () => {
  it("GIVEN nobody else listens WHEN SIGTERM THEN it stops, then re-raises the signal so the process exits", async () => {
    const { target } = fakeProcess();
    const gate = deferred();
    let stops = 0;
    stopOnShutdownSignal(
      async () => {
        stops++;
        await gate.promise;
      },
      { target },
    );

    target.emit("SIGTERM");
    target.emit("SIGINT"); // a second signal does not stop twice
    expect(target.kills).toEqual([]);
    gate.resolve();
    await sleep(0);

    expect(stops).toBe(1);
    expect(target.kills).toEqual(["SIGTERM"]);
  });

  it("GIVEN the server has its own listener (server.ts) THEN it stops without re-raising", async () => {
    const { target, emitter } = fakeProcess();
    let serverClosed = false;
    emitter.once("SIGTERM", () => (serverClosed = true));
    let stopped = false;
    stopOnShutdownSignal(async () => void (stopped = true), { target });

    target.emit("SIGTERM");
    await sleep(0);

    expect(stopped && serverClosed).toBe(true);
    expect(target.kills).toEqual([]);
  });

  it("unsubscribes", () => {
    const { target, emitter } = fakeProcess();
    const unsubscribe = stopOnShutdownSignal(async () => {}, { target });
    expect(emitter.listenerCount("SIGTERM")).toBe(1);
    unsubscribe();
    expect(emitter.listenerCount("SIGTERM") + emitter.listenerCount("SIGINT")).toBe(0);
  });
});

describe("in-process worker", () => {
  afterEach(async () => {
    await stopInProcessWorker();
  });

  // The worker never touches the database here: it is stopped before its first poll matters.
  const idleDb = {
    job: { findMany: async () => [] },
  } as unknown as QueueDb;

  it("is disabled by WORKER_IN_PROCESS=false", () => {
    expect(isInProcessWorkerEnabled(parseWorkerEnv({ WORKER_IN_PROCESS: "false" }))).toBe(false);
    expect(isInProcessWorkerEnabled(parseWorkerEnv({ WORKER_IN_PROCESS: "0" }))).toBe(false);
    // On by default where a developer runs the app; off in production, which an unset NODE_ENV is.
    expect(isInProcessWorkerEnabled(parseWorkerEnv({ NODE_ENV: "development" }))).toBe(true);
    expect(isInProcessWorkerEnabled(parseWorkerEnv({}))).toBe(false);
    expect(startInProcessWorker(idleDb, {}, { env: parseWorkerEnv({ WORKER_IN_PROCESS: "false" }) })).toBeNull();
    expect(globalThis.__codLeadSyncWorker).toBeUndefined();
  });

  it("starts once per process, even when called again (module reload), and refreshes its handlers", async () => {
    const logger = captureLogger();
    const first = startInProcessWorker(
      idleDb,
      { a: async () => {} },
      { env: parseWorkerEnv({ NODE_ENV: "development" }), logger, pollIntervalMs: 5 },
    );
    const second = startInProcessWorker(
      idleDb,
      { b: async () => {} },
      { env: parseWorkerEnv({ NODE_ENV: "development" }), logger, pollIntervalMs: 5 },
    );

    expect(second).toBe(first);
    expect(Object.keys(globalThis.__codLeadSyncWorker!.registry)).toEqual(["b"]);
    expect(logger.lines.filter((l) => l.includes("started"))).toHaveLength(1);

    await stopInProcessWorker();
    expect(globalThis.__codLeadSyncWorker).toBeUndefined();
  });
});
