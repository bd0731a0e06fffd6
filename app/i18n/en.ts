/**
 * English messages: the reference dictionary. Every key added here must be added
 * to fr.ts too (the compiler and test/i18n/i18n.test.ts both check).
 * Placeholders are written {name} and filled by t(locale, key, { name }).
 */
import { mappingsActivityBackfillEn } from "./mappings-activity-backfill.en";
import { ordersEn } from "./orders.en";
import { flowEn } from "./flow.en";
import { shopifyErrorsEn } from "./shopify-errors.en";
import { analyticsEn } from "./analytics.en";
import { customersEn } from "./customers.en";
import { pairingEn } from "./pairing.en";
import { adFeedEn } from "./ad-feed.en";
import { cashEn } from "./cash.en";
import { ordersListEn } from "./orders-list.en";
import { contactEn } from "./contact.en";
import { navigationEn } from "./navigation.en";
import { homeEn } from "./home.en";
import { orderPageEn } from "./order-page.en";
import { anomaliesEn } from "./anomalies.en";
import { syncLedgerEn } from "./sync-ledger.en";
import { timelineEn } from "./timeline.en";
import { oddsEn } from "./odds.en";
import { suggestionsEn } from "./suggestions.en";
import { csvEn } from "./csv.en";
import { platformStatusEn } from "./platform-status.en";

