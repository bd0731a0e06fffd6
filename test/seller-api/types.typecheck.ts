/**
 * Compile-time checks of the exported types (run by `tsc --noEmit`, not by vitest):
 * money stays a string, optional record fields are optional, results are discriminated.
 */
import { expectTypeOf } from "vitest";
import type {
  Account,
  CreateLeadResult,
  LeadDetail,
  LeadInput,
  LeadSummary,
  Product,
} from "../../app/seller-api/index";

expectTypeOf<LeadSummary["total_client"]>().toEqualTypeOf<string | null>();
expectTypeOf<LeadDetail["seller_profit"]>().toEqualTypeOf<string | null>();
expectTypeOf<LeadDetail["tracking_number"]>().toEqualTypeOf<string | null>();
expectTypeOf<Product["platform_price"]>().toEqualTypeOf<string>();
expectTypeOf<Account["rate_limit_per_minute"]>().toEqualTypeOf<number>();
expectTypeOf<LeadSummary["confirmation_status"]>().toEqualTypeOf<string>();
expectTypeOf<Extract<CreateLeadResult, { kind: "created" }>["ref"]>().toEqualTypeOf<string>();
expectTypeOf<Extract<CreateLeadResult, { kind: "damaged" }>["ref"]>().toEqualTypeOf<string | undefined>();
expectTypeOf<{
  customer_name: string;
  customer_phone: string;
  items: { sku: string; quantity: number }[];
}>().toMatchTypeOf<LeadInput>();
expectTypeOf<{
  customer_name: string;
  customer_phone: string;
  items: { product_id: number; quantity: number }[];
  city: number;
}>().toMatchTypeOf<LeadInput>();
