/**
 * A shop wired to a real sandbox over loopback and a real SQLite file: its
 * sealed key, the pipeline's handlers and a worker to drain the queue.
 */
import type { PrismaClient } from "@prisma/client";
import { createSecretBox } from "../../app/crypto/secret-box.server";
import { createWorker } from "../../app/queue/worker.server";
import type { JobHandlers } from "../../app/queue/types";
import { createJobHandlers } from "../../app/sync/job-handlers.server";
import { createPipelineDeps, type PipelineDeps } from "../../app/sync/pipeline-deps.server";
import type { AdminFor } from "../../app/sync/write-back-task.server";

export const SHOP = "atlas-beauty.myshopify.com";

export async function connectTestShop(
  db: PrismaClient,
  options: { shop?: string; apiKey: string; baseUrl: string; settings?: Record<string, unknown> },
) {
  const box = createSecretBox(process.env.ENCRYPTION_KEY!);
  return db.shop.upsert({
    where: { domain: options.shop ?? SHOP },
    create: {
      domain: options.shop ?? SHOP,
      sellerApiKeyCipher: box.seal(options.apiKey, { shop: options.shop ?? SHOP, purpose: "seller-api-key" }),
      sellerApiKeyLast4: options.apiKey.slice(-4),
      sellerApiBaseUrl: options.baseUrl,
      keyVerifiedAt: new Date(),
      settings: JSON.stringify(options.settings ?? {}),
    },
    update: {
      sellerApiKeyCipher: box.seal(options.apiKey, { shop: options.shop ?? SHOP, purpose: "seller-api-key" }),
      sellerApiBaseUrl: options.baseUrl,
      settings: JSON.stringify(options.settings ?? {}),
      pausedReason: null,
    },
  });
}

export interface TestPipeline {
  deps: PipelineDeps;
  handlers: JobHandlers;
  /** Runs due jobs until none is left; returns how many ran. */
  drain(options?: { timeoutMs?: number; kinds?: string[] }): Promise<number>;
}

/** No write-back to Shopify unless a test passes an Admin client. */
const noAdmin: AdminFor = async () => {
  throw new Error("no Shopify Admin API in this test");
};

export function testPipeline(db: PrismaClient, options: { adminFor?: AdminFor; clock?: () => Date } = {}): TestPipeline {
  const deps = createPipelineDeps(db, { clock: options.clock, timeoutMs: 5_000 });
  const handlers = createJobHandlers({ ...deps, adminFor: options.adminFor ?? noAdmin });
  return {
    deps,
    handlers,
    async drain({ timeoutMs = 20_000, kinds } = {}) {
      const worker = createWorker({
        db,
        handlers,
        kinds,
        logger: { info: () => {}, warn: () => {}, error: () => {} },
        backoff: { baseMs: 1, capMs: 5 },
      });
      return worker.drain({ timeoutMs });
    },
  };
}
