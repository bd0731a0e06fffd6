/**
 * This process's memory: how far V8 lets its heap grow between full
 * collections, and the figures of the minute log line that tell a growing heap
 * (a leak) from one at its working size or from native memory.
 */
import { setFlagsFromString } from "node:v8";
import { processEnv } from "../env.server";

/**
 * V8 lets the old generation grow to up to 4 times what survived the last full
 * collection before it collects again (on a machine with memory to spare). In
 * the soak the app's live heap was ~70 MB while its heap reached 270 MB and its
 * RSS 460 MB, garbage that only a full collection returns. 50 % keeps the heap
 * near its live size for the price of more frequent (mostly concurrent) marking
 * (HEAP_GROWTH_PERCENT, default 50; 0 leaves V8's own factor).
 *
 * Sets V8's heap growing factor for this process (read at every full
 * collection, so setting it once the process runs is enough). Called first
 * thing by the server and the worker; 0 sets nothing.
 */
export function limitHeapGrowth(percent = processEnv().HEAP_GROWTH_PERCENT): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}

interface MemoryReport {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  /** C++ objects bound to JS and ArrayBuffers. */
  externalMb: number;
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 102.4) / 10;

export function memoryReport(): MemoryReport {
  const m = process.memoryUsage();
  return { rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), heapTotalMb: mb(m.heapTotal), externalMb: mb(m.external) };
}
