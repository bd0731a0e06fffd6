-- CreateTable
CREATE TABLE "AdFeed" (
    "shop" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "enabledAt" TIMESTAMPTZ(3),
    "stage" TEXT NOT NULL DEFAULT 'delivered',
    "naming" TEXT NOT NULL DEFAULT 'custom',
    "negativeOutcomes" BOOLEAN NOT NULL DEFAULT false,
    "withoutConsentSignal" BOOLEAN NOT NULL DEFAULT false,
    "metaDatasetId" TEXT,
    "metaDatasetName" TEXT,
    "metaTokenCipher" TEXT,
    "metaTokenLast4" TEXT,
    "metaVerifiedAt" TIMESTAMPTZ(3),
    "metaRefusedAt" TIMESTAMPTZ(3),
    "tiktokPixelCode" TEXT,
    "tiktokTokenCipher" TEXT,
    "tiktokTokenLast4" TEXT,
    "tiktokVerifiedAt" TIMESTAMPTZ(3),
    "tiktokRefusedAt" TIMESTAMPTZ(3),
    "pixelToken" TEXT NOT NULL,
    "webPixelId" TEXT,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "AdFeed_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "AdEvent" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "linkId" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "occurredAt" TIMESTAMPTZ(3) NOT NULL,
    "day" TEXT NOT NULL,
    "sentAt" TIMESTAMPTZ(3),
    "customerDataOnly" BOOLEAN NOT NULL DEFAULT false,
    "detail" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AdEvent_pkey" PRIMARY KEY ("id")
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
    "receivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AdClick_pkey" PRIMARY KEY ("shop","orderId")
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

