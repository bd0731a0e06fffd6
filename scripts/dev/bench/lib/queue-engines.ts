/**
 * Which queue engine a benchmark's worker processes run: ours (`worker.ts`, the
 * app's) or the graphile-worker candidate (scripts/dev/queue-candidates/graphile-worker,
 * graphile claiming, our worker running and settling), so both run the same load
 * in one invocation.
 *
 * `--engine ours|graphile[:QUEUES]` runs one; `--engines ours,graphile,...` runs
 * each in turn, on a fresh database each. QUEUES is how graphile's named queues
 * are cut (install.ts GRAPHILE_QUEUE_MODES; default shop-kind-2). GRAPHILE_POLL_MS
 * in the environment sets graphile's poll (its default 2 s).
 */
import { join } from "node:path";
import {
  installGraphileCandidate,
  parseQueueMode,
  type GraphileQueueMode,
} from "../../queue-candidates/graphile-worker/install";

export type QueueEngine = { kind: "ours" } | { kind: "graphile"; queues: GraphileQueueMode };

export const ENGINE_OPTIONS = {
  engine: { type: "string" },
  engines: { type: "string" },
} as const;

function parseEngine(spec: string): QueueEngine {
  const [kind, queues] = spec.trim().split(":");
  if (kind === "ours" && queues === undefined) return { kind: "ours" };
  if (kind === "graphile") return { kind: "graphile", queues: parseQueueMode(queues) };
  throw new Error(`--engine: ours or graphile[:QUEUES], not "${spec}"`);
}

/** The engines asked for, in order: --engines, else --engine, else ours. */
export function enginesOf(values: { engine?: string; engines?: string }): QueueEngine[] {
  if (values.engine !== undefined && values.engines !== undefined) throw new Error("--engine or --engines, not both");
  const specs = values.engines?.split(",") ?? [values.engine ?? "ours"];
  return specs.map(parseEngine);
}

export const engineLabel = (engine: QueueEngine): string =>
  engine.kind === "ours" ? "ours" : `graphile:${engine.queues}`;

/** Readies a fresh database for the engine, before any job is written (graphile's schema and the Job trigger). */
export async function prepareEngine(engine: QueueEngine, url: string): Promise<void> {
  if (engine.kind === "graphile") await installGraphileCandidate(url, engine.queues);
}

/** The worker process's entry file: ours in `checkoutRoot` (this checkout or a --compare one), or the candidate's. */
export function workerEntry(engine: QueueEngine, checkoutRoot: string, root: string): string {
  return engine.kind === "ours"
    ? join(checkoutRoot, "worker.ts")
    : join(root, "scripts", "dev", "queue-candidates", "graphile-worker", "worker.ts");
}
