/**
 * Secrets at rest: 16-byte GCM tags only, ciphertexts bound to their shop and
 * column, weak ENCRYPTION_KEYs refused at start-up, and `npm run rotate-key`
 * re-sealing every stored secret on a real database.
 */
import { createCipheriv, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRotateKey } from "./rotate-key-command";
import { useBuiltApp } from "../helpers/built-app";
import {
  createSecretBox,
  encryptionKeyProblem,
  SecretBoxError,
  WeakEncryptionKeyError,
} from "../../app/crypto/secret-box.server";
import { EnvError, parseEnv } from "../../app/env.server";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

const OLD_KEY = "VqJ5qmHHV7mH/M7LjXtoTq4HkC1VSWXSG4UO71uTeDk=";
const NEW_KEY = "3q2+7wH5oLkM9x2Pz4QeVr8sTnY1uBcDfGhJkLmNoPo=";
const SHOP_A = "atlas-beauty.myshopify.com";
const SHOP_B = "rif-market.myshopify.com";
const API_KEY = { shop: SHOP_A, purpose: "seller-api-key" } as const;

/** What the app wrote before v2: "v1.<iv>.<tag>.<ct>", no AAD. */
function sealV1(base64Key: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", Buffer.from(base64Key, "base64"), iv);
  const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), ct]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

function cutTag(sealed: string, bytes: number): string {
  const [version, iv, tag, ct] = sealed.split(".");
  return [version, iv, Buffer.from(tag, "base64url").subarray(0, bytes).toString("base64url"), ct].join(".");
}

describe("GCM tag length", () => {
  it("writes 16-byte tags and refuses any shorter tag, in the current and the old format", () => {
    const box = createSecretBox(NEW_KEY);
    const sealed = box.seal("sk_live_secret_value_1234", API_KEY);
    expect(sealed.startsWith("v2.")).toBe(true);
    expect(Buffer.from(sealed.split(".")[2], "base64url")).toHaveLength(16);
    for (const bytes of [4, 8, 12, 15]) {
      expect(() => box.open(cutTag(sealed, bytes), API_KEY)).toThrow(SecretBoxError);
      expect(() => box.open(cutTag(sealV1(NEW_KEY, "legacy"), bytes), API_KEY)).toThrow(SecretBoxError);
    }
  });
});

describe("binding to shop and purpose (AAD)", () => {
  it("opens a secret only for the shop and column it was sealed for", () => {
    const box = createSecretBox(NEW_KEY);
    const sealed = box.seal("sk_live_secret_value_1234", API_KEY);
    expect(box.open(sealed, API_KEY)).toBe("sk_live_secret_value_1234");
    expect(() => box.open(sealed, { shop: SHOP_B, purpose: "seller-api-key" })).toThrow(SecretBoxError);
    expect(() => box.open(sealed, { shop: SHOP_A, purpose: "events-secret" })).toThrow(SecretBoxError);
    // Changing the version prefix to skip the AAD does not open it either.
    expect(() => box.open(sealed.replace(/^v2\./, "v1."), { shop: SHOP_B, purpose: "seller-api-key" })).toThrow(
      SecretBoxError,
    );
  });

  it("still opens old v1 values, and says they should be sealed again", () => {
    const box = createSecretBox(NEW_KEY);
    expect(box.openWithStatus(sealV1(NEW_KEY, "legacy-key-0001"), API_KEY)).toEqual({
      plaintext: "legacy-key-0001",
      stale: true,
    });
    expect(box.openWithStatus(box.seal("fresh", API_KEY), API_KEY)).toEqual({ plaintext: "fresh", stale: false });
  });

  it("never puts the sealed value or the secret in its error", () => {
    const box = createSecretBox(NEW_KEY);
    const sealed = box.seal("sk_live_do_not_leak", API_KEY);
    const error = (() => {
      try {
        box.open(sealed, { shop: SHOP_B, purpose: "seller-api-key" });
      } catch (thrown) {
        return thrown as Error;
      }
    })();
    expect(error?.message).not.toContain(sealed.split(".")[3]);
    expect(error?.message).not.toContain("sk_live_do_not_leak");
  });
});

