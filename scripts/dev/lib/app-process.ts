/**
 * The app's processes as production runs them — the production server
 * (build/server.js over the Remix build) and the job worker (build/worker.js),
 * built JavaScript with no TypeScript loader — for every
 * harness that needs them: the browser and security tests, the chaos tests, the
 * benchmarks and the demo. Each gets only the environment it is given (no
 * developer .env or shell variable leaks in), keeps its output (stdout and
 * stderr apart, and in a file when asked), and is ready when the server answers
 * /healthz or the worker says it started.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
import { appServerArgs, appWorkerArgs } from "./app-build";

export class AppStartError extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(`${message}\n--- last lines of its output ---\n${output.split("\n").slice(-30).join("\n")}`);
    this.name = "AppStartError";
  }
}

export interface AppProcessOptions {
  /** The repository. */
  root: string;
  /** The process's working directory: a build copy (prepareBuild's dir, holding build/), whose entry point runs. */
  cwd: string;
  env: Record<string, string>;
  /** Also written here as it comes. */
  logFile?: string;
  /** How long to wait for it to be ready (default START_WITHIN_MS). */
  startTimeoutMs?: number;
}

export interface AppProcess {
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Both, in arrival order. */
  output(): string;
  /** SIGKILL: the process dies mid-request, as on a crashed host. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after 8 s. */
  stop(): Promise<void>;
}

function spawnApp(args: string[], options: AppProcessOptions): AppProcess & { child: ChildProcess } {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
      NODE_ENV: "production",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log: WriteStream | undefined = options.logFile ? createWriteStream(options.logFile, { flags: "w" }) : undefined;
  let stdout = "";
  let stderr = "";
  let output = "";
  child.stdout!.on("data", (d) => {
    stdout += d;
    output += d;
    log?.write(d);
  });
  child.stderr!.on("data", (d) => {
    stderr += d;
    output += d;
    log?.write(d);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  let stopping: Promise<void> | undefined;
  return {
    child,
    pid: child.pid!,
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => output,
    async kill() {
      if (running()) child.kill("SIGKILL");
      await exited;
    },
    stop: () =>
      (stopping ??= (async () => {
        if (running()) {
          child.kill("SIGTERM");
          const killer = setTimeout(() => child.kill("SIGKILL"), 8000);
          await exited;
          clearTimeout(killer);
        }
        if (log) await new Promise<void>((resolve) => log.end(resolve));
      })()),
  };
}

/**
 * A bound for a process that will never be ready, not a speed: a start takes a
 * few seconds, and on a loaded machine (a suite beside another, servers started
 * mid-test by the chaos tests) well over the 30 s this once was.
 */
export const START_WITHIN_MS = 180_000;

async function waitUntil(
  ready: () => Promise<boolean>,
  proc: AppProcess & { child: ChildProcess },
  what: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await ready()) return;
    if (proc.child.exitCode !== null) {
      await proc.stop();
      throw new AppStartError(`${what} exited with code ${proc.child.exitCode} while starting`, proc.output());
    }
    if (Date.now() > deadline) {
      await proc.stop();
      throw new AppStartError(`${what} did not start within ${timeoutMs} ms`, proc.output());
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface ServerProcess extends AppProcess {
  url: string;
  port: number;
}

/** `npm start` on the build in `options.cwd` (which holds build/), bound to 127.0.0.1:port; ready when /healthz answers. */
export async function startServerProcess(options: AppProcessOptions & { port: number }): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const proc = spawnApp(appServerArgs(options.cwd), {
    ...options,
    env: { HOST: "127.0.0.1", PORT: String(options.port), ...options.env },
  });
  await waitUntil(
    () =>
      fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      ),
    proc,
    "the app server",
    options.startTimeoutMs ?? START_WITHIN_MS,
  );
  const { child: _child, ...rest } = proc;
  return { ...rest, url, port: options.port };
}

/** `npm run worker` on the build copy in `options.cwd`, as production runs it beside the server; ready once it says it started. */
export async function startWorkerProcess(options: AppProcessOptions): Promise<AppProcess> {
  const proc = spawnApp(appWorkerArgs(options.cwd), options);
  await waitUntil(
    async () => /worker \S+ started/.test(proc.output()),
    proc,
    "the worker",
    options.startTimeoutMs ?? START_WITHIN_MS,
  );
  const { child: _child, ...rest } = proc;
  return rest;
}
