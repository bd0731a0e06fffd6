/**
 * The app's Shopify session storage: Shopify's PrismaSessionStorage with the
 * access and refresh tokens sealed on their way in and opened on their way out
 * (app/models/session-tokens.server.ts). Everything that reads a token goes
 * through here: authenticate.*, unauthenticated.admin, the jobs' Admin clients.
 *
 * A token that no longer opens (sealed under a key since removed) reads as no
 * session: the next admin visit gets a new one through the token exchange. A
 * token still in clear (a row an older process wrote) is used, and sealed in place.
 */
import type { PrismaClient } from "@prisma/client";
import { Session } from "@shopify/shopify-api";
import type { SessionStorage } from "@shopify/shopify-app-session-storage";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { isSealedSecret, type SecretBox } from "../crypto/secret-box.server";
import {
  ACCESS_TOKEN,
  openToken,
  REFRESH_TOKEN,
  sealClearSessionTokens,
  sealSessionTokens,
  sealToken,
} from "./session-tokens.server";

export interface SealedSessionStorageOptions {
  log?: (line: string) => void;
}

export class SealedSessionStorage implements SessionStorage {
  readonly #inner: PrismaSessionStorage<PrismaClient>;
  readonly #db: PrismaClient;
  readonly #box: SecretBox;
  readonly #log: (line: string) => void;
  /** The start-up pass: every call waits for it, so none reads a row it is rewriting. */
  readonly #started: Promise<void>;

  constructor(db: PrismaClient, box: SecretBox, options: SealedSessionStorageOptions = {}) {
    this.#db = db;
    this.#box = box;
    this.#inner = new PrismaSessionStorage(db);
    this.#log = options.log ?? ((line) => console.warn(line));
    // The tokens an earlier version stored in clear are sealed as the process starts.
    this.#started = this.#inner
      .isReady()
      .then((ready) => (ready ? sealClearSessionTokens(db, box) : undefined))
      .then(
        () => undefined,
        (error: unknown) =>
          this.#log(
            `[sessions] the tokens stored in clear could not be sealed at start (${error instanceof Error ? error.name : "error"})`,
          ),
      );
  }

  async storeSession(session: Session): Promise<boolean> {
    await this.#started;
    const sealed = new Session(session.toObject());
    sealed.accessToken = sealToken(this.#box, session.accessToken, session.shop, ACCESS_TOKEN) ?? undefined;
    sealed.refreshToken = sealToken(this.#box, session.refreshToken, session.shop, REFRESH_TOKEN) ?? undefined;
    return this.#inner.storeSession(sealed);
  }

  async loadSession(id: string): Promise<Session | undefined> {
    await this.#started;
    const stored = await this.#inner.loadSession(id);
    return stored && (await this.#opened(stored));
  }

  async findSessionsByShop(shop: string): Promise<Session[]> {
    await this.#started;
    const stored = await this.#inner.findSessionsByShop(shop);
    const opened = await Promise.all(stored.map((session) => this.#opened(session)));
    return opened.filter((session): session is Session => session !== undefined);
  }

  async deleteSession(id: string): Promise<boolean> {
    await this.#started;
    return this.#inner.deleteSession(id);
  }

  async deleteSessions(ids: string[]): Promise<boolean> {
    await this.#started;
    return this.#inner.deleteSessions(ids);
  }

  isReady(): Promise<boolean> {
    return this.#inner.isReady();
  }

  /** The session with its tokens opened; undefined when they open under no key. */
  async #opened(session: Session): Promise<Session | undefined> {
    const inClear = [session.accessToken, session.refreshToken].some((token) => token && !isSealedSecret(token));
    try {
      session.accessToken = openToken(this.#box, session.accessToken, session.shop, ACCESS_TOKEN);
      session.refreshToken = openToken(this.#box, session.refreshToken, session.shop, REFRESH_TOKEN);
    } catch {
      this.#log(
        `[sessions] ${session.shop}: the stored Shopify token opens under no ENCRYPTION_KEY; read as no session`,
      );
      return undefined;
    }
    // Written by a process that did not seal: sealed now (only if the row still holds it).
    if (inClear) await sealSessionTokens(this.#db, this.#box).catch(() => undefined);
    return session;
  }
}
