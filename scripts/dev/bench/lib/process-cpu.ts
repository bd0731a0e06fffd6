/**
 * A benchmark process's CPU: the time it has used, and a Linux CPU quota that
 * lets it use `cores` of one core's time (cgroup v1 `cpu.cfs_quota_us`, or v2
 * `cpu.max`). On a machine with fewer cores than the processes a benchmark
 * starts, the app servers, the database and the load generator all take turns
 * on the same cores, so adding a server adds no computing power; confining
 * each server to its own share makes the servers, not the machine, the bound,
 * as they are when each has a core of its own. Needs write access to the
 * cgroup hierarchy (root, as on these machines).
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export class CpuQuotaUnavailableError extends Error {
  constructor(reason: string) {
    super(`cannot confine a process to a CPU quota here: ${reason}`);
    this.name = "CpuQuotaUnavailableError";
  }
}

// The kernel's default period. A 10 ms one was tried: p99s got worse (200 ms at 20 % of a core used),
// a burst (a collection, a group commit) being cut off ten times as often.
const PERIOD_US = 100_000;
/** /proc counts CPU time in USER_HZ ticks, 100 a second on Linux whatever the kernel's own HZ. */
const TICKS_PER_SECOND = 100;

/** User and system CPU time the process has used, in ms, or NaN when it is gone. */
export function cpuTimeMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces, hence from the last ')'): utime is 14th, stime 15th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

interface CpuHierarchy {
  root: string;
  version: 1 | 2;
}

function cpuHierarchy(): CpuHierarchy {
  const mounts = readFileSync("/proc/mounts", "utf8")
    .split("\n")
    .map((line) => line.split(" "));
  for (const [, dir, type, options] of mounts) {
    if (type === "cgroup" && options?.split(",").includes("cpu")) return { root: dir, version: 1 };
  }
  for (const [, dir, type] of mounts) {
    if (type !== "cgroup2") continue;
    const controllers = readFileSync(join(dir, "cgroup.controllers"), "utf8").split(/\s+/);
    if (!controllers.includes("cpu")) continue;
    // Children get the cpu controller only when the parent hands it down.
    writeFileSync(join(dir, "cgroup.subtree_control"), "+cpu");
    return { root: dir, version: 2 };
  }
  throw new CpuQuotaUnavailableError("no cgroup hierarchy with the cpu controller is mounted");
}

export interface CpuQuota {
  /** Moves a running process (all its threads) into the group. */
  add(pid: number): void;
  /** Moves whatever still runs in the group back to the root and removes it. */
  remove(): void;
}

export function createCpuQuota(name: string, cores: number): CpuQuota {
  if (!(cores > 0)) throw new RangeError(`a CPU quota needs a positive share of a core, not ${cores}`);
  const quotaUs = Math.round(cores * PERIOD_US);
  let hierarchy: CpuHierarchy;
  let dir: string;
  try {
    hierarchy = cpuHierarchy();
    dir = join(hierarchy.root, `cod-bench-${name}-${process.pid}`);
    mkdirSync(dir);
    if (hierarchy.version === 1) {
      writeFileSync(join(dir, "cpu.cfs_period_us"), String(PERIOD_US));
      writeFileSync(join(dir, "cpu.cfs_quota_us"), String(quotaUs));
    } else {
      writeFileSync(join(dir, "cpu.max"), `${quotaUs} ${PERIOD_US}`);
    }
  } catch (error) {
    if (error instanceof CpuQuotaUnavailableError) throw error;
    throw new CpuQuotaUnavailableError((error as Error).message);
  }
  return {
    add(pid) {
      writeFileSync(join(dir, "cgroup.procs"), String(pid));
    },
    remove() {
      if (!existsSync(dir)) return;
      for (const pid of readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean)) {
        try {
          writeFileSync(join(hierarchy.root, "cgroup.procs"), pid);
        } catch {
          // It exited between the read and the move.
        }
      }
      rmdirSync(dir);
    },
  };
}
