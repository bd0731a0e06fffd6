/**
 * Where the seller API key may be sent. In production only https to a public
 * host: private, loopback, link-local, CGNAT, multicast, reserved and IPv6
 * ULA/mapped addresses are refused, both when the base URL is typed (numeric
 * hosts in any spelling, which WHATWG URL canonicalises to dotted quads) and
 * again on the address DNS returns at connect time, so a name that later
 * resolves to 127.0.0.1 (DNS rebinding) never gets a connection.
 *
 * SELLER_API_ALLOW_PRIVATE_HOSTS=true (the demo's loopback sandbox) and a
 * NODE_ENV of development or test allow http and private hosts; nothing else
 * does (an unset NODE_ENV is production: app/env.server.ts). The conversion feed's
 * calls to Meta and TikTok are held to the same rule (AD_API_ALLOW_PRIVATE_HOSTS).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP } from "node:net";
import { Readable } from "node:stream";
import { adPlatformsEnv, sellerApiEnv, type AdPlatformsEnv, type SellerApiEnv } from "../env.server";

/**
 * Ranges no public Seller Order API lives in (IANA special-purpose registries).
 * Two lists: a BlockList holding IPv6 ranges such as ::/96 also matches IPv4 addresses.
 */
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  NOT_PUBLIC_V4.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["::ffff:0:0", 96], // IPv4-mapped: would reach any IPv4 address, private ones included
  ["::", 96], // IPv4-compatible (deprecated)
  ["64:ff9b::", 96], // NAT64
  ["64:ff9b:1::", 48],
  ["100::", 64], // discard
  ["2001::", 32], // Teredo
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local
  ["ff00::", 8], // multicast
] as const) {
  NOT_PUBLIC_V6.addSubnet(net, prefix, "ipv6");
}

/** Pure: true for a literal IP address a public service may have. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 0) return false;
  return family === 4 ? !NOT_PUBLIC_V4.check(bare, "ipv4") : !NOT_PUBLIC_V6.check(bare, "ipv6");
}

export interface AddressPolicy {
  /** http and private, loopback or link-local hosts allowed (demo, tests, development). */
  allowPrivate: boolean;
}

/** The policy of this process: strict unless it runs for development or tests, or SELLER_API_ALLOW_PRIVATE_HOSTS=true. */
export function addressPolicyFromEnv(
  config: Pick<SellerApiEnv, "NODE_ENV" | "SELLER_API_ALLOW_PRIVATE_HOSTS"> = sellerApiEnv(),
): AddressPolicy {
  const development = config.NODE_ENV === "development" || config.NODE_ENV === "test";
  return { allowPrivate: development || config.SELLER_API_ALLOW_PRIVATE_HOSTS };
}

export type BaseUrlCheck = { ok: true; url: string } | { ok: false; why: string };

const MAX_URL_LENGTH = 2048;
/** Names that resolve inside the machine or the local network by convention. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/i;

/**
 * Pure: the base URL reduced to scheme, host, port and path prefix (no trailing
 * slash, query, fragment or credentials), or why it is refused.
 */
export function checkBaseUrl(raw: string, policy: AddressPolicy): BaseUrlCheck {
  const trimmed = raw.trim();
  if (trimmed.length > MAX_URL_LENGTH) return { ok: false, why: "too long" };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, why: "not a URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, why: `scheme ${url.protocol}` };
  if (url.username || url.password) return { ok: false, why: "credentials in the URL" };
  // A lone "?" or "#" parses to an empty search or hash and is dropped below; anything after one is refused.
  if (url.search || url.hash) return { ok: false, why: "query or fragment" };
  const normalised = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
  if (policy.allowPrivate) return { ok: true, url: normalised };

  if (url.protocol !== "https:") return { ok: false, why: "not https" };
  const host = url.hostname.replace(/\.$/, "");
  // WHATWG has already turned 0x7f000001, 2130706433, 127.1 and 0177.0.0.1 into 127.0.0.1.
  if (host.startsWith("[") || isIP(host) !== 0) return { ok: false, why: "numeric host" };
  if (!host.includes(".") || LOCAL_NAME.test(host)) return { ok: false, why: "local host name" };
  return { ok: true, url: normalised };
}

