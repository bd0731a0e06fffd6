/**
 * Session tokens (App Bridge's id tokens): HS256 JWTs signed with the app's API secret,
 * `aud` = the app's API key, `dest` = https://SHOP. Verified as Shopify verifies the
 * subject token of a token exchange; `signSessionToken` mints one for tests and the demo.
 */
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";

export class InvalidSessionTokenError extends Error {
  constructor(reason: string) {
    super(`invalid session token: ${reason}`);
    this.name = "InvalidSessionTokenError";
  }
}

export interface SessionTokenClaims {
  iss: string;
  dest: string;
  aud: string;
  sub: string;
  exp: number;
  nbf: number;
  iat: number;
  jti: string;
  sid: string;
}

/** Seconds of clock skew accepted, as @shopify/shopify-api accepts them. */
const CLOCK_TOLERANCE_S = 10;

const b64url = (input: Buffer | string) => Buffer.from(input).toString("base64url");
const sign = (data: string, secret: string) => createHmac("sha256", secret).update(data).digest();

export function signSessionToken(input: {
  shop: string;
  apiKey: string;
  apiSecret: string;
  userId?: string;
  nowMs?: number;
  ttlS?: number;
}): string {
  const now = Math.floor((input.nowMs ?? Date.now()) / 1000);
  const claims: SessionTokenClaims = {
    iss: `https://${input.shop}/admin`,
    dest: `https://${input.shop}`,
    aud: input.apiKey,
    sub: input.userId ?? "1",
    exp: now + (input.ttlS ?? 60),
    nbf: now - 1,
    iat: now - 1,
    jti: randomUUID(),
    sid: randomUUID(),
  };
  const body = `${b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${b64url(JSON.stringify(claims))}`;
  return `${body}.${b64url(sign(body, input.apiSecret))}`;
}

/** The claims of a valid token for `shop` and this app, or InvalidSessionTokenError. */
export function verifySessionToken(
  token: string,
  app: { apiKey: string; apiSecret: string },
  shop: string,
  nowMs: number,
): SessionTokenClaims {
  const parts = token.split(".");
  if (parts.length !== 3) throw new InvalidSessionTokenError("not a JWT");
  let header: { alg?: string };
  let claims: Partial<SessionTokenClaims>;
  try {
    header = JSON.parse(Buffer.from(parts[0], "base64url").toString("utf8"));
    claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
  } catch {
    throw new InvalidSessionTokenError("unreadable");
  }
  if (header.alg !== "HS256") throw new InvalidSessionTokenError("algorithm is not HS256");
  const expected = sign(`${parts[0]}.${parts[1]}`, app.apiSecret);
  const given = Buffer.from(parts[2], "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new InvalidSessionTokenError("signature does not match");
  const now = nowMs / 1000;
  if (typeof claims.exp !== "number" || claims.exp + CLOCK_TOLERANCE_S < now)
    throw new InvalidSessionTokenError("expired");
  if (typeof claims.nbf === "number" && claims.nbf - CLOCK_TOLERANCE_S > now)
    throw new InvalidSessionTokenError("not yet valid");
  if (claims.aud !== app.apiKey) throw new InvalidSessionTokenError("audience is not this app");
  if (claims.dest !== `https://${shop}`) throw new InvalidSessionTokenError("destination is another shop");
  return claims as SessionTokenClaims;
}
