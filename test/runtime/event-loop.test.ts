import { describe, expect, it } from "vitest";
import {
  loopDelayReport,
  LOOP_SAMPLE_MS,
  startLoopDelayMonitor,
  WORKER_LOOP_SAMPLE_MS,
} from "../../app/runtime/event-loop.server";

const block = (ms: number) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: the loop cannot run
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the event-loop delay monitor", () => {
  it("GIVEN a module started it at the web server's interval WHEN the worker asks for its coarser one THEN a blocked loop still shows, at most one interval short", async () => {
    const first = startLoopDelayMonitor();
    expect(first.sampleMs).toBe(LOOP_SAMPLE_MS);
    const worker = startLoopDelayMonitor(WORKER_LOOP_SAMPLE_MS);
    // One monitor per process, resampled, not a second one beside it.
    expect(worker).toBe(first);
    expect(worker.sampleMs).toBe(WORKER_LOOP_SAMPLE_MS);
    // The report keeps the worker's interval (it does not restart the monitor at the default).
    loopDelayReport();
    expect(worker.sampleMs).toBe(WORKER_LOOP_SAMPLE_MS);

    await sleep(3 * WORKER_LOOP_SAMPLE_MS);
    block(400);
    await sleep(2 * WORKER_LOOP_SAMPLE_MS);
    expect(loopDelayReport().current.maxMs).toBeGreaterThanOrEqual(400 - WORKER_LOOP_SAMPLE_MS);
  });
});