export const en = {
  "app.title": "COD Lead Sync",
  ...mappingsActivityBackfillEn,
  ...csvEn,

  "nav.home": "Home",
  "nav.orders": "Orders",
  "nav.analytics": "Analytics",
  "nav.anomalies": "Anomalies",
  "nav.cash": "Cash",
  "nav.mappings": "Products and cities",
  "nav.activity": "Activity",
  "nav.backfill": "Import past orders",
  "nav.settings": "Settings",

  "common.save": "Save",

  "common.discard": "Discard",

  "common.leave": "You have unsaved changes. Leave this page without saving them?",
  "common.done": "Done",
  "common.toDo": "To do",
  "common.notSet": "Not set",
  "common.copy": "Copy",
  "common.copied": "Copied",
  "common.list": "{items} and {last}",
  "common.listSeparator": ", ",
  "common.none": "–",
  "common.unknown": "Unknown",
  "time.zone.Africa/Casablanca": "Morocco time",
  "time.zone.UTC": "UTC",
  "time.ago.now": "just now",
  "time.ago.minutes": "{count, plural, one {# minute ago} other {# minutes ago}}",
  "time.ago.hours": "{count, plural, one {# hour ago} other {# hours ago}}",
  "time.ago.days": "{count, plural, one {# day ago} other {# days ago}}",
  "time.minutes": "{count, plural, one {# minute} other {# minutes}}",
  "time.exact": "{time} (UTC{offset})",
  "time.shown": "Times: {zone}.",

  "home.checklist.title": "Set up COD Lead Sync",
  "home.checklist.intro": "Finish these steps and your cash-on-delivery orders will reach your COD platform as leads.",
  "home.checklist.progress": "{done} of {total} steps done",
  "home.step.enter_key.title": "Connect your COD platform",
  "home.step.enter_key.help": "Paste the key your COD platform gave you for this store.",
  "home.step.enter_key.action": "Open settings",
  "home.step.key_verified.title": "Platform connected",
  "home.step.key_verified.help": "The platform accepted your key: the app knows your account and how fast it may send.",
  "home.step.key_verified.action": "Check the connection",
  "home.step.catalogue_synced.title": "Catalogue and cities synced",
  "home.step.catalogue_synced.help": "Your platform products and delivered cities are read so orders can be matched.",
  "home.step.catalogue_synced.action": "Open mappings",
  "home.step.first_order_sent.title": "First order sent",
  "home.step.first_order_sent.help": "A cash-on-delivery order from your store became a lead on the platform.",
  "home.step.first_order_sent.action": "See orders",
  "home.figures.title": "Figures",
  "home.period.today": "Today",
  "home.period.last7": "Last 7 days",
  "home.period.last30": "Last 30 days",
  "home.figure.sent": "Orders sent",
  "home.figure.held": "Held or refused",
  "home.figure.damaged": "Created with anomaly",
  "home.figure.noRate": "–",
  "home.period.placedOn": "Orders placed on {day}",
  "home.period.placedBetween": "Orders placed from {from} to {to}",
  "home.figure.collectedOf": "{count, plural, one {{delivered} order delivered} other {{delivered} orders delivered}}",
  "home.figures.definitions":
    "Every figure counts orders on the day they were placed in Shopify, as Analytics does: an imported order counts on the day it was placed, not the day it was imported. Rates divide the two counts shown under them.",
  "home.chart.title": "Leads per day, last 14 days",
  "home.chart.description": "Leads sent each day, by what became of them.",
  "home.outcome.delivered": "Delivered",
  "home.outcome.inDelivery": "Confirmed, in delivery",
  "home.outcome.awaiting": "Awaiting confirmation",
  "home.outcome.lost": "Cancelled or returned",
  "home.outcome.damaged": "Created with anomaly",
  "home.empty.title": "No leads yet",
  "home.empty.body": "Figures appear here once your first cash-on-delivery order is sent to the platform.",
  "home.alert.paused.title": "Sending is paused: the platform refused your key",
  "home.alert.paused.body":
    "Reason: {reason}. The key may have been revoked or replaced. Enter a valid key in Settings to resume sending.",
  "home.alert.backlog.title": "Orders are waiting to be sent",
  "home.alert.backlog.body":
    "{count, plural, one {# task is waiting} other {# tasks are waiting}}; the oldest has waited {minutes} min. If this lasts, contact support.",
  "home.alert.dead.title": "Some tasks gave up",
  "home.alert.dead.body":
    "{count, plural, one {# task failed for good} other {# tasks failed for good}}. Review them in Activity and try again.",
  "home.alert.stale.title": "Lead statuses are not up to date",
  "home.alert.stale.body": "The last status sync was {minutes} min ago (expected every {expected} min).",
  "home.alert.stale.never": "Lead statuses have not been synced yet (expected every {expected} min).",
  "home.alert.openSettings": "Open settings",
  "home.alert.openActivity": "Open activity",

  "settings.title": "Settings",
  "settings.connection.title": "Your COD platform",
  "settings.connection.intro":
    "Paste the key your platform gave you for this store. It is checked with the platform when you save, then stored encrypted and never shown again.",
  "settings.baseUrl.label": "Platform address",
  "settings.baseUrl.placeholder": "https://",
  "settings.baseUrl.help": "Leave empty to use the default: {url}",
  "settings.baseUrl.helpNoDefault": "The address of your COD platform's seller API, starting with https://.",
  "settings.apiKey.label": "Platform key",
  "settings.apiKey.help": "From your platform's seller space. Leave empty to keep the saved key.",
  "settings.apiKey.saved": "Saved key ending in {last4}",
  "settings.account.title": "Connected account",
  "settings.account.name": "Account",
  "settings.account.id": "Account number",
  "settings.account.prefix": "Lead prefix",
  "settings.account.rate": "Sending limit",
  "settings.account.rateValue": "{rate, plural, one {# call} other {# calls}} per minute",
  "settings.account.apiVersion": "Platform API version",
  "settings.account.key": "Key",
  "settings.account.keyValue": "•••• {last4}",
  "settings.account.verifiedAt": "Checked",
  "settings.account.none": "No key saved yet: orders wait until you connect your platform.",
  "settings.account.paused": "Paused: {reason}",
  "settings.key.verified": "Key verified: {name}",
  "settings.key.error.notVerified":
    "The platform did not accept this key at this address. Check the key (and the platform address under Advanced), then save again. Nothing was saved.",
  "settings.key.error.keyRequired":
    "Enter the key again to use a new platform address: the saved key is only sent to the address it was checked with.",
  "settings.key.error.missingKey": "Enter your platform key.",
  "settings.key.error.invalidKey": "The key contains spaces or characters that are not allowed.",
  "settings.key.error.invalidBaseUrl":
    "Enter the platform's https:// address: a public host name, no user name, query or fragment.",
  "settings.key.error.noBaseUrl": "Enter your platform's address under Advanced: no default address is configured.",
  "settings.key.warning.otherStore":
    "This key belongs to the store {store}, not this one. Check that you pasted the right key.",
  "settings.sending.title": "Sending rules",
  "settings.sending.intro": "Which orders go to your platform, and which wait for you to check them.",
  "settings.autoSend.label": "Send orders automatically",
  "settings.autoSend.help": "New orders are sent as soon as they arrive. Off: they wait for you in Orders.",
  "settings.sendAllOrders.label": "Send all orders, not only cash on delivery",
  "settings.sendAllOrders.help":
    "Orders already paid by card are sent too: the platform would collect their amount a second time.",
  "settings.staleOrderDays.label": "Ask before sending orders placed more than",
  "settings.staleOrderDays.suffix": "days ago",
  "settings.staleOrderDays.help":
    "An older order (an import of past orders, a webhook days late) is never sent by itself: it waits under Anomalies, with its age and amount, until you send it knowingly. 1 to 90 days; 7 by default.",
  "settings.sendTestOrders.label": "Send Shopify test orders",
  "settings.sendTestOrders.help": "To try the app on a development store.",
  "settings.codPatterns.label": "Cash-on-delivery payment methods",
  "settings.codPatterns.help": "One per line. An order whose payment method contains one of these is cash on delivery.",
  "settings.hold.title": "Hold an order for you to check when",
  "settings.hold.help": "Unticked: the order is sent with a warning.",
  "settings.hold.city_missing": "The city is missing",
  "settings.hold.city_unmatched": "The city is not a delivered city",
  "settings.hold.city_fuzzy": "The city was read by resemblance, without proof",
  "settings.hold.city_fuzzyHelp":
    "A name close to a delivered city's, or holding it, may be another town (Bab Taza is not Taza). Ticked, the order waits for you with the city it resembles and its address. A spelling that sounds like one delivered city alone, or that you confirmed, is sent either way.",
  "settings.hold.city_from_address": "The city was found in the address",
  "settings.hold.sku_missing": "A product has no SKU",
  "settings.hold.sku_unmatched": "A product is not in the platform catalogue",
  "settings.hold.item_out_of_stock": "A product is out of stock",
  "settings.hold.currency_not_mad": "The amount is not in MAD",
  "settings.hold.total_below_cost": "The total is below the platform prices plus delivery",
  "settings.hold.possible_duplicate": "The order may be a duplicate",
  "settings.hold.phone_unverified": "The phone number could not be checked",
  "settings.hold.name_missing": "The customer name is missing",
  "settings.writeBack.title": "Update Shopify orders",
  "settings.writeBack.intro": "What the app writes on the Shopify order as the platform moves the lead.",
  "settings.writeBack.tags": "Tag orders with the lead status",
  "settings.writeBack.fulfillment": "Fulfil orders with the tracking number when shipped",
  "settings.writeBack.markPaid": "Mark orders as paid when delivered",
  "settings.writeBack.cancel": "Cancel orders the platform cancels",
  "settings.sellerSpaceUrl.label": "Address of your platform's seller space (optional)",
  "settings.sellerSpaceUrl.placeholder": "https://",
  "settings.sellerSpaceUrl.help":
    "Only the seller space can cancel or correct a lead: an order cancelled or changed in Shopify after sending links there. The app never opens it itself.",
  "settings.carrierName.label": "Carrier name on fulfilments",
  "settings.carrierName.help": "Shown as the tracking company in Shopify. Leave blank to let Shopify decide.",
  "settings.sync.title": "Advanced",
  "settings.advanced.intro": "Technical settings of the connection and of the app. The defaults suit most stores.",
  "settings.statusSync.label": "Check lead statuses every (minutes)",
  "settings.retention.label": "Data retention (days)",
  "settings.retention.help": "Order snapshots and logs older than this are deleted.",
  "settings.events.title": "Instant status updates",
  "settings.events.intro":
    "Give your platform this address and a signing secret in its seller space: status changes then reach the app at once instead of at the next check.",
  "settings.eventsUrl.label": "Address to give your platform",
  "settings.eventsSecret.label": "Signing secret",
  "settings.eventsSecret.help": "Never shown again. Leave empty to keep the saved secret.",
  "settings.eventsSecret.weak": "Use your platform's secret: at least {min} characters, not a repeated pattern.",
  "settings.eventsSecret.saved": "A secret is saved",
  "settings.eventsSecret.none": "No secret saved",
  "settings.saved": "Settings saved",
  "settings.error.title": "Some settings need fixing: nothing was saved",
  "settings.display.title": "Amounts",
  "settings.display.intro": "How the app writes amounts of dirhams on its pages.",
  "settings.currency.label": "Currency name",
  "settings.currency.MAD": "MAD, the international code ({example})",
  "settings.currency.DH": "DH, as customers say it ({example})",
  "settings.field.integer": "Enter a whole number.",
  "settings.field.min": "Must be at least {min}.",
  "settings.field.max": "Must be at most {max}.",
  "settings.field.required": "Enter at least one value.",
  "settings.field.invalid": "This value is not valid.",

  "paused.key_rejected": "key rejected by the platform",

  "state.received": "Received",
  "state.held": "Held",
  "state.skipped": "Skipped",
  "state.posting": "Sending",
  "state.created": "Lead created",
  "state.damaged": "Created with anomaly",
  "state.invalid": "Refused",
  "state.retrying": "Retrying",
  "state.failed": "Failed",
  "state.cancelled": "Cancelled",
  "status.unknown": "{status}",
  ...platformStatusEn,
  ...ordersEn,
  ...flowEn,
  ...shopifyErrorsEn,
  ...analyticsEn,
  ...customersEn,
  ...pairingEn,
  ...adFeedEn,
  ...cashEn,
  ...ordersListEn,
  ...contactEn,
  ...navigationEn,
  ...homeEn,
  ...orderPageEn,
  ...anomaliesEn,
  ...suggestionsEn,
  ...syncLedgerEn,
  ...timelineEn,
  ...oddsEn,
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
