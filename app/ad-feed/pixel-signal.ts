/**
 * The conversion pixel's message (extensions/conversion-pixel/src/signal.ts),
 * checked before anything is stored: a bounded JSON object, an order id, the
 * buyer's marketing choice, and click ids in the platforms' shapes. Anything a
 * browser sends is untrusted. Pure.
 */
import { z } from "zod";

/** A pixel message is a few hundred bytes. */
export const MAX_SIGNAL_BYTES = 4096;

const clickId = z
  .string()
  .max(500)
  .regex(/^[A-Za-z0-9._~-]+$/, "not a click id");

export const pixelSignalSchema = z
  .object({
    v: z.literal(1),
    // Shopify's order id: digits, or a gid ending in them.
    orderId: z
      .string()
      .max(100)
      .regex(/^(?:gid:\/\/shopify\/\w+\/)?\d{1,20}$/, "not an order id"),
    checkoutToken: z.string().max(200).nullable().optional(),
    marketing: z.boolean(),
    fbp: z
      .string()
      .max(200)
      .regex(/^fb\.\d\.\d{10,13}\.\d+$/, "not an _fbp value")
      .optional(),
    fbc: z
      .string()
      .max(600)
      .regex(/^fb\.\d\.\d{10,13}\.[A-Za-z0-9._~-]+$/, "not an _fbc value")
      .optional(),
    ttclid: clickId.optional(),
    ttp: clickId.optional(),
    pageUrl: z.string().url().max(2048).optional(),
  })
  .strict();

export type PixelSignal = z.infer<typeof pixelSignalSchema>;

/** The numeric order id the app keys orders by. */
export const orderIdOf = (signal: PixelSignal): string => /(\d+)$/.exec(signal.orderId)![1];

export type SignalCheck = { ok: true; signal: PixelSignal } | { ok: false; why: string };

export function checkSignal(body: string): SignalCheck {
  if (Buffer.byteLength(body) > MAX_SIGNAL_BYTES) return { ok: false, why: "too large" };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, why: "not JSON" };
  }
  const parsed = pixelSignalSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, why: `${issue.path.join(".") || "body"}: ${issue.message}` };
  }
  // Without consent nothing but the refusal is kept.
  const signal = parsed.data.marketing
    ? parsed.data
    : { v: parsed.data.v, orderId: parsed.data.orderId, checkoutToken: parsed.data.checkoutToken, marketing: false };
  return { ok: true, signal };
}
