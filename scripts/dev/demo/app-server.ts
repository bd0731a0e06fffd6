/**
 * The app's processes as production runs them, bound to 127.0.0.1 with the demo's
 * own environment only (no developer .env or shell variable leaks in), each logging
 * to its own file: the production server (`server.ts`) and the job worker
 * (`npm run worker`, worker.ts). Both load the Shopify Admin stand-in's
 * preload (appServerArgs), active because the demo sets SHOPIFY_ADMIN_STAND_IN_URL.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import { join } from "node:path";
import { appServerArgs, tsxPreloadArgs } from "../lib/app-build";

export interface AppProcessOptions {
  root: string;
  /** Directory holding the build copy (the processes' working directory). */
  buildDir: string;
  logFile: string;
  env: Record<string, string>;
}

export interface AppServerOptions extends AppProcessOptions {
  port: number;
  startTimeoutMs?: number;
}

export interface AppProcess {
  pid: number | undefined;
  /** The process's log so far. */
  log(): string;
  stop(): Promise<void>;
}

export interface AppServer extends AppProcess {
  url: string;
}

export class AppStartError extends Error {
  constructor(message: string, readonly log: string) {
    super(`${message}\n--- last lines of the log ---\n${log.split("\n").slice(-30).join("\n")}`);
    this.name = "AppStartError";
  }
}

function startProcess(args: string[], options: AppProcessOptions): AppProcess & { child: ChildProcess } {
  const log = createWriteStream(options.logFile, { flags: "w" });
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: options.buildDir,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
      NODE_ENV: "production",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let stopping: Promise<void> | undefined;
  return {
    child,
    pid: child.pid,
    log: () => {
      try {
        return readFileSync(options.logFile, "utf8");
      } catch {
        return "";
      }
    },
    stop: () =>
      (stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill("SIGTERM");
          const killer = setTimeout(() => child.kill("SIGKILL"), 8000);
          await exited;
          clearTimeout(killer);
        }
        await new Promise<void>((resolve) => log.end(resolve));
      })()),
  };
}

export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const url = `http://127.0.0.1:${options.port}`;
  const proc = startProcess(appServerArgs(options.root, join("build", "server", "index.js")), {
    ...options,
    env: { HOST: "127.0.0.1", PORT: String(options.port), ...options.env },
  });
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  for (;;) {
    const ok = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (proc.child.exitCode !== null) {
      await proc.stop();
      throw new AppStartError(`the app server exited with code ${proc.child.exitCode} while starting`, proc.log());
    }
    if (Date.now() > deadline) {
      await proc.stop();
      throw new AppStartError(`the app server did not answer ${url}/healthz in time`, proc.log());
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return { url, pid: proc.pid, log: proc.log, stop: proc.stop };
}

/** `npm run worker` on the app's sources, as production runs it beside the server. */
export async function startWorkerProcess(options: AppProcessOptions & { startTimeoutMs?: number }): Promise<AppProcess> {
  const proc = startProcess([...tsxPreloadArgs(options.root), join(options.root, "worker.ts")], options);
  // Started once it says so (worker.ts), or failed when it exits first.
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  while (!/worker \S+ started/.test(proc.log())) {
    if (proc.child.exitCode !== null) {
      await proc.stop();
      throw new AppStartError(`the worker exited with code ${proc.child.exitCode} while starting`, proc.log());
    }
    if (Date.now() > deadline) {
      await proc.stop();
      throw new AppStartError("the worker did not start in time", proc.log());
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return { pid: proc.pid, log: proc.log, stop: proc.stop };
}
