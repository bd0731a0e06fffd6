/**
 * English sentences the pipeline records about an order (its timeline, the
 * reason it stopped), stored as references (app/models/order-texts.ts) and
 * rendered in the reader's language. timeline.fr.ts has the same keys.
 */
export const timelineEn = {
  "timeline.text.received": "Order {order} received from Shopify",
  "timeline.text.placed": "Order {order} placed in Shopify",
  "timeline.text.imported": "Imported with the past orders from {from} to {to}",
  "timeline.text.checked.send": "Checked: ready to send",
  "timeline.text.checked.sendWarnings":
    "Checked: ready to send, with {warnings, plural, one {# warning} other {# warnings}}",
  "timeline.text.checked.hold": "Checked: {blocking, plural, one {# problem} other {# problems}} to fix before sending",
  "timeline.text.checked.skip": "Checked: not for the platform, not sent",
  "timeline.text.leadSent": "Lead sent to the platform",
  "timeline.text.leadSentAgain":
    "Lead sent again: the outcome of the previous attempt was unknown and no lead was found for it",
  "timeline.text.leadCreated": "Lead {ref} created",
  "timeline.text.leadCreatedAnomalies": "Lead {ref} created with anomalies: {anomalies}",
  "timeline.text.leadFound": "Lead {ref} found on the platform after an attempt with an unknown outcome",
  "timeline.text.leadFoundAnomalies":
    "Lead {ref} found on the platform after an attempt with an unknown outcome, with anomalies: {anomalies}",
  "timeline.text.refused": "The platform refused {field}: correct it and send the order again",
  "timeline.text.sendFailedRetrying": "Sending failed, trying again: {cause}",
  "timeline.text.sendFailedFinal":
    "Sending failed after {attempts, plural, one {# attempt} other {# attempts}}: {cause}",
  "timeline.text.settled": "Settled by {by} in the platform's seller space (lead {ref})",
  "timeline.text.staleHeld":
    "Placed {days, plural, one {# day} other {# days}} ago, more than your limit of {limit, plural, one {# day} other {# days}}: it waits for your word before it is sent",
  "timeline.text.staleSent": "Sent by {by}, knowing it was placed {days, plural, one {# day} other {# days}} ago",
  "timeline.text.heldByRules": "Held by your sending rules",
  "timeline.text.autoSendOff": "Automatic sending is off: send this order from the app when it is ready",
  "timeline.text.keyRejected": "The platform refused your key: enter a new one in Settings",
  "timeline.text.waitingForKey": "Waiting for your platform key: enter it in Settings",
  "timeline.text.waitingKeyRejected": "Waiting: the platform refused your key. Enter a new one in Settings",
  "timeline.text.rateLimited": "Sending limit reached: sent again in {seconds} s",
  "timeline.text.earlierSendLanding":
    "An earlier send of this order may still be reaching the platform: it is looked for there once it has arrived",
  "timeline.text.notInstalled": "The app is not installed on this shop any more",
  "timeline.text.reinstalled": "The app was installed again: the order is sent on",
  "timeline.text.statusChanged": "Lead {ref}: {changes}",
  "timeline.text.writtenBack": "Shopify order updated: {steps}",
  "timeline.text.writeBackRefused": "Shopify refused the update",
  "timeline.text.flowSent": "Sent to Shopify Flow: “{trigger}”",
  "timeline.text.flowRefused": "Shopify Flow refused “{trigger}”",
  "timeline.text.updated": "Order changed in Shopify: it is checked again",
  "timeline.text.cancelledBeforeSending": "Order cancelled in Shopify: it will not be sent",
  "timeline.text.cancelledReason": "Cancelled in Shopify before sending",
  "timeline.text.refundedAfterSending":
    "Refunded in Shopify after its lead {ref} was sent: the parcel still ships unless you cancel the lead in your platform's seller space",
  "timeline.text.editedAfterSending":
    "Edited in Shopify after its lead {ref} was sent: the lead still carries the old items, amount or address. Correct or cancel it in your platform's seller space",
  "timeline.text.cancelledAfterSending":
    "Order cancelled in Shopify after its lead {ref} was sent: cancel the lead in your platform's seller space",
  "timeline.text.cancelledAfterSendingNoRef":
    "Order cancelled in Shopify after its lead was sent: cancel the lead in your platform's seller space",
  "timeline.text.resent": "Sent again by {by}",
  "timeline.text.resentReplacing": "Sent again by {by} (previous lead {ref})",
  "timeline.text.corrected": "Corrected by {by} for this order: {fields}",
  "timeline.text.resentSecondLead": "Sent again by {by}, who confirmed that a second lead may exist besides {ref}",
  "timeline.text.duplicateKept": "Kept as a real order by {by}, despite the platform's duplicate warning",
  "timeline.text.cancelledAsDuplicate":
    "Cancelled in Shopify by {by} as a duplicate; lead {ref} stays on the platform until you cancel it in the seller space",
  "timeline.text.recovered":
    "Taken in by the reconciliation: Shopify's webhook for this new order never reached the app",
  "timeline.text.reconciledCancellation":
    "Cancellation found by the reconciliation: Shopify's webhook for it never reached the app",
  "timeline.text.reconciledChange":
    "Change found by the reconciliation: Shopify's webhook for it never reached the app",
  "timeline.text.rewritten": "The Shopify order does not show what the app wrote ({what}): written again",
  "timeline.drift.fulfillment": "the fulfilment",
  "timeline.drift.paid": "the payment",
  "timeline.drift.tags": "the tags",
  "timeline.text.refusedValue":
    "Not sent: one of the order's values cannot be stored. Correct the order in Shopify, then send it again",
  "timeline.text.recheckedHeld": "Checked again after a fix: still held ({codes})",
  "timeline.text.recheckedReleased": "Checked again after a fix: nothing holds it any more",
  "timeline.text.readyAfterFix": "Ready to send: a fix resolved what held it",
  "timeline.text.oddsReleased":
    "Ready to send: your new delivery-odds policy no longer holds it ({percent}% chance of delivery); it waits for your word",
  "timeline.text.redacted": "Customer data erased at Shopify's request",
  "timeline.change.confirmation": "confirmation {from} → {to}",
  "timeline.change.shipping": "delivery {from} → {to}",
  "timeline.change.tracking": "tracking number {number}",
  "timeline.change.profit": "seller profit {amount}",
  "timeline.writeBack.tagsAdded": "status tags updated",
  "timeline.writeBack.tagsRemoved": "status tags updated",
  "timeline.writeBack.fulfilled": "fulfilled with the tracking number",
  "timeline.writeBack.paid": "marked as paid",
  "timeline.writeBack.cancel": "cancellation requested",
  "timeline.cause.unreachable": "the platform could not be reached",
  "timeline.cause.timeout": "the platform did not answer in time",
  "timeline.cause.server": "the platform had an error on its side",
  "timeline.cause.unexpected": "the platform's answer could not be read",
  "timeline.cause.other": "an unexpected error",
  "timeline.field.lead": "the order",
  "timeline.field.other": "the field “{name}”",
  "timeline.field.customer_name": "the customer's name",
  "timeline.field.customer_phone": "the phone number",
  "timeline.field.city": "the city",
  "timeline.field.address": "the address",
  "timeline.field.total_client": "the amount to collect",
  "timeline.field.items": "the products",
  "timeline.flowTrigger.lead-created": "Lead created",
  "timeline.flowTrigger.lead-status-changed": "Lead status changed",
  "timeline.flowTrigger.order-needs-attention": "Order needs attention",
  "timeline.flowTrigger.payment-overdue": "Payment overdue",
  "timeline.flowTrigger.order-stuck": "Order stuck",
  "timeline.flowTrigger.delivery-odds-scored": "Delivery odds scored",
  "timeline.actor.merchant": "you",
  "timeline.actor.flow": "Shopify Flow",
  "timeline.detail.platform": "The platform said:",
  "timeline.detail.shopify": "Shopify said:",
} as const;
