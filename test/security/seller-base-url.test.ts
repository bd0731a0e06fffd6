/**
 * Where the seller API key may go (issue: "the saved key can be sent to any URL").
 * Through the Settings route with real session tokens, the real sandbox and real
 * loopback servers standing in for an attacker's listener: a changed base URL
 * needs the key again, production accepts only https to public hosts (numeric
 * hosts in every spelling refused), the resolved address is checked at connect
 * time (DNS rebinding), and every failed verification looks the same to the form.
 */
import type { LookupAddress } from "node:dns";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startSandbox, type SandboxKey } from "../../sandbox/index";
import {
  checkBaseUrl,
  createGuardedFetch,
  isPublicAddress,
  type LookupFunction,
} from "../../app/net/public-address.server";
import { startLoopbackServer, type LoopbackServer } from "../helpers/loopback-server";
import { SHOP_A, SHOP_B, startAdminApp, stopAdminApp, submit, type AdminApp } from "../pages/helpers";
import { log } from "../../app/runtime/logger.server";

type SettingsRoute = typeof import("../../app/routes/app.settings");

let app: AdminApp;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let route: SettingsRoute;
let atlasKey: SandboxKey;
/** Stands in for whatever listens at an address the merchant (or an attacker) types. */
let listener: LoopbackServer;
const seenAuthorization: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  atlasKey = sandbox.keys.find((k) => k.account === "ACC-1001")!;
  listener = await startLoopbackServer((req, _body, res) => {
    seenAuthorization.push(String(req.headers.authorization ?? ""));
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        account: "ACC-EVIL",
        name: "evil",
        lead_prefix: "EVL",
        rate_limit_per_minute: 60,
        api_version: "1.3",
      }),
    );
  });
  app = await startAdminApp({ SELLER_API_BASE_URL: sandbox.url });
  route = await import("../../app/routes/app.settings");
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});
afterAll(async () => {
  await stopAdminApp(app);
  await sandbox?.close();
  await listener?.close();
});

const shopRow = (domain: string) => app.db.prisma.shop.findUniqueOrThrow({ where: { domain } });
// Settings' one save: a new key or address is verified as part of it.
const verify = (shop: string, apiKey: string, baseUrl: string) =>
  submit(route.action, shop, "/app/settings", { intent: "save", apiKey, baseUrl });
/** What the page is told when the key is not saved: nothing saved, the key's error on its field. */
const keyFailure = (error: string) => ({ ok: false, fieldErrors: {}, keyError: error });

describe("a changed base URL needs the key again", () => {
  it("never sends the saved key to a new address: field error, no call, nothing saved", async () => {
    // GIVEN shop A verified its key against the default (the sandbox)
    expect(await verify(SHOP_A, atlasKey.key, "")).toMatchObject({ ok: true });
    const before = await shopRow(SHOP_A);

    // WHEN the form posts a blank key with another base URL, in every spelling of "another"
    for (const baseUrl of [listener.url, `${listener.url}/`, `${listener.url}/v1?`, `${sandbox.url}/other-prefix`]) {
      const result = await verify(SHOP_A, "", baseUrl);
      // THEN the key field is asked for, and nothing was called or changed
      expect(result).toEqual(keyFailure("key_required"));
    }
    expect(listener.requests).toEqual([]);
    expect(await shopRow(SHOP_A)).toEqual(before);

    // AND the same blank key with the same address (spelled with a trailing slash) still re-verifies
    expect(await verify(SHOP_A, "", `${sandbox.url}/`)).toMatchObject({ ok: true });
  });
});

