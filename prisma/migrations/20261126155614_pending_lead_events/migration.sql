-- CreateTable
CREATE TABLE "PendingLeadEvent" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "linkId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "PendingLeadEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PendingLeadEvent_shop_id_idx" ON "PendingLeadEvent"("shop", "id");

