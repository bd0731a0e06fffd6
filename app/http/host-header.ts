/**
 * A Host header the URL parser can take: a DNS name or IPv4 address, or a
 * bracketed IPv6 address, with an optional port. Anything else (spaces, "@",
 * "/", an empty or out-of-range port) is answered 400 before a URL is built
 * from it, instead of a 500 from `new URL`.
 */
const HOST =
  /^(?:[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))*\.?|\[[0-9a-f:.]{2,45}\])(?::(\d{1,5}))?$/i;

export function isValidHostHeader(host: string | undefined): boolean {
  if (host === undefined) return true; // HTTP/1.0 without Host: the server's own name is used.
  if (host.length > 260) return false;
  const match = HOST.exec(host);
  if (!match) return false;
  return match[1] === undefined || Number(match[1]) <= 65535;
}
