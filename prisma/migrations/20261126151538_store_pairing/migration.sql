-- CreateTable
CREATE TABLE "StorePairing" (
    "shopA" TEXT NOT NULL,
    "shopB" TEXT NOT NULL,
    "codeFrom" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("shopA", "shopB")
);

-- CreateTable
CREATE TABLE "StorePairingCode" (
    "codeHash" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ShopAuditEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "peer" TEXT,
    "by" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "StorePairing_shopB_idx" ON "StorePairing"("shopB");

-- CreateIndex
CREATE UNIQUE INDEX "StorePairingCode_shop_key" ON "StorePairingCode"("shop");

-- CreateIndex
CREATE INDEX "ShopAuditEvent_shop_at_idx" ON "ShopAuditEvent"("shop", "at");

