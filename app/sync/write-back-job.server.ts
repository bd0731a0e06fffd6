import type { EnqueueJobInput } from "../queue/jobs.server";

export const WRITE_BACK_JOB = "write-back";

export function writeBackJobFor(shop: string, orderId: string, linkId: string): EnqueueJobInput {
  return { kind: WRITE_BACK_JOB, key: `${WRITE_BACK_JOB}:${shop}:${orderId}`, shop, payload: { linkId } };
}
