/**
 * A child process's workload for test/runtime/heap-growth.test.ts: a live set
 * (~50 MB measured) that is constantly replaced, so what it promotes to the old
 * generation dies there and only full collections return it. Prints the old
 * generation's largest size seen and what is live at the end, in MB.
 * Usage: node --expose-gc --import tsx heap-workload.ts <percent | "default">
 */
import { getHeapSpaceStatistics } from "node:v8";
import { limitHeapGrowth } from "../../app/runtime/process-memory.server";

const SLOTS = 1024;
const ITEMS_PER_SLOT = 320;
const ROUNDS = 12;

const arg = process.argv[2];
if (arg !== "default") limitHeapGrowth(Number(arg));

const oldSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === "old_space")!;
const slots: unknown[][] = new Array(SLOTS);
// Each slot holds ~50 KB of small objects; a fixed sequence, no Math.random.
const fill = (i: number) => Array.from({ length: ITEMS_PER_SLOT }, (_, j) => ({ i, j, s: `slot ${i} item ${j}` }));
let maxOldMb = 0;
for (let n = 0; n < slots.length * ROUNDS; n++) {
  // 7919 is prime to the number of slots: every slot in turn, in a scattered order.
  slots[(n * 7919) % slots.length] = fill(n);
  if (n % 64 === 0) maxOldMb = Math.max(maxOldMb, oldSpace().space_size / 2 ** 20);
}
(globalThis as { gc?: () => void }).gc!();
const liveMb = oldSpace().space_used_size / 2 ** 20;
console.log(JSON.stringify({ maxOldMb: Math.round(maxOldMb), liveMb: Math.round(liveMb), slots: slots.length }));