describe("one answer for every failed verification", () => {
  it("answers a refused key, a closed port, a 5xx, a 429, a 404 page and a non-API alike, and logs the cause without the key", async () => {
    const closed = await startLoopbackServer(() => undefined);
    await closed.close();
    const answering = (status: number, body: string, type = "text/html") =>
      startLoopbackServer((_req, _body, res) => {
        res.statusCode = status;
        res.setHeader("content-type", type);
        res.end(body);
      });
    const servers = [
      await answering(500, "{}", "application/json"),
      await answering(429, '{"error":"rate"}', "application/json"),
      await answering(404, "<html>not found</html>"),
      await answering(200, "<html>a router admin page</html>"),
    ];
    const lines: string[] = [];
    vi.spyOn(log, "warn").mockImplementation((line: unknown) => void lines.push(String(line)));
    const key = "sk_live_never_in_a_log_1234567890";
    try {
      const targets = [sandbox.url, closed.url, ...servers.map((s) => s.url)];
      const answers = [];
      for (const baseUrl of targets) answers.push(await verify(SHOP_B, key, baseUrl));
      // Every answer is the same object: nothing tells an open port from a closed one.
      for (const answer of answers) expect(answer).toEqual(keyFailure("not_verified"));
      // The server log keeps the distinct causes, never the key.
      expect(lines.join("\n")).not.toContain(key);
      for (const cause of ["rejected", "unreachable", "platform_error", "rate_limited", "not_seller_api"]) {
        expect(
          lines.some((line) => line.includes(cause)),
          cause,
        ).toBe(true);
      }
    } finally {
      for (const server of servers) await server.close();
    }
    expect((await shopRow(SHOP_B)).sellerApiKeyCipher).toBeNull();
  });
});

describe("in production: https to a public host only", () => {
  const strict = { allowPrivate: false };
  const refused = [
    "http://api.platform.ma",
    "https://127.0.0.1",
    "https://0x7f000001",
    "https://2130706433",
    "https://127.1",
    "https://0177.0.0.1",
    "https://0x7f.0.0.1",
    "https://127.0.0.1.",
    "https://10.0.0.8",
    "https://172.16.4.1",
    "https://192.168.1.1",
    "https://169.254.169.254/latest/meta-data",
    "https://100.64.0.1",
    "https://224.0.0.1",
    "https://0.0.0.0",
    "https://8.8.8.8", // numeric hosts are refused even when public: a platform has a name
    "https://[::1]",
    "https://[::ffff:127.0.0.1]",
    "https://[::ffff:7f00:1]",
    "https://[fd00::1]",
    "https://[fe80::1]",
    "https://localhost",
    "https://LOCALHOST.",
    "https://api.localhost",
    "https://printer.local",
    "https://metadata.google.internal",
    "https://intranet",
    "https://user:pw@api.platform.ma",
    "https://api.platform.ma/v1?redirect=x",
    "https://api.platform.ma/#frag",
    "ftp://api.platform.ma",
    "file:///etc/passwd",
    "data:text/plain,hi",
    "javascript:alert(1)",
    `https://api.platform.ma/${"a".repeat(3000)}`,
  ];

  it.each(refused)("refuses %s before any call", (url) => {
    expect(checkBaseUrl(url, strict)).toMatchObject({ ok: false });
  });

  it("keeps only scheme, host, port and path prefix", () => {
    expect(checkBaseUrl("  https://API.Platform.ma:443/seller/api/?  ", strict)).toEqual({
      ok: true,
      url: "https://api.platform.ma/seller/api",
    });
    expect(checkBaseUrl("https://api.platform.ma:8443/x#", strict)).toEqual({
      ok: true,
      url: "https://api.platform.ma:8443/x",
    });
    expect(checkBaseUrl("https://api.platform.ma/a/../b//", strict)).toEqual({
      ok: true,
      url: "https://api.platform.ma/b",
    });
  });

  it.each([
    ["127.0.0.1", false],
    ["10.1.2.3", false],
    ["100.127.255.255", false],
    ["169.254.169.254", false],
    ["192.168.0.10", false],
    ["255.255.255.255", false],
    ["::1", false],
    ["::ffff:10.0.0.1", false],
    ["fd12:3456::1", false],
    ["fe80::1%eth0", false],
    ["ff02::1", false],
    ["not-an-ip", false],
    ["93.184.215.14", true],
    ["1.1.1.1", true],
    ["::ffff:93.184.215.14", false], // mapped forms are refused outright
    ["2606:4700::6810:84e5", true],
  ])("isPublicAddress(%s) is %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it("refuses loopback and numeric hosts through the Settings route when NODE_ENV=production, before any call", async () => {
    vi.stubEnv("NODE_ENV", "production");
    for (const baseUrl of [
      listener.url,
      listener.url.replace("127.0.0.1", "0x7f000001"),
      listener.url.replace("127.0.0.1", "2130706433"),
      "https://169.254.169.254",
    ]) {
      expect(await verify(SHOP_B, atlasKey.key, baseUrl)).toEqual(keyFailure("invalid_base_url"));
    }
    expect(listener.requests).toEqual([]);
    expect(seenAuthorization).toEqual([]);
  });

  it("allows the demo's loopback sandbox in production only with SELLER_API_ALLOW_PRIVATE_HOSTS=true", async () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("SELLER_API_ALLOW_PRIVATE_HOSTS", "true");
    expect(await verify(SHOP_B, atlasKey.key, sandbox.url)).toMatchObject({
      ok: true,
      connection: { account: "ACC-1001" },
    });
  });

  it("does not send jobs' calls to a private address saved before this rule (checked at connect time)", async () => {
    // GIVEN a shop whose saved base URL points at loopback (saved by an older version)
    await app.db.prisma.shop.update({ where: { domain: SHOP_B }, data: { sellerApiBaseUrl: listener.url } });
    const shop = await shopRow(SHOP_B);
    vi.stubEnv("NODE_ENV", "production");
    const { connectShop } = await import("../../app/sync/seller-connection.server");
    const { ConnectionError } = await import("../../app/seller-api");
    // WHEN a job connects THEN the call fails as a connection error and the listener sees nothing
    await expect(connectShop(app.db.prisma, shop).client.me()).rejects.toBeInstanceOf(ConnectionError);
    expect(listener.requests).toEqual([]);
  });
});

