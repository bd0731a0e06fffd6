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
  "settings.odds.title": "Delivery odds",
  "settings.odds.help":
    "Before an order is sent, the app scores its chance of being delivered and paid from your shop's own outcomes (the customer's record, the city, the products, the amount) and weighs it against the money: the margin if delivered, the fee out and back if refused. The score and its reasons show on every order, in Shopify's risk panel and in Flow.",
  "settings.odds.policy": "Before sending an order",
  "settings.odds.policy.send_all": "Send every order",
  "settings.odds.policy.send_all.help": "The odds are shown; nothing is held.",
  "settings.odds.policy.hold_below": "Hold orders under a delivery probability",
  "settings.odds.policy.hold_below.help": "Held orders wait for you: call the customer, then send or cancel.",
  "settings.odds.policy.hold_negative_value": "Hold orders that are expected to lose money",
  "settings.odds.policy.hold_negative_value.help":
    "Held when the chance of delivery times the margin is worth less than the chance of refusal times the fees and your cost.",
  "settings.odds.minPercent": "Hold under",
  "settings.odds.refusalCost": "Your own cost of a failed order",
  "settings.odds.refusalCost.help": "Packing, the call, the product's wear: added to the platform's fee out and back.",
  "settings.odds.flowTrigger": 'Flow trigger "Delivery odds scored"',
  "settings.odds.model.prior":
    "No settled order of yours yet: the odds start from a default drawn from published COD figures and learn from your orders as they settle.",
  "settings.odds.model.fitted":
    "{count, plural, one {Learned from # settled order of your shop} other {Learned from # settled orders of your shop}} on {date}.",
  "settings.odds.model.quality":
    "On its latest {count, plural, one {order} other {# orders}}: AUC {auc} (0.5 is a coin), Brier score {brier} (lower is better).",
  "odds.fact.probability": "Delivery odds {probability}% (your shop delivers {shopRate}%)",
  "odds.fact.value":
    "Expected value of sending: {value} ({margin} margin if delivered, {loss} lost on average if it fails)",
  "odds.fact.released": "Released by the merchant from its delivery-odds hold",
  "odds.fact.valueUnknown": "Expected value unknown: a product's price or the city's delivery fee is missing",
  "activity.jobKind.odds-fit": "Learn the delivery odds",
  "activity.jobKind.risk-assessment": "Write the risk to the Shopify order",
  "timeline.risk_assessed": "Shopify risk panel",
  "odds.timeline.assessed": "Delivery odds written to the order's risk panel in Shopify: {level}",
  "odds.level.high": "high risk",
  "odds.level.medium": "medium risk",
  "odds.level.low": "low risk",
  "odds.card.title": "Delivery odds",
  "odds.card.chance": "chance of being delivered and paid",
  "odds.card.shopRate": "Your shop delivers {rate} of the orders it sends.",
  "odds.card.value": "Expected value of sending: {value}",
  "odds.card.valueDetail":
    "{margin} margin if delivered, {loss} lost on average if it fails (the fee out and back when the parcel comes back, your cost).",
  "odds.card.valueUnknown": "Expected value unknown: a product's price or the city's delivery fee is missing.",
  "odds.card.reasons": "Why",
  "odds.card.noReason": "Nothing in this order stands out: it gets your shop's usual odds.",
  "odds.card.model.prior": "Default odds: your shop has no settled order yet.",
  "odds.card.model.fitted":
    "{count, plural, one {Learned from # settled order of your shop.} other {Learned from # settled orders of your shop.}}",
  "odds.release.title": "What would send it",
  "odds.release.at": "It would be sent from {probability} delivery odds.",
  "odds.release.never": "Sending it loses money even when delivered (margin {margin}).",
  "odds.release.how": "Call the customer to confirm, trust the phone or send it anyway.",
  "odds.badge.held": "Held",
  "odds.badge.loss": "Sends at a loss",
  "odds.badge.below": "Below usual",
  "odds.badge.usual": "Usual odds",
  "orders.column.odds": "Delivery odds",
  "odds.list.value": "Value {value}",
  "timeline.odds_hold": "Held: delivery odds",
  "odds.held.title": "Held because of its delivery odds",
  "odds.badge.cancelled": "Cancelled",
  "odds.badge.refunded": "Refunded",
  "odds.stop.title.cancelled": "Nothing to gain: cancelled in Shopify",
  "odds.stop.title.refunded": "Nothing to gain: refunded in Shopify",
  "odds.stop.before":
    "Stop its lead before the parcel leaves: if it goes and comes back, the trip out and back costs {cost} ({fee} each way).",
  "odds.stop.shipped":
    "Its parcel has left: have it brought back; the trip out and back costs {cost} ({fee} each way).",
  "odds.stop.feeUnknown": "If its parcel goes and comes back, you pay the city's delivery fee twice (out and back).",
  "odds.stop.before.own":
    "Stop its lead before the parcel leaves: if it goes and comes back, it costs you {cost}: the trip out and back ({fee} each way) and your own cost of a failed order ({own}).",
  "odds.stop.shipped.own":
    "Its parcel has left: have it brought back; it costs you {cost}: the trip out and back ({fee} each way) and your own cost of a failed order ({own}).",
  "odds.stop.feeUnknown.own":
    "If its parcel goes and comes back, you pay the city's delivery fee twice (out and back), plus your own cost of a failed order ({own}).",
  "odds.cancelled": "Cancelled in Shopify before it was sent: it will not be sent, nothing to gain or lose.",
  "odds.settled.estimate": "estimated before sending",
  "odds.settled.outcome": "Outcome: {outcome}.",
  "odds.list.stop": "Nothing to gain: stop the parcel",
  "odds.list.cancelled": "Will not be sent",
  "odds.fact.stop.cancelled": "Cancelled in Shopify after its lead was sent: nothing to gain from delivering it",
  "odds.fact.stop.refunded": "Refunded in Shopify after its lead was sent: nothing to gain from delivering it",
  "odds.fact.stopCost":
    "Stop its lead in the platform's seller space: a parcel out and back costs {cost} ({fee} each way)",
  "odds.fact.stopCostUnknown":
    "Stop its lead in the platform's seller space: a parcel out and back costs the city's delivery fee twice",
  "odds.fact.stopCost.own":
    "Stop its lead in the platform's seller space: a parcel out and back costs you {cost} ({fee} each way and your own cost of a failed order, {own})",
  "odds.fact.stopCostUnknown.own":
    "Stop its lead in the platform's seller space: a parcel out and back costs the city's delivery fee twice, plus your own cost of a failed order ({own})",
  "odds.fact.cancelled": "Cancelled in Shopify before it was sent: it will not be sent",
  "odds.level.none": "no recommendation",
} as const;
