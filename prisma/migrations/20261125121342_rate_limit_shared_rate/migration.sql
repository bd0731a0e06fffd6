-- AlterTable
ALTER TABLE "RateLimitSlot" ADD COLUMN "ratePerMinute" INTEGER;
ALTER TABLE "RateLimitSlot" ADD COLUMN "rateReadAt" DATETIME;

