/**
 * English messages of the order page's next action: the stepper, the banner that
 * says what the order needs now, and the confirmations before anything that makes
 * a second lead or cancels an order. Spread into en.ts.
 */
export const orderPageEn = {
  "order.stepper.title": "Where it stands",
  "order.step.received": "Received",
  "order.step.sent": "Sent",
  "order.step.confirmed": "Confirmed",
  "order.step.shipped": "Shipped",
  "order.step.delivered": "Delivered",
  "order.step.done": "done",
  "order.step.notYet": "not yet",
  "order.stopped.held": "Stopped before sending: held for you (see below).",
  "order.stopped.refused": "Stopped: the platform refused the lead.",
  "order.stopped.failed": "Stopped: sending failed after every retry.",
  "order.stopped.skipped": "Not sent: not a cash-on-delivery order (or a test order).",
  "order.stopped.cancelled_in_shopify": "Stopped: cancelled in Shopify.",
  "order.stopped.cancelled_on_call": "Stopped: cancelled on the confirmation call.",
  "order.stopped.parcel_cancelled": "Stopped: the parcel was cancelled.",
  "order.stopped.returned": "Stopped: the parcel was refused at the door or returned.",
  "order.action.send": "Send",
  "order.action.retry": "Try sending again",

  "next.fix.title": "Held: {problem}",
  "next.fix.body": "Fix it below: once nothing holds the order, it is sent.",
  "next.send.title": "Ready to send",
  "next.sendAnyway.body": "Call or write to the customer first: send it anyway only if they confirm.",
  "next.retry.title": "Sending failed",
  "next.retry.body":
    "The platform could not be reached after every retry. Try again: if an earlier attempt reached it, the app finds that lead instead of making a second one.",
  "next.refused.title": "Refused by the platform",
  "next.refused.fix.phone":
    "Type the customer's mobile (06 or 07) in the correction form of this page: the order is then sent again.",
  "next.refused.fix.city":
    "Correct the city in Shopify, or teach the app this spelling in Mappings, then send the order again.",
  "next.refused.fix.items":
    "Map the product to one of the platform's catalogue in Mappings, then send the order again.",
  "next.refused.fix.total": "Correct the order's total in Shopify, then send the order again.",
  "next.refused.fix.name": "Add the customer's name to the order in Shopify, then send it again.",
  "next.refused.fix.address": "Correct the address in the correction form of this page: the order is then sent again.",
  "next.refused.fix.other": "Correct the order in Shopify, then send it again.",
  "next.duplicate.title": "The platform flagged this lead as a recent duplicate",
  "next.duplicate.repeats": "It repeats lead {ref}.",
  "next.duplicate.openEarlier": "Open order {name}",
  "next.duplicate.repeatsUnknown": "The platform did not say which lead it repeats.",
  "next.duplicate.body": "Decide: keep both if the customer really ordered twice, or cancel this order in Shopify.",
  "next.duplicate.sellerSpace":
    "Either way, lead {ref} itself can only be cancelled or released in your platform's seller space: the app cannot change a lead on the platform.",
  "next.duplicate.keep": "Keep both",
  "next.duplicate.cancel": "Cancel this order in Shopify",
  "next.cancelledLead.title": "Cancelled in Shopify, but the lead lives on",
  "next.cancelledLead.body":
    "Lead {ref} is still on the platform: cancel it in your platform's seller space, or the customer may still be called and the parcel shipped.",
  "next.flagged.title": "The platform flagged this lead",
  "next.flagged.waits":
    "The platform stored lead {ref} and waits for its correction in its seller space: the app cannot change a lead on the platform.",
  "next.flagged.options": "Your options:",
  "next.flagged.option.sellerSpace":
    "Correct the lead in your platform's seller space (the amount, the product or the city).",
  "next.flagged.option.mapProduct": "Map the product in Mappings, so the next orders are sent right.",
  "next.flagged.option.learnCity": "Teach the app this city's spelling in Mappings, so the next orders are sent right.",
  "next.flagged.option.cancel": "Or cancel the order in Shopify and the lead in the seller space.",
  "next.flagged.option.newLead":
    "Or, once the order is corrected, send a new lead: a second lead will then exist beside this one.",
  "next.flagged.newLead": "Send a new lead",
  "next.stale.title":
    "{days, plural, one {Placed # day ago: send it knowingly} other {Placed # days ago: send it knowingly}}",
  "next.stale.body":
    "It was placed on {date}, longer ago than your limit of {limit, plural, one {# day} other {# days}}, so the app does not send it by itself. {amount} to collect.",
  "next.stale.call":
    "The customer may no longer expect it: call or write first, then send it only if they still want it. A refused parcel costs you its delivery and its return.",
  "next.stopLead.title.cancelled": "Cancelled in Shopify, but its parcel is still on its way",
  "next.stopLead.title.refunded": "Refunded in Shopify, but its parcel is still on its way",
  "next.stopLead.title.edited": "Edited in Shopify after sending: the lead says otherwise",
  "next.stopLead.what.cancelled":
    "The order was cancelled in Shopify after its lead {ref} was sent. The platform does not know: its call centre may confirm it and the carrier deliver it.",
  "next.stopLead.what.refunded":
    "The order was refunded in Shopify after its lead {ref} was sent. The platform does not know: the carrier may still deliver it and collect.",
  "next.stopLead.what.edited":
    "The items, amount or address changed in Shopify after the lead {ref} was sent: the lead still carries the old ones.",
  "next.stopLead.cost":
    "If nothing is done: {fee} of delivery (the platform's fee for this city), and its return fee when the customer refuses the parcel.",
  "next.stopLead.costUnknown":
    "If nothing is done: the delivery fee, and the return fee when the customer refuses the parcel.",
  "next.stopLead.way":
    "Only your platform's seller space can cancel the lead {ref}: its API lets no app cancel a lead. Cancel it there, then mark this as settled.",
  "next.stopLead.wayEdited":
    "Only your platform's seller space can correct the lead {ref}: its API lets no app edit a lead. Correct it (or cancel it and send the order again), then mark this as settled.",
  "next.stopLead.open": "Open lead {ref} in the seller space",
  "next.stopLead.noAddress": "Add your seller space's address in",
  "next.stopLead.settled": "Done in the seller space",
  "order.stale.confirm.title": "Send this old order?",
  "order.stale.confirm.body":
    "{name} was placed {days, plural, one {# day} other {# days}} ago ({amount} to collect), longer ago than your limit of {limit, plural, one {# day} other {# days}}.",
  "order.stale.confirm": "Send it knowingly",
  "order.settled": "Marked as settled",
  "next.wait.title": "On its way",
  "next.wait.body": "The app is sending this order to the platform: nothing to do.",
  "next.kept.title": "You kept both leads",
  "next.kept.body":
    "If the platform still holds this lead for its duplicate warning, release it in your platform's seller space.",

  "order.secondLead.title": "Send a second lead?",
  "order.secondLead.body":
    "Lead {ref} already exists on the platform for this order. Sending the order again creates a second lead: the customer may be called twice and two parcels shipped.",
  "order.secondLead.sellerSpace":
    "The first lead stays on the platform: only your platform's seller space can cancel it.",
  "order.secondLead.confirm": "Send a second lead",
  "order.sendAnyway.title": "Send this order anyway?",
  "order.sendAnyway.body":
    "The order goes to the platform despite this customer's record. Their next orders are checked again.",
  "order.cancelDuplicate.title": "Cancel order {name} in Shopify?",
  "order.cancelDuplicate.body":
    "The order is cancelled in Shopify and its items restocked; the customer is not notified and nothing is refunded (nothing was paid).",
  "order.cancelDuplicate.lead":
    "Lead {ref} stays on the platform: cancel it in your platform's seller space, the app cannot.",
  "order.cancelDuplicate.confirm": "Cancel the order in Shopify",
  "order.duplicate.kept": "Both leads kept",
  "order.duplicate.cancelled": "Order cancelled in Shopify: now cancel its lead in the seller space",
  "order.duplicate.shopifyFailed":
    "Shopify could not cancel the order just now. Try again in a moment, or cancel it from Shopify's order page.",

  "bulk.title": "{count, plural, one {Send {orders} order?} other {Send {orders} orders?}}",
  "bulk.confirm": "{count, plural, one {Send {orders} order} other {Send {orders} orders}}",
  "bulk.summary": "{count, plural, one {{orders} order} other {{orders} orders}}, {amount} to collect.",
  "bulk.summaryOldest":
    "{count, plural, one {{orders} order} other {{orders} orders}}, {amount} to collect; the oldest was placed {age} ago.",
  "bulk.olderWait":
    "{count, plural, one {{orders} more, placed more than {days, plural, one {# day} other {# days}} ago ({amount}), does not go: it waits for your word under Anomalies.} other {{orders} more, placed more than {days, plural, one {# day} other {# days}} ago ({amount}), do not go: they wait for your word under Anomalies.}}",
  "bulk.staleWarning":
    "They were placed more than {days, plural, one {# day} other {# days}} ago: the customer may no longer expect them. Call first when in doubt: every refused parcel costs you its delivery and its return.",
  "bulk.what": "Each order becomes a lead on the platform, whose call centre calls the customer.",
  "release.body": "Nothing holds these orders any more: {orders}.",
  "release.sent": "Orders sent: {count}",

  "timeline.rechecked": "Checked again after a fix",
  "timeline.odds_released": "No longer held for its odds",
  "timeline.resend_second_lead": "Sent again: a second lead may exist",
  "timeline.duplicate_kept": "Duplicate kept as a real order",
  "timeline.cancelled_in_shopify": "Cancelled in Shopify as a duplicate",
  "fix.useSuggestion": "Use {name} and send",
  "fix.error.second_lead":
    "A lead already exists for this order: confirm that you want a second lead before sending it again.",
} as const;
