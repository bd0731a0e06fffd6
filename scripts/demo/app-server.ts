/**
 * The app's production server as a child process (`server.ts`, the worker
 * inside it), bound to 127.0.0.1 with the demo's own environment only: no
 * developer .env or shell variable leaks in. Its output goes to a log file.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import { join } from "node:path";
import { appServerArgs } from "../lib/app-build";

export interface AppServerOptions {
  root: string;
  /** Directory holding the build copy (the server's working directory). */
  buildDir: string;
  port: number;
  logFile: string;
  env: Record<string, string>;
  startTimeoutMs?: number;
}

export interface AppServer {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

export class AppStartError extends Error {
  constructor(message: string, readonly log: string) {
    super(`${message}\n--- last lines of the app's log ---\n${log.split("\n").slice(-30).join("\n")}`);
    this.name = "AppStartError";
  }
}

export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const url = `http://127.0.0.1:${options.port}`;
  const log = createWriteStream(options.logFile, { flags: "w" });
  const child: ChildProcess = spawn(process.execPath, appServerArgs(options.root, join("build", "server", "index.js")), {
    cwd: options.buildDir,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(options.port),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const readLog = () => {
    try {
      return readFileSync(options.logFile, "utf8");
    } catch {
      return "";
    }
  };

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const killer = setTimeout(() => child.kill("SIGKILL"), 8000);
        await exited;
        clearTimeout(killer);
      }
      await new Promise<void>((resolve) => log.end(resolve));
    })());

  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  for (;;) {
    const ok = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (child.exitCode !== null) {
      await stop();
      throw new AppStartError(`the app server exited with code ${child.exitCode} while starting`, readLog());
    }
    if (Date.now() > deadline) {
      await stop();
      throw new AppStartError(`the app server did not answer ${url}/healthz in time`, readLog());
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return { url, pid: child.pid, stop };
}
