/**
 * English messages of the Anomalies page's causes as the merchant decides them:
 * what is at stake, refusals in plain words, duplicates as a decision, flagged
 * leads to correct in the seller space. Spread into en.ts.
 */
export const anomaliesEn = {
  "anomalies.stake": "{amount} to collect at stake · oldest {age}",
  "anomalies.stakeUnknown": "No amount in dirhams · oldest {age}",
  "anomalies.showAll": "Show every cause",
  "anomalies.cause.customer": "Risky customers to call",
  "anomalies.cause.product": "Products to map",
  "anomalies.cause.city": "Cities to recognise",
  "anomalies.cause.phone": "Phone numbers to correct",
  "anomalies.cause.other": "Held for another reason",
  "anomalies.cause.mismatch": "Cancelled or changed in Shopify, still on their way",
  "anomalies.cause.stale": "Old orders to send knowingly",
  "anomalies.mismatch.help":
    "Sent to the platform, then cancelled or changed in Shopify: the platform does not know, and the parcel ships unless you stop or correct its lead in your seller space. Open each order to see how.",
  "anomalies.cause.ready": "Ready to send",
  "anomalies.cause.refused": "Refused by the platform",
  "anomalies.cause.failed": "Could not be sent",
  "anomalies.cause.duplicate": "Possible duplicates",
  "anomalies.cause.flagged": "Leads flagged by the platform",
  "anomalies.group.refused": "The platform refused {field}, in {orders}",
  "anomalies.group.ready": "Ready to send, {orders}",
  "anomalies.phoneFor": "Customer's mobile for {order}",
  "anomalies.fix.useProduct": "Use {name} and send {orders}",
  "anomalies.fix.useCity": "Use {name} and send {orders}",
  "anomalies.fix.failedHelp":
    "The platform could not be reached after every retry. Trying again never makes a second lead: the app first looks for one an earlier attempt made.",
  "anomalies.fix.readyHelp":
    "Nothing holds these orders: automatic sending is off, or they waited for your platform key.",
  "anomalies.fix.readyHelp.autoSendOff": "Automatic sending is off (Settings): these orders wait for you to send them.",
  "anomalies.fix.readyHelp.other": "Nothing holds these orders any more: send them if the customers still expect them.",
  "anomalies.fix.staleHelp":
    "These orders were placed longer ago than your limit (Settings): the app does not send them by itself. Send them only if the customers still expect them.",
  "anomalies.fix.sendStale": "Send {orders} knowingly",
  "anomalies.group.stale": "Placed more than {days, plural, one {# day} other {# days}} ago: {orders}",
  "anomalies.fix.retry": "Try sending {orders} again",
  "anomalies.fix.send": "Send {orders}",
  "anomalies.fix.decide":
    "For each order: keep both if the customer really ordered twice, or cancel this one in Shopify. The lead itself can only be cancelled in your platform's seller space.",
  "anomalies.fix.sellerSpace":
    "The platform stored these leads and waits for their correction in its seller space: the app cannot change a lead there. Open an order for your options.",
  "anomalies.hint.refused.phone": "Type each customer's mobile (06 or 07): the order is then sent again.",
  "anomalies.hint.refused.city":
    "Correct each order's city in Shopify, or teach the app the spelling in Mappings, then send it again from its page.",
  "anomalies.hint.refused.items": "Map the product in Mappings, then send each order again from its page.",
  "anomalies.hint.refused.total": "Correct the total in Shopify, then send each order again from its page.",
  "anomalies.hint.refused.name": "Add the customer's name in Shopify, then send each order again from its page.",
  "anomalies.hint.refused.address": "Open each order to correct its address.",
  "anomalies.hint.refused.other": "Open each order: the platform's words say what to correct.",
  "anomalies.hint.phone_missing": "Type each customer's mobile (06 or 07): the order is then sent.",
  "anomalies.hint.phone_invalid": "Type each customer's mobile (06 or 07): the order is then sent.",
  "anomalies.hint.phone_landline": "Type each customer's mobile (06 or 07): the order is then sent.",
  "anomalies.hint.phone_foreign": "Type each customer's Moroccan mobile (06 or 07): the order is then sent.",
  "anomalies.hint.phone_unverified": "Check the number with the customer, then type it again: the order is then sent.",
  "anomalies.hint.total_below_cost":
    "The amount to collect does not cover the platform price and delivery: correct the price in Shopify, or let such orders go in Settings.",
  "anomalies.hint.currency_not_mad": "The order is not in MAD: correct it in Shopify so it has an amount in MAD.",
  "anomalies.hint.item_out_of_stock":
    "The platform has no stock of this product: wait for stock, or map it to another product.",
  "anomalies.hint.too_many_items": "Split the order into smaller ones in Shopify.",
  "anomalies.hint.possible_duplicate":
    "Open each order: if it is a real second order, send it; otherwise cancel it in Shopify.",
  "anomalies.hint.name_missing": "Add the customer's name to the order in Shopify.",
  "anomalies.hint.total_invalid": "Correct the order's total in Shopify.",
  "anomalies.toast.fixedSome":
    "Sent: {count}. Still waiting: {skipped} (another finding, or a lead already on the platform).",
  "anomalies.cancelDuplicate.lead":
    "Its lead stays on the platform: cancel it in your platform's seller space, the app cannot.",
  "anomalies.sendAnyway.title": "Send {name} anyway?",
} as const;