describe("the resolved address is checked at connect time (DNS rebinding)", () => {
  const resolvingTo =
    (...addresses: string[]): LookupFunction =>
    (_host, _options, callback) =>
      callback(
        null,
        addresses.map((address): LookupAddress => ({ address, family: address.includes(":") ? 6 : 4 })),
      );

  it("refuses a public-looking name that resolves to loopback: the key never reaches the listener", async () => {
    const port = new URL(listener.url).port;
    const lines: string[] = [];
    const { verifyAndSaveKey } = await import("../../app/pages/settings.server");
    const result = await verifyAndSaveKey(
      app.db.prisma,
      SHOP_B,
      { apiKey: "sk_live_rebinding_target_123456", baseUrl: `https://seller-api.platform.ma:${port}` },
      {
        addressPolicy: { allowPrivate: false },
        fetch: createGuardedFetch({ lookup: resolvingTo("127.0.0.1") }),
        log: (l) => lines.push(l),
      },
    );
    expect(result).toEqual({ ok: false, error: "not_verified" });
    expect(lines.join("\n")).toMatch(/unreachable.*ERR_ADDRESS_NOT_PUBLIC/);
    expect(listener.requests).toEqual([]);
  });

  it("refuses when any resolved address is private, and IP literals without a lookup", async () => {
    const guarded = createGuardedFetch({ lookup: resolvingTo("93.184.215.14", "10.0.0.5") });
    const failure = await guarded("http://seller-api.platform.ma/v1/me").catch((e: unknown) => e as Error);
    expect((failure as Error & { cause?: { code?: string } }).cause?.code).toBe("ERR_ADDRESS_NOT_PUBLIC");
    const literal = await createGuardedFetch()(`${listener.url}/v1/me`).catch((e: unknown) => e as Error);
    expect((literal as Error & { cause?: { code?: string } }).cause?.code).toBe("ERR_ADDRESS_NOT_PUBLIC");
    expect(listener.requests).toEqual([]);
  });

  it("connects through the guarded lookup when the address is allowed (the dialled address is the checked one)", async () => {
    const dialled: string[] = [];
    const guarded = createGuardedFetch({
      lookup: resolvingTo("127.0.0.1"),
      isAllowed: (address) => {
        dialled.push(address);
        return true;
      },
    });
    const port = new URL(listener.url).port;
    const res = await guarded(`http://seller-api.platform.ma:${port}/v1/me`, {
      method: "POST",
      headers: { Authorization: "Bearer t" },
      body: '{"a":1}',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ account: "ACC-EVIL" });
    expect(dialled).toEqual(["127.0.0.1"]);
    expect(listener.requests.at(-1)).toEqual({ method: "POST", path: "/v1/me", body: '{"a":1}' });
    expect(seenAuthorization.at(-1)).toBe("Bearer t");
    listener.requests.length = 0;
    seenAuthorization.length = 0;
  });
});
