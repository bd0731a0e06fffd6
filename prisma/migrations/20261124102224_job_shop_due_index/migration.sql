-- DropIndex
DROP INDEX "Job_shop_state_idx";

-- CreateIndex
CREATE INDEX "Job_shop_state_runAt_idx" ON "Job"("shop", "state", "runAt");

