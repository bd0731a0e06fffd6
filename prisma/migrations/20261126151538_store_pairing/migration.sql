-- CreateTable
CREATE TABLE "StorePairing" (
    "shopA" TEXT NOT NULL,
    "shopB" TEXT NOT NULL,
    "codeFrom" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StorePairing_pkey" PRIMARY KEY ("shopA","shopB")
);

-- CreateTable
CREATE TABLE "StorePairingCode" (
    "codeHash" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StorePairingCode_pkey" PRIMARY KEY ("codeHash")
);

-- CreateTable
CREATE TABLE "ShopAuditEvent" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "peer" TEXT,
    "by" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShopAuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "StorePairing_shopB_idx" ON "StorePairing"("shopB");

-- CreateIndex
CREATE UNIQUE INDEX "StorePairingCode_shop_key" ON "StorePairingCode"("shop");

-- CreateIndex
CREATE INDEX "ShopAuditEvent_shop_at_idx" ON "ShopAuditEvent"("shop", "at");

