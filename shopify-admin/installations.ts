/**
 * Which shops have the app installed and the access tokens Shopify gave it. A shop that
 * was never installed accepts any non-empty token (tests that store a session row
 * directly); once installed only its live tokens pass, and after an uninstall none.
 */
import { randomBytes } from "node:crypto";

/** Expiring offline tokens live an hour, their refresh tokens 90 days (Shopify's values). */
export const OFFLINE_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_S = 90 * 24 * 3600;
export const ONLINE_TOKEN_TTL_S = 24 * 3600 - 1;

export interface TokenRecord {
  token: string;
  shop: string;
  kind: "offline" | "online";
  /** ms; null = does not expire */
  expiresAt: number | null;
  userId: string | null;
}

export interface RefreshRecord {
  token: string;
  shop: string;
  expiresAt: number;
  /** the access token minted with it: the refresh token it replaced dies once that is used */
  accessToken: string;
  replaces: string | null;
}

export interface Installation {
  shop: string;
  scopes: string[];
  installedAt: number;
  uninstalledAt: number | null;
}

export type TokenCheck = "ok" | "missing" | "invalid";

const mint = (prefix: string) => `${prefix}_${randomBytes(16).toString("hex")}`;

export class InstallationRegistry {
  private readonly installs = new Map<string, Installation>();
  private readonly tokens = new Map<string, TokenRecord>();
  private readonly refreshTokens = new Map<string, RefreshRecord>();

  get(shop: string): Installation | null {
    return this.installs.get(shop) ?? null;
  }

  list(): Installation[] {
    return [...this.installs.values()];
  }

  install(shop: string, scopes: string[], nowMs: number): Installation {
    const current = this.installs.get(shop);
    if (current && current.uninstalledAt === null) {
      current.scopes = scopes;
      return current;
    }
    const installation = { shop, scopes, installedAt: nowMs, uninstalledAt: null };
    this.installs.set(shop, installation);
    return installation;
  }

  /** Revokes every token of the shop; its Admin calls answer 401 until it is installed again. */
  uninstall(shop: string, nowMs: number): boolean {
    const installation = this.installs.get(shop);
    for (const [token, record] of this.tokens) if (record.shop === shop) this.tokens.delete(token);
    for (const [token, record] of this.refreshTokens) if (record.shop === shop) this.refreshTokens.delete(token);
    if (!installation || installation.uninstalledAt !== null) return false;
    installation.uninstalledAt = nowMs;
    return true;
  }

  issue(input: {
    shop: string;
    kind: "offline" | "online";
    expiring: boolean;
    nowMs: number;
    userId?: string | null;
    token?: string;
  }): {
    access: TokenRecord;
    refresh: RefreshRecord | null;
  } {
    const ttl = input.kind === "online" ? ONLINE_TOKEN_TTL_S : input.expiring ? OFFLINE_TOKEN_TTL_S : null;
    const access: TokenRecord = {
      token: input.token ?? mint(input.kind === "online" ? "shpua" : "shpat"),
      shop: input.shop,
      kind: input.kind,
      expiresAt: ttl === null ? null : input.nowMs + ttl * 1000,
      userId: input.userId ?? null,
    };
    this.tokens.set(access.token, access);
    let refresh: RefreshRecord | null = null;
    if (input.kind === "offline" && input.expiring) {
      refresh = {
        token: mint("shprt"),
        shop: input.shop,
        expiresAt: input.nowMs + REFRESH_TOKEN_TTL_S * 1000,
        accessToken: access.token,
        replaces: null,
      };
      this.refreshTokens.set(refresh.token, refresh);
    }
    return { access, refresh };
  }

  /** A new access and refresh token for a live refresh token; the old one lasts until the new access token is used. */
  refresh(refreshToken: string, nowMs: number): { access: TokenRecord; refresh: RefreshRecord } | null {
    const record = this.refreshTokens.get(refreshToken);
    if (!record || record.expiresAt <= nowMs || !this.isInstalled(record.shop)) return null;
    const issued = this.issue({ shop: record.shop, kind: "offline", expiring: true, nowMs });
    issued.refresh!.replaces = record.token;
    return { access: issued.access, refresh: issued.refresh! };
  }

  /** The offline token behind `token` (non-expiring offline token -> migration to expiring). */
  offlineToken(token: string): TokenRecord | null {
    const record = this.tokens.get(token);
    return record && record.kind === "offline" ? record : null;
  }

  revoke(token: string): void {
    this.tokens.delete(token);
  }

  isInstalled(shop: string): boolean {
    const installation = this.installs.get(shop);
    return Boolean(installation && installation.uninstalledAt === null);
  }

  check(shop: string | null, token: string | null, nowMs: number): TokenCheck {
    if (!token) return "missing";
    if (!shop || !this.installs.has(shop)) return "ok";
    if (!this.isInstalled(shop)) return "invalid";
    const record = this.tokens.get(token);
    if (!record || record.shop !== shop) return "invalid";
    if (record.expiresAt !== null && record.expiresAt <= nowMs) return "invalid";
    // First use of a refreshed token retires the refresh token it replaced.
    for (const refresh of this.refreshTokens.values()) {
      if (refresh.accessToken === token && refresh.replaces) {
        this.refreshTokens.delete(refresh.replaces);
        refresh.replaces = null;
      }
    }
    return "ok";
  }

  reset(): void {
    this.installs.clear();
    this.tokens.clear();
    this.refreshTokens.clear();
  }
}
