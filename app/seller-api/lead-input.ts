/**
 * The body of POST /v1/leads, validated before any call is made: a bad input
 * costs no request and names the offending field, as a 422 from the platform would.
 */
import { z } from "zod";

/** Two-decimal amount as the contract writes it ("149.00"). Never a float. */
export const decimalString = z
  .string()
  .regex(/^\d{1,9}\.\d{2}$/, 'must be a decimal string with two decimals, e.g. "149.00"');

/** Moroccan mobile phone in the only form the platform accepts: 06xxxxxxxx or 07xxxxxxxx. */
export const moroccanMobile = z
  .string({ required_error: "is required" })
  .regex(/^0[67]\d{8}$/, "must be a Moroccan mobile number of 10 digits starting 06 or 07");

const quantity = z.number().int("must be an integer").positive("must be at least 1");

/**
 * One item: a quantity and exactly one of sku / product_id. Checked field by field
 * (not as a zod union) so the error names `items[1].quantity` rather than `items[1]`.
 */
export const leadItemSchema = z
  .object({
    sku: z.string().trim().min(1, "must not be empty").optional(),
    product_id: z.number().int("must be an integer").positive("must be a positive integer").optional(),
    quantity,
  })
  .superRefine((item, ctx) => {
    if ((item.sku === undefined) === (item.product_id === undefined)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "must have exactly one of sku or product_id" });
    }
  })
  .transform((item): LeadItem =>
    item.sku !== undefined
      ? { sku: item.sku, quantity: item.quantity }
      : { product_id: item.product_id as number, quantity: item.quantity },
  );

export type LeadItem =
  { sku: string; quantity: number; product_id?: undefined } | { product_id: number; quantity: number; sku?: undefined };

/** Optional text: null is read as absent, so a mapper may pass either. */
const optionalText = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);

export const leadInputSchema = z.object({
  customer_name: z.string({ required_error: "is required" }).trim().min(1, "is required"),
  customer_phone: moroccanMobile,
  city: z
    .union([z.string().trim().min(1, "must not be empty"), z.number().int().positive()], {
      errorMap: () => ({ message: "must be a city name or a positive city id" }),
    })
    .nullish()
    .transform((v) => v ?? undefined),
  address: optionalText,
  total_client: decimalString.nullish().transform((v) => v ?? undefined),
  items: z.array(leadItemSchema, { required_error: "is required" }).min(1, "must hold at least one item"),
  external_ref: optionalText,
});

export type LeadInput = z.infer<typeof leadInputSchema>;

export type LeadInputCheck = { ok: true; value: LeadInput } | { ok: false; field: string; message: string };

/** Validates a lead body; on failure names the first offending field ("items[1].quantity"). */
export function checkLeadInput(input: unknown): LeadInputCheck {
  const parsed = leadInputSchema.safeParse(input);
  if (parsed.success) return { ok: true, value: stripUndefined(parsed.data) };
  const issue = parsed.error.issues[0];
  const field = formatPath(issue.path);
  return { ok: false, field, message: `${field} ${issue.message}` };
}

/** The body sent on the wire: absent optional fields are left out rather than sent as undefined. */
function stripUndefined(input: LeadInput): LeadInput {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as LeadInput;
}

function formatPath(path: (string | number)[]): string {
  return (
    path.reduce<string>(
      (acc, part) => (typeof part === "number" ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part),
      "",
    ) || "body"
  );
}
