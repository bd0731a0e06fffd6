/**
 * The platform's statuses as zod enums (from platform-status.ts), and the two
 * fields as the Seller API client parses them: a listed status parses into its
 * enum; any other string is kept as it came, because the platform may add a
 * status before the app lists it and the lead's update must not be lost. Kept
 * apart from the table so the order-page extensions' bundle holds no zod.
 */
import { z } from "zod";
import { CONFIRMATION_STATUSES, SHIPPING_STATUSES } from "./platform-status";

export const confirmationStatusEnum = z.enum(CONFIRMATION_STATUSES);
export const shippingStatusEnum = z.enum(SHIPPING_STATUSES);

/** A status this app does not list yet: shown verbatim, read as meaning nothing yet. */
const unlistedStatus = z.string();

export const confirmationStatusField = z.union([confirmationStatusEnum, unlistedStatus]);
export const shippingStatusField = z.union([shippingStatusEnum, unlistedStatus]);
