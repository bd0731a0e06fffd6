-- CreateTable
CREATE TABLE "OrderLink" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "payloadAt" DATETIME,
    "customerId" TEXT,
    "state" TEXT NOT NULL DEFAULT 'received',
    "reason" TEXT,
    "findings" TEXT NOT NULL DEFAULT '[]',
    "anomalies" TEXT NOT NULL DEFAULT '[]',
    "leadJson" TEXT,
    "leadRef" TEXT,
    "externalRef" TEXT NOT NULL,
    "phone" TEXT,
    "cityId" INTEGER,
    "totalClient" TEXT,
    "overrides" TEXT NOT NULL DEFAULT '{}',
    "flags" TEXT NOT NULL DEFAULT '[]',
    "confirmationStatus" TEXT,
    "shippingStatus" TEXT,
    "trackingNumber" TEXT,
    "sellerProfit" TEXT,
    "statusFinal" BOOLEAN NOT NULL DEFAULT false,
    "statusCheckedAt" DATETIME,
    "postingSince" DATETIME,
    "postedAt" DATETIME,
    "postCount" INTEGER NOT NULL DEFAULT 0,
    "resendBy" TEXT,
    "resendAt" DATETIME,
    "cancelledAt" DATETIME,
    "writtenBack" TEXT NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "TimelineEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "linkId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "data" TEXT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "shop" TEXT,
    "payload" TEXT NOT NULL DEFAULT '{}',
    "state" TEXT NOT NULL DEFAULT 'pending',
    "runAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 10,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "lastError" TEXT,
    "rerun" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ApiCall" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "apiVersion" TEXT,
    "at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "RateLimitSlot" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "nextAt" DATETIME NOT NULL,
    "blockedUntil" DATETIME,
    "version" INTEGER NOT NULL DEFAULT 0
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Shop" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "domain" TEXT NOT NULL,
    "installedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" DATETIME,
    "scopes" TEXT,
    "sellerApiKeyCipher" TEXT,
    "sellerApiKeyLast4" TEXT,
    "sellerApiBaseUrl" TEXT,
    "sellerAccount" TEXT,
    "sellerName" TEXT,
    "leadPrefix" TEXT,
    "rateLimitPerMinute" INTEGER,
    "apiVersion" TEXT,
    "keyVerifiedAt" DATETIME,
    "pausedReason" TEXT,
    "pausedAt" DATETIME,
    "settings" TEXT NOT NULL DEFAULT '{}',
    "eventsToken" TEXT NOT NULL,
    "eventsSecretCipher" TEXT,
    "catalogueJson" TEXT,
    "catalogueFetchedAt" DATETIME,
    "citiesJson" TEXT,
    "citiesFetchedAt" DATETIME,
    "lastStatusSyncAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Shop" ("createdAt", "domain", "id", "installedAt", "scopes", "uninstalledAt", "updatedAt") SELECT "createdAt", "domain", "id", "installedAt", "scopes", "uninstalledAt", "updatedAt" FROM "Shop";
DROP TABLE "Shop";
ALTER TABLE "new_Shop" RENAME TO "Shop";
CREATE UNIQUE INDEX "Shop_domain_key" ON "Shop"("domain");
CREATE UNIQUE INDEX "Shop_eventsToken_key" ON "Shop"("eventsToken");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "OrderLink_shop_createdAt_idx" ON "OrderLink"("shop", "createdAt");

-- CreateIndex
CREATE INDEX "OrderLink_shop_state_updatedAt_idx" ON "OrderLink"("shop", "state", "updatedAt");

-- CreateIndex
CREATE INDEX "OrderLink_shop_leadRef_idx" ON "OrderLink"("shop", "leadRef");

-- CreateIndex
CREATE INDEX "OrderLink_shop_phone_idx" ON "OrderLink"("shop", "phone");

-- CreateIndex
CREATE INDEX "OrderLink_shop_orderName_idx" ON "OrderLink"("shop", "orderName");

-- CreateIndex
CREATE INDEX "OrderLink_shop_statusFinal_leadRef_idx" ON "OrderLink"("shop", "statusFinal", "leadRef");

-- CreateIndex
CREATE UNIQUE INDEX "OrderLink_shop_orderId_key" ON "OrderLink"("shop", "orderId");

-- CreateIndex
CREATE INDEX "TimelineEvent_linkId_at_idx" ON "TimelineEvent"("linkId", "at");

-- CreateIndex
CREATE INDEX "TimelineEvent_shop_at_idx" ON "TimelineEvent"("shop", "at");

-- CreateIndex
CREATE UNIQUE INDEX "Job_key_key" ON "Job"("key");

-- CreateIndex
CREATE INDEX "Job_state_runAt_idx" ON "Job"("state", "runAt");

-- CreateIndex
CREATE INDEX "Job_shop_state_idx" ON "Job"("shop", "state");

-- CreateIndex
CREATE INDEX "ApiCall_shop_at_idx" ON "ApiCall"("shop", "at");

