/**
 * `npx tsx scripts/dev/bench/lib/cpu-profile-top.ts FILE.cpuprofile [--top 25]`
 *
 * The top frames of a V8 CPU profile (`node --cpu-prof`, e.g. `npm run bench --
 * drain --cpu-prof DIR`) by self time, and the self time by where the code
 * lives (a package under node_modules, the app's folders, Node itself), so a
 * profile reads in a terminal and a before/after pair compares in a report.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "25" } },
});
if (positionals.length !== 1) {
  console.error("usage: npx tsx scripts/dev/bench/lib/cpu-profile-top.ts FILE.cpuprofile [--top 25]");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(positionals[0], "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const totalUs = profile.endTime - profile.startTime;

function place(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native/V8)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith("node:")) return "node:*";
  const app = /\/(app\/[^/]+|scripts\/[^/]+|[^/]+\.ts)/.exec(url);
  return app ? app[1] : url;
}

const frames = new Map<string, number>();
const places = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id)!;
  const { functionName, url, lineNumber } = node.callFrame;
  const short = url
    .replace(/^.*node_modules\//, "")
    .replace(/^file:\/\/.*?\/(app|scripts|server\.ts|worker\.ts)/, "$1");
  const frame = `${functionName || "(anonymous)"} ${short ? `${short}:${lineNumber + 1}` : ""}`.trim();
  frames.set(frame, (frames.get(frame) ?? 0) + us);
  const where = place(url, functionName);
  places.set(where, (places.get(where) ?? 0) + us);
}

const pct = (us: number) => `${((100 * us) / totalUs).toFixed(1).padStart(5)} %`;
const msOf = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms`;
const top = Number(values.top);
console.log(`${positionals[0]}: ${(totalUs / 1000).toFixed(0)} ms profiled`);
console.log(`\nself time by place:`);
for (const [where, us] of [...places].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(`${msOf(us)} ${pct(us)}  ${where}`);
console.log(`\ntop ${top} frames by self time:`);
for (const [frame, us] of [...frames].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${msOf(us)} ${pct(us)}  ${frame}`);
