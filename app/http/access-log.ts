/**
 * What the request log may show of a URL. App Bridge puts a session token in
 * `id_token`, OAuth a `code`, `hmac` and `state`, and the platform's events
 * address carries its secret token in the path: a log line is read by more
 * people than the admin, so those are replaced before it is written.
 */

/** Query parameters whose value is a credential (compared case-insensitively). */
const SECRET_PARAMS = new Set([
  "id_token",
  "session",
  "hmac",
  "token",
  "code",
  "state",
  "signature",
  "access_token",
  "key",
  "secret",
]);

/** Paths that end with a secret token: `/webhooks/seller/<token>`. */
const SECRET_PATH = /^(\/+webhooks\/+seller\/+)[^/?#]+/i;

export const REDACTED = "[redacted]";

/** The URL (path and query, as in `req.url`) with every credential replaced by [redacted]. */
export function redactUrl(url: string): string {
  const hashAt = url.indexOf("#");
  const withoutHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = withoutHash.indexOf("?");
  let path = queryAt === -1 ? withoutHash : withoutHash.slice(0, queryAt);
  // Decoded only to recognise the route; what is written keeps the original bytes.
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Malformed escapes: matched as they are.
  }
  if (SECRET_PATH.test(decoded)) path = decoded.replace(SECRET_PATH, `$1${REDACTED}`);
  if (queryAt === -1) return path;
  const query = withoutHash
    .slice(queryAt + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, " "));
      } catch {
        // Kept as typed.
      }
      return SECRET_PARAMS.has(name.trim().toLowerCase()) && eq !== -1 ? `${rawName}=${REDACTED}` : pair;
    })
    .join("&");
  return `${path}?${query}`;
}
