-- CreateTable
CREATE TABLE "AdFeed" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "enabledAt" DATETIME,
    "stage" TEXT NOT NULL DEFAULT 'delivered',
    "naming" TEXT NOT NULL DEFAULT 'custom',
    "negativeOutcomes" BOOLEAN NOT NULL DEFAULT false,
    "withoutConsentSignal" BOOLEAN NOT NULL DEFAULT false,
    "metaDatasetId" TEXT,
    "metaDatasetName" TEXT,
    "metaTokenCipher" TEXT,
    "metaTokenLast4" TEXT,
    "metaVerifiedAt" DATETIME,
    "metaRefusedAt" DATETIME,
    "tiktokPixelCode" TEXT,
    "tiktokTokenCipher" TEXT,
    "tiktokTokenLast4" TEXT,
    "tiktokVerifiedAt" DATETIME,
    "tiktokRefusedAt" DATETIME,
    "pixelToken" TEXT NOT NULL,
    "webPixelId" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "AdEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "linkId" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "occurredAt" DATETIME NOT NULL,
    "day" TEXT NOT NULL,
    "sentAt" DATETIME,
    "customerDataOnly" BOOLEAN NOT NULL DEFAULT false,
    "detail" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "AdClick" (
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "checkoutToken" TEXT,
    "marketing" BOOLEAN NOT NULL,
    "fbp" TEXT,
    "fbc" TEXT,
    "ttclid" TEXT,
    "ttp" TEXT,
    "pageUrl" TEXT,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("shop", "orderId")
);

-- CreateIndex
CREATE UNIQUE INDEX "AdFeed_pixelToken_key" ON "AdFeed"("pixelToken");

-- CreateIndex
CREATE INDEX "AdEvent_shop_state_occurredAt_idx" ON "AdEvent"("shop", "state", "occurredAt");

-- CreateIndex
CREATE INDEX "AdEvent_shop_day_platform_stage_state_idx" ON "AdEvent"("shop", "day", "platform", "stage", "state");

-- CreateIndex
CREATE INDEX "AdEvent_shop_createdAt_idx" ON "AdEvent"("shop", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "AdEvent_shop_linkId_stage_platform_key" ON "AdEvent"("shop", "linkId", "stage", "platform");

