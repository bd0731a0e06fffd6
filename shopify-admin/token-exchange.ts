/**
 * POST /admin/oauth/access_token as Shopify answers it, for the three requests
 * @shopify/shopify-api sends there (JSON or form body, client_id + client_secret):
 *
 * - token exchange (`grant_type` urn:ietf:params:oauth:grant-type:token-exchange,
 *   `subject_token_type` ...:id_token): the session token is verified with the app's
 *   secret; the shop is installed with the app's scopes and gets an offline token
 *   (expiring with `expiring: "1"`: 1 h, plus a 90-day refresh token) or an online one;
 * - migration of a non-expiring offline token (`subject_token_type` ...:offline-access-token);
 * - `grant_type=refresh_token`: a new access and refresh token.
 *
 * Errors are 400 `{ error, error_description }` (invalid_subject_token makes the Remix
 * package bounce the request for a fresh session token, as with Shopify).
 */
import type { InstallationRegistry } from "./installations";
import { InvalidSessionTokenError, verifySessionToken } from "./session-token";

export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
export const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
export const OFFLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:offline-access-token";
export const ONLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:online-access-token";

export interface AppCredentials {
  apiKey: string;
  apiSecret: string;
  scopes: string[];
}

export interface OAuthAnswer {
  status: number;
  body: Record<string, unknown>;
}

const oauthError = (error: string, description: string, status = 400): OAuthAnswer => ({
  status,
  body: { error, error_description: description },
});

export function parseOAuthBody(raw: string, contentType: string | undefined): Record<string, string> {
  if (/application\/x-www-form-urlencoded/i.test(contentType ?? ""))
    return Object.fromEntries(new URLSearchParams(raw));
  try {
    const parsed = JSON.parse(raw || "{}") as unknown;
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).map(([k, v]) => [k, v === null || v === undefined ? "" : String(v)]),
    );
  } catch {
    return {};
  }
}

const truthy = (value: string | undefined) => value === "1" || value === "true";
const secondsLeft = (at: number | null, nowMs: number) =>
  at === null ? null : Math.max(0, Math.round((at - nowMs) / 1000));

export function answerAccessTokenRequest(input: {
  shop: string;
  body: Record<string, string>;
  app: AppCredentials | null;
  installations: InstallationRegistry;
  nowMs: number;
}): OAuthAnswer {
  const { shop, body, app, installations, nowMs } = input;
  if (!app) return oauthError("invalid_client", "The stand-in was started without the app's API key and secret.");
  if (body.client_id !== app.apiKey || body.client_secret !== app.apiSecret) {
    return oauthError("invalid_client", "Client authentication failed: unknown client_id or wrong client_secret.");
  }
  const scope = app.scopes.join(",");

  if (body.grant_type === "refresh_token") {
    if (!body.refresh_token) return oauthError("invalid_request", "refresh_token is required.");
    const refreshed = installations.refresh(body.refresh_token, nowMs);
    if (!refreshed || refreshed.access.shop !== shop)
      return oauthError("invalid_grant", "The refresh token is invalid, expired or revoked.");
    return {
      status: 200,
      body: offlineBody(refreshed.access.token, scope, refreshed.access.expiresAt, refreshed.refresh, nowMs),
    };
  }

  if (body.grant_type !== TOKEN_EXCHANGE_GRANT)
    return oauthError("unsupported_grant_type", `grant_type ${body.grant_type || "(none)"} is not supported.`);
  if (!body.subject_token) return oauthError("missing_subject_token", "subject_token is required.");
  const requested = body.requested_token_type;
  if (requested !== OFFLINE_TOKEN_TYPE && requested !== ONLINE_TOKEN_TYPE) {
    return oauthError("invalid_request", "requested_token_type must be an offline or online access token type.");
  }

  if (body.subject_token_type === OFFLINE_TOKEN_TYPE) {
    // Migration: a non-expiring offline token becomes an expiring one; the old one is revoked.
    const old = installations.offlineToken(body.subject_token);
    if (!old || old.shop !== shop || old.expiresAt !== null || !installations.isInstalled(shop)) {
      return oauthError(
        "invalid_subject_token",
        "The subject token is not a non-expiring offline access token of this shop.",
      );
    }
    const issued = installations.issue({ shop, kind: "offline", expiring: true, nowMs });
    installations.revoke(old.token);
    return {
      status: 200,
      body: offlineBody(issued.access.token, scope, issued.access.expiresAt, issued.refresh, nowMs),
    };
  }
  if (body.subject_token_type !== ID_TOKEN_TYPE)
    return oauthError("invalid_request", "subject_token_type is not supported.");

  let userId: string;
  try {
    userId = verifySessionToken(body.subject_token, app, shop, nowMs).sub;
  } catch (error) {
    if (error instanceof InvalidSessionTokenError) return oauthError("invalid_subject_token", error.message);
    throw error;
  }
  installations.install(shop, app.scopes, nowMs);
  if (requested === ONLINE_TOKEN_TYPE) {
    const { access } = installations.issue({ shop, kind: "online", expiring: true, nowMs, userId });
    return {
      status: 200,
      body: {
        access_token: access.token,
        scope,
        expires_in: secondsLeft(access.expiresAt, nowMs),
        associated_user_scope: scope,
        associated_user: {
          id: Number(userId) || 1,
          first_name: "Demo",
          last_name: "Merchant",
          email: `owner@${shop}`,
          email_verified: true,
          account_owner: true,
          locale: "fr",
          collaborator: false,
        },
      },
    };
  }
  const expiring = truthy(body.expiring);
  const issued = installations.issue({ shop, kind: "offline", expiring, nowMs });
  return { status: 200, body: offlineBody(issued.access.token, scope, issued.access.expiresAt, issued.refresh, nowMs) };
}

function offlineBody(
  accessToken: string,
  scope: string,
  expiresAt: number | null,
  refresh: { token: string; expiresAt: number } | null,
  nowMs: number,
): Record<string, unknown> {
  return {
    access_token: accessToken,
    scope,
    ...(expiresAt !== null ? { expires_in: secondsLeft(expiresAt, nowMs) } : {}),
    ...(refresh
      ? { refresh_token: refresh.token, refresh_token_expires_in: secondsLeft(refresh.expiresAt, nowMs) }
      : {}),
  };
}