/** Thrown (as a connection error: nothing was sent) when a host resolves to a non-public address. */
export class AddressNotPublicError extends Error {
  readonly code = "ERR_ADDRESS_NOT_PUBLIC";
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, which is not a public address: connection refused`);
    this.name = "AddressNotPublicError";
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type LookupFunction = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

export interface GuardedFetchOptions {
  /** DNS resolution (tests inject one); defaults to the system resolver. */
  lookup?: LookupFunction;
  /** Which resolved addresses may be connected to; defaults to isPublicAddress. */
  isAllowed?: (address: string) => boolean;
}

/**
 * A fetch for the Seller Order API that connects only to allowed addresses, checked
 * on the address actually dialled. Redirects are returned, never followed.
 */
export function createGuardedFetch(options: GuardedFetchOptions = {}): typeof fetch {
  const resolve = options.lookup ?? (dnsLookup as unknown as LookupFunction);
  const isAllowed = options.isAllowed ?? isPublicAddress;

  const guardedLookup = (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback) => {
    resolve(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, "");
      const list = (
        Array.isArray(addresses) ? addresses : [{ address: addresses, family: isIP(addresses) }]
      ) as LookupAddress[];
      const refused = list.find((a) => !isAllowed(a.address));
      // Every address must pass: the socket may try any of them.
      if (refused || list.length === 0)
        return callback(new AddressNotPublicError(hostname, refused?.address ?? "nothing"), "");
      if (lookupOptions.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };

  return (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new TypeError(`unsupported scheme ${url.protocol}`);
    const literal = url.hostname.replace(/^\[|\]$/g, "");
    // An IP literal is dialled without a lookup: check it here.
    if (isIP(literal) !== 0 && !isAllowed(literal))
      throw new TypeError("fetch failed", { cause: new AddressNotPublicError(literal, literal) });
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body =
      init.body == null
        ? undefined
        : typeof init.body === "string"
          ? init.body
          : Buffer.from(await new Response(init.body).arrayBuffer());
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
    init.signal?.throwIfAborted();

    return new Promise<Response>((resolvePromise, reject) => {
      const transport = url.protocol === "https:" ? https : http;
      const request = transport.request(
        url,
        {
          method: init.method ?? "GET",
          headers,
          lookup: guardedLookup as never,
          signal: init.signal ?? undefined,
          agent: false,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const responseHeaders = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            responseHeaders.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
          const noBody = status === 204 || status === 205 || status === 304 || init.method === "HEAD";
          if (noBody) res.resume();
          try {
            resolvePromise(
              new Response(noBody ? null : (Readable.toWeb(res) as ReadableStream), {
                status,
                statusText: res.statusMessage,
                headers: responseHeaders,
              }),
            );
          } catch (error) {
            res.destroy();
            reject(error);
          }
        },
      );
      // Like undici: "fetch failed" with the socket error as cause (see seller-api/network-errors).
      request.on("error", (error) =>
        reject(error.name === "AbortError" ? error : new TypeError("fetch failed", { cause: error })),
      );
      request.end(body);
    });
  }) as typeof fetch;
}

/** The fetch the Seller Order API client uses in this process: guarded unless private hosts are allowed. */
export function sellerApiFetch(policy: AddressPolicy = addressPolicyFromEnv()): typeof fetch | undefined {
  return policy.allowPrivate ? undefined : createGuardedFetch();
}

/** The ad platforms' policy: strict in production unless AD_API_ALLOW_PRIVATE_HOSTS=true (the stand-ins). */
export function adPlatformsAddressPolicy(
  config: Pick<AdPlatformsEnv, "NODE_ENV" | "AD_API_ALLOW_PRIVATE_HOSTS"> = adPlatformsEnv(),
): AddressPolicy {
  return { allowPrivate: config.NODE_ENV !== "production" || config.AD_API_ALLOW_PRIVATE_HOSTS };
}

/** Thrown at the first call when a configured base URL is not allowed (production: https to a public host). */
export class BaseUrlRefusedError extends Error {
  constructor(
    readonly variable: string,
    readonly why: string,
  ) {
    super(`${variable} is refused: ${why} (production reaches only https on a public host)`);
    this.name = "BaseUrlRefusedError";
  }
}

/**
 * The ad platforms' base URLs and the fetch that reaches them, checked like the seller API's:
 * each URL against the policy, and in production each connection's resolved address.
 */
export function adPlatformsConnection(config: AdPlatformsEnv = adPlatformsEnv()): {
  metaBaseUrl: string;
  tiktokBaseUrl: string;
  fetch: typeof fetch | undefined;
  timeoutMs: number;
} {
  const policy = adPlatformsAddressPolicy(config);
  const checked = (variable: string, raw: string) => {
    const result = checkBaseUrl(raw, policy);
    if (!result.ok) throw new BaseUrlRefusedError(variable, result.why);
    return result.url;
  };
  return {
    metaBaseUrl: checked("META_API_BASE_URL", config.META_API_BASE_URL),
    tiktokBaseUrl: checked("TIKTOK_API_BASE_URL", config.TIKTOK_API_BASE_URL),
    fetch: sellerApiFetch(policy),
    timeoutMs: config.AD_API_TIMEOUT_MS,
  };
}
