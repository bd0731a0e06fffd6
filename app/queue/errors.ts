/**
 * Errors a job handler throws to steer the worker. Anything else it throws is a
 * transient failure: the attempt counts and the job is retried after a backoff.
 */
import { wellFormedText } from "../http/well-formed-text";

export interface RetryLaterOptions {
  /** False for waits that are not the job's fault (rate limit, paused shop). */
  countAttempt: boolean;
  /** Short, safe text stored as the job's lastError and logged. */
  reason: string;
}

/** Run the job again later, at a time the handler knows (Retry-After, pause end). */
export class RetryLaterError extends Error {
  readonly delayMs: number | undefined;
  readonly runAt: Date | undefined;
  readonly countAttempt: boolean;
  readonly reason: string;

  constructor(when: number | Date, options: RetryLaterOptions) {
    super(options.reason);
    this.name = new.target.name;
    if (when instanceof Date) this.runAt = when;
    else this.delayMs = Math.max(0, when);
    this.countAttempt = options.countAttempt;
    this.reason = options.reason;
  }

  /** When to run again, measured from `now` for a delay. */
  runAtFrom(now: Date): Date {
    return this.runAt ?? new Date(now.getTime() + (this.delayMs ?? 0));
  }
}

/** Retrying cannot help (invalid payload, refused for good): the job goes dead now. */
export class PermanentJobError extends Error {
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = new.target.name;
    this.reason = reason;
  }
}

/** drain() gave up before the queue was empty. */
export class DrainTimeoutError extends Error {
  constructor(
    readonly timeoutMs: number,
    readonly processed: number,
  ) {
    super(`queue not drained after ${timeoutMs} ms (${processed} jobs processed)`);
    this.name = new.target.name;
  }
}

export const MAX_ERROR_MESSAGE_LENGTH = 1000;

/**
 * The text stored as lastError and logged: the message only (no stack, no body),
 * on one line, truncated. Callers make sure messages carry no secret.
 */
export function errorMessage(error: unknown): string {
  const raw = error instanceof Error ? error.message || error.name : String(error);
  const oneLine = raw.replace(/\s+/g, " ").trim() || "unknown error";
  const cut =
    oneLine.length <= MAX_ERROR_MESSAGE_LENGTH ? oneLine : oneLine.slice(0, MAX_ERROR_MESSAGE_LENGTH - 1) + "…";
  // Stored as lastError: a lone surrogate or NUL from a payload (or a pair cut in two) must not fail that write too.
  return wellFormedText(cut);
}

/** This worker's lease on the job was taken over (it expired) or the job was settled. */
export class LeaseLostError extends Error {
  constructor(readonly jobKey: string) {
    super(`lease on job ${jobKey} was lost`);
    this.name = new.target.name;
  }
}
