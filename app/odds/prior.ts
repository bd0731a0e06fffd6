/**
 * The pooled default a shop starts from: the coefficients the fit pulls each
 * shop's own towards (an L2 penalty around them), so a shop with few settled
 * orders gets these odds and one with thousands gets its own. Set from published
 * figures, not from any merchant's data (no score crosses from one merchant to
 * another); docs/decisions/0023-delivery-odds.md gives the sources. Pure.
 */
import type { Feature } from "./features";

export const PRIOR = {
  /**
   * Share of sent COD orders delivered: MyLeadDone reports 30-40 % with weak
   * confirmation and 65-80 % with good; the sandbox's autopilot delivers 62 %.
   */
  deliveryRate: 0.6,
  /** Log-odds of an order whose features are all 0 (a known customer with nothing settled yet). */
  intercept: 0.6,
  coefficients: {
    // A delivered order before: the customer pays at the door (log(1+n) per delivery).
    customer_delivered: 0.7,
    // A refusal or return before: the strongest signal every COD risk tool uses (blacklists, RTO scores).
    customer_failed: -1.0,
    // The phone was a wrong number before: the platform's callers will not reach the customer.
    wrong_number: -1.5,
    // First order from the phone: repeat customers deliver more (CODRocket, Cashod's CRM).
    first_order: -0.3,
    // Several orders in a day: COD "abuse" orders several and accepts one.
    recent_orders: -0.7,
    // The city's and products' features are already log-odds against the shop: 1 trusts them as counted.
    city: 1.0,
    product: 1.0,
    // Dearer orders are refused more (Shipway's ShipNotes FY25 on COD orders by value).
    amount: -0.3,
    quantity: -0.2,
    // Incomplete addresses make parcels come back (CODRocket's confirmation scripts).
    address: -0.4,
  } satisfies Record<Feature, number>,
  /** Of failed orders, the share returned at the door rather than stopped on the call (the sandbox: 13 of 38). */
  returnShare: 0.35,
  /**
   * How hard the fit pulls towards the prior: an L2 penalty of this weight on
   * each coefficient's distance from it (about 40 settled orders' worth of
   * evidence at even odds); the intercept is nearly free.
   */
  penalty: 10,
  interceptPenalty: 1,
} as const;
