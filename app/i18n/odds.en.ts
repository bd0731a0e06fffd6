/**
 * English messages of the delivery odds (the order page, the Orders list, the
 * hold reason, Settings), spread into en.ts. odds.fr.ts has the same keys.
 */
export const oddsEn = {
  "odds.reason.customer_delivered": "{count, plural, one {Received # earlier order} other {Received # earlier orders}}",
  "odds.reason.customer_failed":
    "{count, plural, one {Refused, returned or cancelled # earlier order} other {Refused, returned or cancelled # earlier orders}}",
  "odds.reason.wrong_number": "This phone was a wrong number before",
  "odds.reason.first_order": "First order from this phone",
  "odds.reason.recent_orders":
    "{count, plural, one {# other order from this phone in the last 24 hours} other {# other orders from this phone in the last 24 hours}}",
  "odds.reason.city": "{city}: {rate}% delivered in your shop (all cities {shopRate}%)",
  "odds.reason.product": "{product}: {rate}% delivered in your shop (all products {shopRate}%)",
  "odds.reason.amount": "Amount {amount}, your usual order is {usual}",
  "odds.reason.quantity": "{count, plural, one {# item} other {# items in one order}}",
  "odds.reason.address": "Short or incomplete address",
  "odds.effect.raises": "Raises the odds",
  "odds.effect.lowers": "Lowers the odds",
  "odds.hold.below": "Delivery odds {probability}%, under your {threshold}%",
  "odds.hold.negative": "Delivery odds {probability}%, under the {threshold}% where sending pays for itself",
  "odds.hold.neverPays": "Delivery odds {probability}%: sending loses money even when delivered",
  "odds.release.at": "It would be sent from {probability}% delivery odds.",
  "odds.release.never": "Sending it loses money even when delivered (margin {margin}).",
  "odds.release.how": "Call the customer to confirm, trust the phone or send it anyway.",
} as const;
