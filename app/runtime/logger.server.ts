/**
 * The process's log: JSON lines through pino (one object a line: time, level,
 * msg and the fields given), pretty-printed in development. Every field, the
 * message and a child logger's bindings pass through log-redaction first, so
 * no call can print a key, a token, a phone number or an address, however it
 * is named or nested. Levels come from LOG_LEVEL.
 *
 * One logger per process, on globalThis: server.ts and the Remix build it loads
 * are two copies of this module, and both must write through the same stream.
 */
import { createRequire } from "node:module";
import { format } from "node:util";
import pino, { type DestinationStream } from "pino";
import { processEnv } from "../env.server";
import { redactForLog, scrubText } from "./log-redaction";

export type LogLevel = "error" | "warn" | "info" | "debug";
export type LogFields = Record<string, unknown>;

export interface Logger {
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  /** A logger whose every line carries `bindings` (redacted like any field). */
  child(bindings: LogFields): Logger;
  isEnabled(level: LogLevel): boolean;
}

export interface LoggerOptions {
  level: LogLevel | "silent";
  /** Where the lines go (default: standard output, written synchronously so a crash loses none). */
  destination?: DestinationStream;
  /** Human-readable lines (pino-pretty) instead of JSON. */
  pretty?: boolean;
  /** Fields on every line (the process's role). */
  base?: LogFields;
}

export function createLogger(options: LoggerOptions): Logger {
  const base = { pid: process.pid, ...(redactForLog(options.base ?? {}) as LogFields) };
  const pinoOptions: pino.LoggerOptions = {
    level: options.level,
    base,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  const destination =
    options.destination ?? (options.pretty ? prettyStream() : pino.destination({ dest: 1, sync: true }));
  return wrap(pino(pinoOptions, destination));
}

/** pino-pretty in this process (no worker thread), loaded only when asked for. */
function prettyStream(): DestinationStream {
  const require = createRequire(import.meta.url);
  const pretty = require("pino-pretty") as (options: Record<string, unknown>) => DestinationStream;
  return pretty({
    sync: true,
    colorize: process.stdout.isTTY === true,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname",
  });
}

function wrap(instance: pino.Logger): Logger {
  const at = (level: LogLevel) => (message: string, fields?: LogFields) => {
    if (!instance.isLevelEnabled(level)) return;
    if (fields) instance[level](redactForLog(fields) as LogFields, scrubText(message));
    else instance[level](scrubText(message));
  };
  return {
    error: at("error"),
    warn: at("warn"),
    info: at("info"),
    debug: at("debug"),
    child: (bindings) => wrap(instance.child(redactForLog(bindings) as LogFields)),
    isEnabled: (level) => instance.isLevelEnabled(level),
  };
}

declare global {
  var __codLeadSyncLogger: { logger: Logger; role: string } | undefined;
}

/**
 * The process's logger, made on first use: LOG_LEVEL, JSON unless LOG_FORMAT
 * (or development) asks for pretty lines. `role` (web, worker) is set by the
 * entry point before anything logs.
 */
export function processLogger(): Logger {
  const existing = globalThis.__codLeadSyncLogger;
  if (existing) return existing.logger;
  return setProcessRole("app");
}

/** Names this process on every line it logs (server.ts: web, worker.ts: worker). */
export function setProcessRole(role: string): Logger {
  const config = processEnv();
  const pretty = (config.LOG_FORMAT ?? (config.NODE_ENV === "development" ? "pretty" : "json")) === "pretty";
  const logger = createLogger({ level: config.LOG_LEVEL, pretty, base: { role } });
  globalThis.__codLeadSyncLogger = { logger, role };
  return logger;
}

export const processRole = (): string => globalThis.__codLeadSyncLogger?.role ?? "app";

/** The process logger, looked up at each call (it may be replaced once the role is known). */
export const log: Logger = {
  error: (message, fields) => processLogger().error(message, fields),
  warn: (message, fields) => processLogger().warn(message, fields),
  info: (message, fields) => processLogger().info(message, fields),
  debug: (message, fields) => processLogger().debug(message, fields),
  child: (bindings) => processLogger().child(bindings),
  isEnabled: (level) => processLogger().isEnabled(level),
};

/** `{ err }` for a log line: the error redacted like any field (message, stack, cause). */
export const errorField = (error: unknown): LogFields => ({ err: error });

/**
 * console.* of libraries (Shopify's, Prisma's) and of the floors below runtime
 * become lines of the process log: JSON like the rest, and redacted. Errors
 * among the arguments go to `err`; objects are redacted before formatting.
 */
export function routeConsoleToLogger(target: Logger = log): void {
  const write =
    (level: LogLevel) =>
    (...args: unknown[]) => {
      if (!target.isEnabled(level)) return;
      const errors = args.filter((a): a is Error => a instanceof Error);
      const rest = args
        .filter((a) => !(a instanceof Error))
        .map((a) => (typeof a === "object" && a !== null ? redactForLog(a) : a));
      const message = rest.length > 0 ? format(...rest) : (errors[0]?.message ?? "");
      target[level](message, errors.length > 0 ? { err: errors.length === 1 ? errors[0] : errors } : undefined);
    };
  console.log = write("info");
  console.info = write("info");
  console.warn = write("warn");
  console.error = write("error");
  console.debug = write("debug");
  console.trace = write("debug");
}
