/**
 * Shopify's Admin API tokens at rest: offline access and refresh tokens
 * (shpat_..., shprt_...) sat in clear in Session beside the sealed seller keys,
 * so a database read (a backup, a support copy, the database user) gave a working
 * token with the app's write scopes for every store, and the refresh token minted
 * more. Now the app's session storage seals both, bound to the shop and the
 * column; the rows an older version wrote in clear are sealed in place when the
 * app starts, the space they leave is scrubbed, and `npm run rotate-key` re-seals
 * them under a new key. On a real database.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRotateKey } from "./rotate-key-command";
import { useBuiltApp } from "../helpers/built-app";
import { createSecretBox, isSealedSecret, SecretBoxError } from "../../app/crypto/secret-box.server";
import { ACCESS_TOKEN, REFRESH_TOKEN } from "../../app/models/session-tokens.server";
import { storeOfflineSession } from "../helpers/admin";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";

const ATLAS = "atlas-beauty.myshopify.com";
const RIF = "rif-market.myshopify.com";
const GONE = "gone-store.myshopify.com";
const KEY = process.env.ENCRYPTION_KEY!;
const TOKENS = {
  atlasAccess: "shpat_atlas_0123456789abcdef0123456789abcdef",
  atlasRefresh: "shprt_atlas_fedcba9876543210fedcba9876543210",
  rifAccess: "shpat_rif_00112233445566778899aabbccddeeff",
  rifEarlier: "shpat_rif_earlier_ffeeddccbbaa99887766554433",
  gone: "shpat_gone_0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d",
};

let db: TestDatabase;
let storage: typeof import("../../app/shopify.server").sessionStorage;

const session = (id: string, shop: string, accessToken: string, refreshToken: string | null = null) => ({
  id,
  shop,
  state: "",
  isOnline: false,
  scope: "read_orders,write_orders",
  accessToken,
  refreshToken,
  expires: new Date(Date.now() + 3600_000),
});

/** Whether a Shopify token in clear is in a Session row. */
async function clearTokenStored(): Promise<boolean> {
  const rows = await db.prisma.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM "Session" WHERE "accessToken" LIKE '%shpat\\_%' OR "refreshToken" LIKE '%shprt\\_%' OR "accessToken" LIKE '%shprt\\_%'`,
  );
  return rows[0].n > 0;
}

/** The file that holds Session's rows: a rewrite of the table gives it a new one. */
async function sessionFile(): Promise<number> {
  const [row] = await db.prisma.$queryRawUnsafe<{ file: number }[]>(
    `SELECT pg_relation_filenode('"Session"')::int AS file`,
  );
  return row.file;
}
let sessionFileBefore: number;

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  // GIVEN sessions as the earlier version stored them: tokens in clear, with history
  // (a token replaced, a shop uninstalled) whose old bytes the file still holds.
  await db.prisma.session.create({ data: session(`offline_${ATLAS}`, ATLAS, TOKENS.atlasAccess, TOKENS.atlasRefresh) });
  await db.prisma.session.create({ data: session(`offline_${RIF}`, RIF, TOKENS.rifEarlier) });
  await db.prisma.session.update({ where: { id: `offline_${RIF}` }, data: { accessToken: TOKENS.rifAccess } });
  await db.prisma.session.create({ data: session(`offline_${GONE}`, GONE, TOKENS.gone) });
  await db.prisma.session.delete({ where: { id: `offline_${GONE}` } });
  sessionFileBefore = await sessionFile();
  // WHEN the app starts (its session storage is created with the app's Shopify config)
  ({ sessionStorage: storage } = await import("../../app/shopify.server"));
});
afterAll(() => db?.cleanup());

describe("Shopify tokens at rest", () => {
  it("seals the tokens an earlier version stored in clear, bound to their shop and column, and reads them as before", async () => {
    const atlas = await storage.loadSession(`offline_${ATLAS}`);
    expect(atlas).toMatchObject({ shop: ATLAS, accessToken: TOKENS.atlasAccess, refreshToken: TOKENS.atlasRefresh });
    expect((await storage.findSessionsByShop(RIF)).map((s) => s.accessToken)).toEqual([TOKENS.rifAccess]);

    const rows = await db.prisma.session.findMany({ orderBy: { id: "asc" } });
    expect(rows).toHaveLength(2);
    const box = createSecretBox(KEY);
    for (const row of rows) {
      expect(isSealedSecret(row.accessToken), row.shop).toBe(true);
      expect(box.open(row.accessToken, { shop: row.shop, purpose: ACCESS_TOKEN })).toMatch(/^shpat_/);
    }
    const atlasRow = rows.find((r) => r.shop === ATLAS)!;
    expect(box.open(atlasRow.refreshToken!, { shop: ATLAS, purpose: REFRESH_TOKEN })).toBe(TOKENS.atlasRefresh);
    // Bound: copied to another shop's row, or to the other column, it opens for nobody.
    expect(() => box.open(atlasRow.accessToken, { shop: RIF, purpose: ACCESS_TOKEN })).toThrow(SecretBoxError);
    expect(() => box.open(atlasRow.refreshToken!, { shop: ATLAS, purpose: ACCESS_TOKEN })).toThrow(SecretBoxError);
  });

  it("leaves no token in clear in the database, not even the replaced and deleted ones", async () => {
    expect(await clearTokenStored()).toBe(false);
    // The table was rewritten (VACUUM FULL): the dead row versions that held the old tokens went with the old file.
    expect(await sessionFile()).not.toBe(sessionFileBefore);
  });

  it("stores new sessions sealed (the token exchange's path) and seals a row an older process writes in clear", async () => {
    const stored = await storeOfflineSession(storage, "new-store.myshopify.com");
    const row = await db.prisma.session.findUniqueOrThrow({ where: { id: stored.id } });
    expect(isSealedSecret(row.accessToken)).toBe(true);
    expect((await storage.loadSession(stored.id))?.accessToken).toBe(stored.accessToken);

    // An older process, during a rolling deploy, writes a token in clear: it is read, and sealed in place.
    await db.prisma.session.update({
      where: { id: `offline_${RIF}` },
      data: { accessToken: "shpat_rif_rolling_deploy_0000000000000000" },
    });
    expect((await storage.loadSession(`offline_${RIF}`))?.accessToken).toBe(
      "shpat_rif_rolling_deploy_0000000000000000",
    );
    expect(
      isSealedSecret((await db.prisma.session.findUniqueOrThrow({ where: { id: `offline_${RIF}` } })).accessToken),
    ).toBe(true);
  });

  it("reads a token that opens under no key as no session (a new one comes through the token exchange)", async () => {
    const stranger = createSecretBox(randomBytes(32).toString("base64"));
    await db.prisma.session.create({
      data: session(
        "offline_stranger.myshopify.com",
        "stranger.myshopify.com",
        stranger.seal("shpat_x", { shop: "stranger.myshopify.com", purpose: ACCESS_TOKEN }),
      ),
    });
    expect(await storage.loadSession("offline_stranger.myshopify.com")).toBeUndefined();
    await db.prisma.session.delete({ where: { id: "offline_stranger.myshopify.com" } });
  });
});

describe("npm run rotate-key", () => {
  const built = useBuiltApp();
  const run = (env: Record<string, string>) => runRotateKey(built(), db.url, env);

  it("re-seals the session tokens under the new key, seals one still in clear, and prints no token", async () => {
    // A row in clear again, as a database restored from an old backup would hold.
    await db.prisma.session.create({ data: session(`offline_${GONE}`, GONE, TOKENS.gone) });
    const newKey = randomBytes(32).toString("base64");
    const result = await run({ ENCRYPTION_KEY: newKey, ENCRYPTION_KEY_PREVIOUS: KEY });
    expect(result.code, result.out).toBe(0);
    // Tokens: atlas (2), rif, new-store re-sealed; gone sealed.
    expect(result.out).toContain("5 secret(s) checked, 4 re-sealed, 1 sealed (were in clear), 0 already current");
    expect(result.out).not.toMatch(/shp(at|rt)_/);

    const box = createSecretBox(newKey);
    const old = createSecretBox(KEY);
    for (const row of await db.prisma.session.findMany()) {
      expect(box.openWithStatus(row.accessToken, { shop: row.shop, purpose: ACCESS_TOKEN })).toMatchObject({
        plaintext: expect.stringMatching(/^shpat_/),
        stale: false,
      });
      expect(() => old.open(row.accessToken, { shop: row.shop, purpose: ACCESS_TOKEN })).toThrow(SecretBoxError);
    }
    const atlas = await db.prisma.session.findUniqueOrThrow({ where: { id: `offline_${ATLAS}` } });
    expect(box.open(atlas.refreshToken!, { shop: ATLAS, purpose: REFRESH_TOKEN })).toBe(TOKENS.atlasRefresh);
    expect(await clearTokenStored()).toBe(false);

    const again = await run({ ENCRYPTION_KEY: newKey, ENCRYPTION_KEY_PREVIOUS: KEY });
    expect(again.out).toContain("5 secret(s) checked, 0 re-sealed, 0 sealed (were in clear), 5 already current");
  });
});
