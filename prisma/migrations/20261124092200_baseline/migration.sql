-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" TIMESTAMPTZ(3),
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN,
    "locale" TEXT,
    "collaborator" BOOLEAN,
    "emailVerified" BOOLEAN,
    "refreshToken" TEXT,
    "refreshTokenExpires" TIMESTAMPTZ(3),

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Shop" (
    "id" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "installedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" TIMESTAMPTZ(3),
    "scopes" TEXT,
    "sellerApiKeyCipher" TEXT,
    "sellerApiKeyLast4" TEXT,
    "sellerApiBaseUrl" TEXT,
    "sellerAccount" TEXT,
    "sellerName" TEXT,
    "leadPrefix" TEXT,
    "rateLimitPerMinute" INTEGER,
    "apiVersion" TEXT,
    "keyVerifiedAt" TIMESTAMPTZ(3),
    "pausedReason" TEXT,
    "pausedAt" TIMESTAMPTZ(3),
    "settings" TEXT NOT NULL DEFAULT '{}',
    "eventsToken" TEXT NOT NULL,
    "eventsSecretCipher" TEXT,
    "catalogueJson" TEXT,
    "catalogueFetchedAt" TIMESTAMPTZ(3),
    "citiesJson" TEXT,
    "citiesFetchedAt" TIMESTAMPTZ(3),
    "lastStatusSyncAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Shop_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderLink" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "payloadAt" TIMESTAMPTZ(3),
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
    "productKeys" TEXT NOT NULL DEFAULT '[]',
    "overrides" TEXT NOT NULL DEFAULT '{}',
    "flags" TEXT NOT NULL DEFAULT '[]',
    "confirmationStatus" TEXT,
    "shippingStatus" TEXT,
    "trackingNumber" TEXT,
    "sellerProfit" TEXT,
    "statusFinal" BOOLEAN NOT NULL DEFAULT false,
    "statusCheckedAt" TIMESTAMPTZ(3),
    "postingSince" TIMESTAMPTZ(3),
    "postedAt" TIMESTAMPTZ(3),
    "postCount" INTEGER NOT NULL DEFAULT 0,
    "resendBy" TEXT,
    "resendAt" TIMESTAMPTZ(3),
    "cancelledAt" TIMESTAMPTZ(3),
    "writtenBack" TEXT NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "OrderLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TimelineEvent" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "linkId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "data" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TimelineEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "shop" TEXT,
    "payload" TEXT NOT NULL DEFAULT '{}',
    "state" TEXT NOT NULL DEFAULT 'pending',
    "runAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 10,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMPTZ(3),
    "lastError" TEXT,
    "rerun" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiCall" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "apiVersion" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ApiCall_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RateLimitSlot" (
    "key" TEXT NOT NULL,
    "nextAt" TIMESTAMPTZ(3) NOT NULL,
    "blockedUntil" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RateLimitSlot_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SkuMapping" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "sourceKind" TEXT NOT NULL,
    "sourceKey" TEXT NOT NULL,
    "targets" TEXT NOT NULL,
    "label" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SkuMapping_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CityAlias" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "alias" TEXT NOT NULL,
    "cityId" INTEGER NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'manual',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CityAlias_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DataRequest" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "customerId" TEXT,
    "orderIds" TEXT NOT NULL DEFAULT '[]',
    "held" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DataRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FlowTriggerUsage" (
    "shop" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "hasEnabledFlow" BOOLEAN NOT NULL,
    "notifiedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "FlowTriggerUsage_pkey" PRIMARY KEY ("shop","handle")
);

-- CreateTable
CREATE TABLE "AnalyticsLead" (
    "linkId" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "cityId" INTEGER NOT NULL,
    "productKeys" TEXT NOT NULL DEFAULT '[]',
    "statusGroup" TEXT,
    "totalCents" BIGINT NOT NULL DEFAULT 0,
    "profitCents" BIGINT NOT NULL DEFAULT 0,
    "deliveredDay" TEXT,

    CONSTRAINT "AnalyticsLead_pkey" PRIMARY KEY ("linkId")
);

-- CreateTable
CREATE TABLE "AnalyticsDaily" (
    "shop" TEXT NOT NULL,
    "grain" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "cityId" INTEGER NOT NULL,
    "productKey" TEXT NOT NULL,
    "statusGroup" TEXT NOT NULL,
    "deliveryDays" INTEGER NOT NULL,
    "orders" INTEGER NOT NULL DEFAULT 0,
    "totalCents" BIGINT NOT NULL DEFAULT 0,
    "profitCents" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "AnalyticsDaily_pkey" PRIMARY KEY ("shop","grain","day","cityId","productKey","statusGroup","deliveryDays")
);

-- CreateTable
CREATE TABLE "CustomerLead" (
    "linkId" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "phoneKey" TEXT NOT NULL,
    "customerId" TEXT,
    "orderName" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "outcomeAt" TIMESTAMPTZ(3) NOT NULL,
    "amountCents" INTEGER NOT NULL DEFAULT 0,
    "orderedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CustomerLead_pkey" PRIMARY KEY ("linkId")
);

-- CreateTable
CREATE TABLE "CustomerRecord" (
    "shop" TEXT NOT NULL,
    "phoneKey" TEXT NOT NULL,
    "customerId" TEXT,
    "orders" INTEGER NOT NULL DEFAULT 0,
    "delivered" INTEGER NOT NULL DEFAULT 0,
    "returned" INTEGER NOT NULL DEFAULT 0,
    "refused" INTEGER NOT NULL DEFAULT 0,
    "cancelled" INTEGER NOT NULL DEFAULT 0,
    "wrongNumber" INTEGER NOT NULL DEFAULT 0,
    "inProgress" INTEGER NOT NULL DEFAULT 0,
    "lastOutcome" TEXT,
    "lastOutcomeAt" TIMESTAMPTZ(3),
    "collectedCents" BIGINT NOT NULL DEFAULT 0,
    "firstOrderAt" TIMESTAMPTZ(3),
    "lastOrderAt" TIMESTAMPTZ(3),
    "standing" TEXT,

    CONSTRAINT "CustomerRecord_pkey" PRIMARY KEY ("shop","phoneKey")
);

-- CreateIndex
CREATE INDEX "Session_shop_idx" ON "Session"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "Shop_domain_key" ON "Shop"("domain");

-- CreateIndex
CREATE UNIQUE INDEX "Shop_eventsToken_key" ON "Shop"("eventsToken");

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

-- CreateIndex
CREATE INDEX "WebhookDelivery_shop_idx" ON "WebhookDelivery"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "SkuMapping_shop_sourceKind_sourceKey_key" ON "SkuMapping"("shop", "sourceKind", "sourceKey");

-- CreateIndex
CREATE UNIQUE INDEX "CityAlias_shop_alias_key" ON "CityAlias"("shop", "alias");

-- CreateIndex
CREATE INDEX "DataRequest_shop_createdAt_idx" ON "DataRequest"("shop", "createdAt");

-- CreateIndex
CREATE INDEX "AnalyticsLead_shop_idx" ON "AnalyticsLead"("shop");

-- CreateIndex
CREATE INDEX "CustomerLead_shop_phoneKey_outcomeAt_idx" ON "CustomerLead"("shop", "phoneKey", "outcomeAt");

-- CreateIndex
CREATE INDEX "CustomerRecord_shop_customerId_idx" ON "CustomerRecord"("shop", "customerId");

