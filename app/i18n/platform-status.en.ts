/**
 * English names of the platform's statuses, one for each status of
 * app/vocabulary/platform-status.ts (the compiler asks for a new one's). The app's
 * pages and the order-page extensions both read them. Spread into en.ts.
 */
import type { ConfirmationStatus, ShippingStatus } from "../vocabulary/platform-status";

export type PlatformStatusKey = `confirmation.${ConfirmationStatus}` | `shipping.${ShippingStatus}`;

export const platformStatusEn = {
  "confirmation.new": "New",
  "confirmation.callback": "Call back",
  "confirmation.no_answer_1": "No answer (1)",
  "confirmation.no_answer_2": "No answer (2)",
  "confirmation.no_answer_3": "No answer (3)",
  "confirmation.confirmed": "Confirmed",
  "confirmation.canceled": "Cancelled",
  "confirmation.wrong": "Wrong number",
  "confirmation.fake": "Fake order",
  "confirmation.duplicate": "Duplicate",
  "shipping.pending": "Not shipped",
  "shipping.picked_up": "Picked up",
  "shipping.shipped": "Shipped",
  "shipping.delivered": "Delivered",
  "shipping.returned": "Returned",
  "shipping.canceled": "Cancelled",
  "shipping.paid": "Paid",
} satisfies Record<PlatformStatusKey, string>;
