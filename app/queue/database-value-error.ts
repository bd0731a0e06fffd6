/**
 * Errors that say the database refused a value (text it cannot store, a number
 * out of range, a value over its column's size), not that it was unavailable:
 * the same job fails the same way on every attempt, so the worker makes it dead
 * at once with a reason a person can read. The reason never quotes the error's
 * message, which carries the query's parameters (a customer's address, say).
 */
import { Prisma } from "@prisma/client";

/** PostgreSQL SQLSTATE classes and Prisma codes that mean "this value", with what to call them. */
const POSTGRES_CODES: Record<string, string> = {
  "22021": "text that is not valid UTF-8 (a NUL character)",
  "22P05": "text the database encoding cannot hold",
  "22001": "a text longer than its column allows",
  "22003": "a number out of range",
};
const PRISMA_CODES: Record<string, string> = {
  P2000: "a value longer than its column allows",
  P2006: "a value of the wrong type",
  P2007: "a value the database does not accept",
  P2019: "a value the database does not accept",
  P2020: "a number out of range",
  P2023: "a value the database does not accept",
};

function causeOf(error: unknown): { code?: unknown; originalCode?: unknown; kind?: unknown } | undefined {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: unknown } } } | null)?.meta;
  const cause = meta?.driverAdapterError?.cause ?? (error as { cause?: unknown } | null)?.cause;
  return typeof cause === "object" && cause !== null ? cause : undefined;
}

/** Class 22: data exception. */
const DATA_EXCEPTION = /^22[0-9A-Z]{3}$/;

function postgresValueCode(error: unknown): string | undefined {
  const cause = causeOf(error);
  const code = String(cause?.originalCode ?? cause?.code ?? "");
  if (cause?.kind === "postgres" && DATA_EXCEPTION.test(code)) return code;
  // The prepared statements (app/db/sql) get node-postgres's own error: the SQLSTATE in code, a severity beside it.
  const own = error as { code?: unknown; severity?: unknown };
  return typeof own.code === "string" && typeof own.severity === "string" && DATA_EXCEPTION.test(own.code)
    ? own.code
    : undefined;
}

/** What the database refused, in a few words, or null when the error is not about a value. */
export function databaseValueProblem(error: unknown): string | null {
  let what: string | undefined;
  if (error instanceof Prisma.PrismaClientValidationError) {
    // Prisma checks every argument before the query runs: a lone surrogate in a parameter lands here.
    what = /hex escape|surrogate|unicode/i.test(error.message)
      ? "text that is not valid Unicode (a lone surrogate)"
      : "a value of the wrong shape";
  } else if (
    error instanceof Prisma.PrismaClientUnknownRequestError &&
    /JSON Error|hex escape|surrogate/i.test(error.message)
  ) {
    what = "text that is not valid Unicode (a lone surrogate)";
  } else if (error instanceof Prisma.PrismaClientKnownRequestError && PRISMA_CODES[error.code]) {
    what = PRISMA_CODES[error.code];
  } else if (error instanceof Error) {
    const code = postgresValueCode(error);
    if (code) what = POSTGRES_CODES[code] ?? `a value the database does not accept (SQLSTATE ${code})`;
  }
  return what ? `the database refused ${what}; retrying cannot help` : null;
}
