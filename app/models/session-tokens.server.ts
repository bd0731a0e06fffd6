/**
 * Shopify's Admin API tokens at rest: a stored session's accessToken
 * ("shpat_...") and refreshToken ("shprt_...") are sealed with the app's secret
 * box, bound to the session's shop and to the column, like the seller keys. A
 * database read (a backup, a support copy, the database user) then yields no
 * token that works against Shopify.
 *
 * Rows written in clear (before this, or by an older process during a rolling
 * deploy) are recognised by their shape (isSealedSecret) and sealed in place:
 * at each process's start (sealClearSessionTokens) and by `npm run rotate-key`,
 * which also re-seals tokens sealed under ENCRYPTION_KEY_PREVIOUS.
 */
import type { Prisma, PrismaClient } from "@prisma/client";
import { isSealedSecret, type SecretBox, type SecretPurpose } from "../crypto/secret-box.server";

export const ACCESS_TOKEN: SecretPurpose = "shopify-access-token";
export const REFRESH_TOKEN: SecretPurpose = "shopify-refresh-token";

type Reader = PrismaClient | Prisma.TransactionClient;

interface TokenRow {
  id: string;
  shop: string;
  accessToken: string;
  refreshToken: string | null;
}

/** A stored token as the column holds it: sealed, or kept as is when there is none. */
export function sealToken(
  box: SecretBox,
  token: string | null | undefined,
  shop: string,
  purpose: SecretPurpose,
): string | null {
  if (!token) return token ?? null;
  return box.seal(token, { shop, purpose });
}

/** A token as Shopify's library uses it: opened when sealed, as stored when still in clear. */
export function openToken(
  box: SecretBox,
  stored: string | null | undefined,
  shop: string,
  purpose: SecretPurpose,
): string | undefined {
  if (!stored) return undefined;
  return isSealedSecret(stored) ? box.open(stored, { shop, purpose }) : stored;
}

export interface SessionSealReport {
  /** Tokens read. */
  checked: number;
  /** Tokens that were in clear and are sealed now. */
  sealed: number;
  /** Tokens sealed under the previous key or format, sealed again (only with `reseal`). */
  resealed: number;
  /** Tokens already sealed under the current key. */
  current: number;
  /** Tokens that open under no key: left as they are. */
  unreadable: { shop: string; purpose: SecretPurpose }[];
}

const notSealedPrefix = (column: "accessToken" | "refreshToken") =>
  ({
    AND: [
      { NOT: { [column]: { startsWith: "v1." } } },
      { NOT: { [column]: { startsWith: "v2." } } },
      { NOT: { [column]: "" } },
    ],
  }) as Prisma.SessionWhereInput;

/**
 * Seals the tokens stored in clear; with `reseal`, also re-seals those the box
 * opens only with a previous key or format (rotate-key). Each row is written only
 * if it still holds what was read, so a session stored meanwhile is never
 * overwritten. Counts only: no token is logged or returned.
 */
export async function sealSessionTokens(
  db: Reader,
  box: SecretBox,
  options: { reseal?: boolean } = {},
): Promise<SessionSealReport> {
  const rows: TokenRow[] = await db.session.findMany({
    where: options.reseal
      ? {}
      : {
          OR: [
            notSealedPrefix("accessToken"),
            { AND: [{ refreshToken: { not: null } }, notSealedPrefix("refreshToken")] },
          ],
        },
    select: { id: true, shop: true, accessToken: true, refreshToken: true },
  });
  const report: SessionSealReport = { checked: 0, sealed: 0, resealed: 0, current: 0, unreadable: [] };
  for (const row of rows) {
    const next: { accessToken?: string; refreshToken?: string } = {};
    for (const [column, purpose] of [
      ["accessToken", ACCESS_TOKEN],
      ["refreshToken", REFRESH_TOKEN],
    ] as const) {
      const stored = row[column];
      if (!stored) continue;
      report.checked++;
      const context = { shop: row.shop, purpose };
      if (!isSealedSecret(stored)) {
        next[column] = box.seal(stored, context);
        report.sealed++;
        continue;
      }
      try {
        const opened = box.openWithStatus(stored, context);
        if (opened.stale && options.reseal) {
          next[column] = box.seal(opened.plaintext, context);
          report.resealed++;
        } else report.current++;
      } catch {
        report.unreadable.push(context);
      }
    }
    if (Object.keys(next).length === 0) continue;
    await db.session.updateMany({
      where: { id: row.id, accessToken: row.accessToken, refreshToken: row.refreshToken },
      data: next,
    });
  }
  return report;
}

/**
 * After tokens in clear were replaced: the Session table is rewritten (its dead
 * row versions held the clear tokens). Best effort: a table busy elsewhere keeps
 * its old bytes until the next run.
 */
export async function scrubReplacedTokens(db: PrismaClient, log: (line: string) => void = console.warn): Promise<void> {
  try {
    await db.$executeRawUnsafe('VACUUM FULL "Session"');
  } catch (error) {
    log(
      `[sessions] tokens sealed, but the database could not be compacted now (${error instanceof Error ? error.name : "error"}): old bytes stay in its free space until the next run`,
    );
  }
}

/**
 * At a process's start: seals the tokens still in clear, then scrubs the space
 * they leave. Several processes may run it at once: each row is written once.
 */
export async function sealClearSessionTokens(
  db: PrismaClient,
  box: SecretBox,
  log: (line: string) => void = console.info,
): Promise<SessionSealReport> {
  const report = await sealSessionTokens(db, box);
  if (report.sealed > 0) {
    await scrubReplacedTokens(db);
    log(`[sessions] ${report.sealed} Shopify token(s) stored in clear are sealed now`);
  }
  return report;
}
