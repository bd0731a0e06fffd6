-- AlterTable
ALTER TABLE "RateLimitSlot" ADD COLUMN     "ratePerMinute" INTEGER,
ADD COLUMN     "rateReadAt" TIMESTAMPTZ(3);