describe("key strength at start-up", () => {
  const base = { SHOPIFY_API_KEY: "k", SHOPIFY_API_SECRET: "s", SHOPIFY_APP_URL: "https://app.example" };
  const weak = {
    "all one byte": Buffer.alloc(32, 1).toString("base64"),
    "all zero": Buffer.alloc(32).toString("base64"),
    "a 16-byte pattern twice": Buffer.from("0123456789abcdef0123456789abcdef").toString("base64"),
    "a 2-byte pattern": Buffer.from("ab".repeat(16)).toString("base64"),
    "few distinct bytes": Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 7) % 9)).toString("base64"),
    "31 bytes": randomBytes(31).toString("base64"),
    "33 bytes": randomBytes(33).toString("base64"),
    "not base64": "this is not a key at all!!",
  };

  it.each(Object.entries(weak))("refuses a key that is %s", (_name, key) => {
    expect(encryptionKeyProblem(key)).not.toBeNull();
    expect(() => createSecretBox(key)).toThrow(WeakEncryptionKeyError);
    expect(() => parseEnv({ ...base, ENCRYPTION_KEY: key })).toThrow(EnvError);
    expect(() => parseEnv({ ...base, ENCRYPTION_KEY: NEW_KEY, ENCRYPTION_KEY_PREVIOUS: key })).toThrow(
      /ENCRYPTION_KEY_PREVIOUS/,
    );
  });

  it("accepts random 32-byte keys (1,000 drawn)", () => {
    for (let i = 0; i < 1000; i++) {
      const key = randomBytes(32).toString("base64");
      expect(encryptionKeyProblem(key), key).toBeNull();
    }
    expect(
      parseEnv({ ...base, ENCRYPTION_KEY: NEW_KEY, ENCRYPTION_KEY_PREVIOUS: OLD_KEY }).ENCRYPTION_KEY_PREVIOUS,
    ).toBe(OLD_KEY);
  });

  it("reports a weak key by name when the environment is parsed", () => {
    expect(() => parseEnv({ ...base, ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64") })).toThrow(
      /ENCRYPTION_KEY is not random enough/,
    );
  });
});

describe("during a rotation", () => {
  it("opens values sealed under ENCRYPTION_KEY_PREVIOUS and seals new ones under ENCRYPTION_KEY only", () => {
    const oldBox = createSecretBox(OLD_KEY);
    const rotating = createSecretBox(NEW_KEY, { previousKeys: [OLD_KEY] });
    const old = oldBox.seal("key-sealed-before", API_KEY);
    expect(rotating.openWithStatus(old, API_KEY)).toEqual({ plaintext: "key-sealed-before", stale: true });
    const fresh = rotating.seal("key-sealed-after", API_KEY);
    expect(() => oldBox.open(fresh, API_KEY)).toThrow(SecretBoxError);
    expect(createSecretBox(NEW_KEY).open(fresh, API_KEY)).toBe("key-sealed-after");
  });
});

describe("npm run rotate-key", () => {
  const built = useBuiltApp();
  let db: TestDatabase;
  const secrets = {
    apiA: "sk_live_atlas_AAAAAAAAAAAAAAAA",
    eventsA: "whsec_atlas_events_BBBBBBBBBBBB",
    apiB: "sk_live_rif_CCCCCCCCCCCCCCCCCC",
    metaA: "EAAGatlasMetaToken0000000000EEEE",
  };
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  const run = (env: Record<string, string>) => runRotateKey(built(), db.url, env);

  it("re-seals every secret from the previous key to the new one, in one go, idempotently, printing no secret", async () => {
    // GIVEN secrets sealed under the old key: one in the old v1 format, two in v2
    const oldBox = createSecretBox(OLD_KEY);
    await db.prisma.shop.create({
      data: {
        domain: SHOP_A,
        sellerApiKeyCipher: sealV1(OLD_KEY, secrets.apiA),
        eventsSecretCipher: oldBox.seal(secrets.eventsA, { shop: SHOP_A, purpose: "events-secret" }),
      },
    });
    await db.prisma.shop.create({
      data: {
        domain: SHOP_B,
        sellerApiKeyCipher: oldBox.seal(secrets.apiB, { shop: SHOP_B, purpose: "seller-api-key" }),
      },
    });
    await db.prisma.shop.create({ data: { domain: "no-secret.myshopify.com" } });
    // The conversion feed's access token, in a table of its own.
    await db.prisma.adFeed.create({
      data: {
        shop: SHOP_A,
        metaDatasetId: "1234567890123",
        metaTokenCipher: oldBox.seal(secrets.metaA, { shop: SHOP_A, purpose: "meta-access-token" }),
      },
    });
    const feedBefore = await db.prisma.adFeed.findUniqueOrThrow({ where: { shop: SHOP_A } });
    const before = await db.prisma.shop.findMany({ orderBy: { domain: "asc" } });

    // WHEN the command runs with the new key and the previous one
    const first = await run({ ENCRYPTION_KEY: NEW_KEY, ENCRYPTION_KEY_PREVIOUS: OLD_KEY });

    // THEN it reports counts, and nothing of a secret or its cipher
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain("4 secret(s) checked, 4 re-sealed, 0 sealed (were in clear), 0 already current");
    for (const text of [
      ...Object.values(secrets),
      OLD_KEY,
      NEW_KEY,
      ...before.flatMap((s) => [s.sellerApiKeyCipher, s.eventsSecretCipher]),
      feedBefore.metaTokenCipher,
    ]) {
      if (text) expect(first.out).not.toContain(text);
    }
    // AND every secret opens under the new key alone, bound to its shop and column
    const newBox = createSecretBox(NEW_KEY);
    const a = await db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP_A } });
    const b = await db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP_B } });
    expect(newBox.openWithStatus(a.sellerApiKeyCipher!, { shop: SHOP_A, purpose: "seller-api-key" })).toEqual({
      plaintext: secrets.apiA,
      stale: false,
    });
    expect(newBox.open(a.eventsSecretCipher!, { shop: SHOP_A, purpose: "events-secret" })).toBe(secrets.eventsA);
    expect(newBox.open(b.sellerApiKeyCipher!, { shop: SHOP_B, purpose: "seller-api-key" })).toBe(secrets.apiB);
    const feed = await db.prisma.adFeed.findUniqueOrThrow({ where: { shop: SHOP_A } });
    expect(newBox.open(feed.metaTokenCipher!, { shop: SHOP_A, purpose: "meta-access-token" })).toBe(secrets.metaA);
    expect(() =>
      createSecretBox(OLD_KEY).open(b.sellerApiKeyCipher!, { shop: SHOP_B, purpose: "seller-api-key" }),
    ).toThrow(SecretBoxError);

    // AND a second run changes nothing
    const second = await run({ ENCRYPTION_KEY: NEW_KEY, ENCRYPTION_KEY_PREVIOUS: OLD_KEY });
    expect(second.out).toContain("4 secret(s) checked, 0 re-sealed, 0 sealed (were in clear), 4 already current");
    const after = await db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP_A } });
    expect(after.sellerApiKeyCipher).toBe(a.sellerApiKeyCipher);
  });

  it("changes nothing when a secret opens under neither key, and names only the shop", async () => {
    const stranger = randomBytes(32).toString("base64");
    await db.prisma.shop.update({
      where: { domain: SHOP_B },
      data: {
        eventsSecretCipher: createSecretBox(stranger).seal("whsec_unknown_key_DDDD", {
          shop: SHOP_B,
          purpose: "events-secret",
        }),
      },
    });
    const before = await db.prisma.shop.findMany({ orderBy: { domain: "asc" } });
    const third = await run({ ENCRYPTION_KEY: randomBytes(32).toString("base64"), ENCRYPTION_KEY_PREVIOUS: NEW_KEY });
    expect(third.code).toBe(1);
    expect(third.out).toContain(`${SHOP_B} (events-secret)`);
    expect(third.out).not.toContain("whsec_unknown_key_DDDD");
    expect(await db.prisma.shop.findMany({ orderBy: { domain: "asc" } })).toEqual(before);
  });

  it("refuses to run with a weak key", async () => {
    const weak = await run({ ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64") });
    expect(weak.code).toBe(2);
    expect(weak.out).toMatch(/not random enough/);
  });
});
