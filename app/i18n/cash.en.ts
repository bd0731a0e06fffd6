/**
 * English messages of the cash features, spread into en.ts: the cash list page,
 * Home's cash card and overdue alert, Analytics' money figures, week labels and
 * "Others", the Settings section, and the words for days and months they share.
 * cash.fr.ts has the same keys (typed against this object). Money is written
 * by the locale's formatter (app/i18n/format.ts), in the shop's MAD or DH.
 */
export const cashEn = {
  "cash.title": "Cash",
  "cash.intro":
    "The carrier collects the cash at the door; the platform keeps its prices and fees and pays you your seller profit later. A delivered parcel is owed until the platform pays it; amounts owed are your seller profit.",
  "cash.overdueRule":
    "After {days, plural, one {# day} other {# days}} without payment a parcel is overdue: an alert on Home and the “Payment overdue” Flow trigger. Change the delay in Settings.",
  "cash.tab.owed": "Not paid yet",
  "cash.tab.paid": "Paid",
  "cash.tab.returned": "Returned",
  "cash.summary.owed": "Owed by the platform: {amount}",
  "cash.summary.paid": "Paid by the platform: {amount}",
  "cash.summary.returned": "Returned: {amount} not collected",
  "cash.summary.parcels": "{count, plural, one {# parcel} other {# parcels}}",
  "cash.summary.unknownProfit":
    "{count, plural, one {# parcel without its seller profit yet is not in the amount.} other {# parcels without their seller profit yet are not in the amount.}}",
  "cash.ages.title": "By days since delivery",
  "cash.age.band": "{band}: {amount} · {parcels}",
  "cash.age.0-7": "0 to 7 days",
  "cash.age.8-14": "8 to 14 days",
  "cash.age.15-30": "15 to 30 days",
  "cash.age.over-30": "Over 30 days",
  "cash.filter.minAge": "Delivered more than {days, plural, one {# day} other {# days}} ago",
  "cash.filter.maxAge": "Delivered at most {max, plural, one {# day} other {# days}} ago",
  "cash.filter.range": "Delivered {min} to {max, plural, one {# day} other {# days}} ago",
  "cash.filter.clear": "Show every parcel not paid yet",
  "cash.column.order": "Order",
  "cash.column.lead": "Lead",
  "cash.column.delivered": "Delivered on",
  "cash.column.age": "Days since delivery",
  "cash.column.paid": "Paid on",
  "cash.column.returned": "Returned on",
  "cash.column.amount": "Amount collected",
  "cash.column.amountToCollect": "Amount to collect",
  "cash.column.profit": "Seller profit",
  "cash.profit.unknown": "Not given yet",
  "cash.days": "{count, plural, one {# day} other {# days}}",
  "cash.empty.owed": "Nothing owed: the platform has paid every delivered parcel.",
  "cash.empty.filtered": "No parcel in this view.",
  "cash.empty.paid": "No parcel paid by the platform yet.",
  "cash.empty.returned": "No parcel returned.",
  "cash.export": "Export these parcels (CSV)",
  "cash.exportFailed": "The export could not be downloaded. Try again.",
  "cash.pagination": "Pages of parcels",
  "cash.error.title": "This list cannot be shown as asked",
  "cash.error.bad_state": "There is no such list: the parcels not paid yet are shown.",
  "cash.error.bad_age":
    "Days since delivery must be whole numbers from 0 to 3650, the smaller first, and only for parcels not paid yet: every parcel not paid yet is shown.",
  "cash.error.bad_cursor": "This page of the list does not exist any more: the first page is shown.",

  "home.cash.title": "Cash from the platform",
  "home.cash.owed": "Owed by the platform: {amount}",
  "home.cash.ofWhich": "of which {amount} overdue (delivered more than {days, plural, one {# day} other {# days}} ago)",
  "home.cash.parcels":
    "{count, plural, one {# parcel delivered and not paid yet.} other {# parcels delivered and not paid yet.}}",
  "home.cash.nothingOwed": "Nothing owed: the platform has paid every delivered parcel.",
  "home.cash.seeAll": "See every parcel not paid yet",
  "home.cash.overdue.title":
    "{count, plural, one {Payment overdue: # parcel delivered more than {days, plural, one {# day} other {# days}} ago is not paid} other {Payment overdue: # parcels delivered more than {days, plural, one {# day} other {# days}} ago are not paid}}",
  "home.cash.overdue.body":
    "The platform owes you {amount} for them. Ask the platform, or change the delay in Settings.",
  "home.cash.overdue.action": "See the overdue parcels",

  "analytics.figure.netCollected": "Net collected",
  "analytics.figure.owed": "Owed by the platform",
  "analytics.figure.confirmationRate": "Confirmation rate",
  "analytics.figure.returnRate": "Return rate",
  "analytics.figures.definitions":
    "Net collected: the cash collected at the door for the period's delivered orders (returned and cancelled ones bring nothing). Owed: the seller profit of delivered parcels the platform had not paid at the end of the period.",
  "analytics.figures.more":
    "Orders taken: {orders} (previous period: {previousOrders}). Median days to delivery: {days} (previous period: {previousDays}).",
  "analytics.rate.confirmedOfSent": "{part, plural, other {#}} confirmed of {whole, plural, other {#}} sent",
  "analytics.change.up": "↑ {value}",
  "analytics.change.down": "↓ {value}",
  "analytics.change.same": "No change",
  "analytics.change.new": "New this period",
  "analytics.change.points": "{value} pts",
  "analytics.change.against": "against {previous} in the previous period",
  "analytics.funnel.lostLine": "Lost before the next step: {items}",
  "analytics.funnel.tableCaption": "From order to delivery, step by step",
  "analytics.week.label": "W{week} · {range}",
  "analytics.week.axis": "W{week}",
  "analytics.others": "Others ({count})",
  "analytics.others.note":
    "{count, plural, one {The smallest line is counted in “Others”} other {The smallest # lines are added up in “Others”}}; the CSV has every line.",
  "analytics.cash.title": "Cash from the platform",
  "analytics.cash.paid": "Paid by the platform in this period: {amount}",
  "analytics.cash.returned": "Returned in this period: {amount} not collected",
  "analytics.cash.owedToday": "Owed today, by days since delivery",
  "analytics.cash.list": "See the parcels not paid yet",
  "analytics.exportCash": "Export the cash ledger (CSV)",

  "date.month.1": "Jan",
  "date.month.2": "Feb",
  "date.month.3": "Mar",
  "date.month.4": "Apr",
  "date.month.5": "May",
  "date.month.6": "Jun",
  "date.month.7": "Jul",
  "date.month.8": "Aug",
  "date.month.9": "Sep",
  "date.month.10": "Oct",
  "date.month.11": "Nov",
  "date.month.12": "Dec",

  "settings.cash.title": "Cash and payments",
  "settings.cash.markPaidWhen.label": "Mark the Shopify order as paid",
  "settings.cash.markPaidWhen.delivered": "At delivery (the customer paid the carrier)",
  "settings.cash.markPaidWhen.paid": "When the platform pays you",
  "settings.cash.markPaidWhen.help":
    "At delivery, Shopify counts the sale as soon as the carrier has the cash; when the platform pays you, Shopify's finance reports show only the cash you have received.",
  "settings.cash.markPaidWhen.off":
    "Turn on “Mark orders as paid when delivered” under “Write back to Shopify” to use this choice.",
  "settings.cash.overdueDays.label": "Payment overdue after (days)",
  "settings.cash.overdueDays.help":
    "A delivered parcel the platform has not paid after this many days shows an alert on Home and can start a Flow workflow.",
  "settings.cash.flowTrigger": "Send the Shopify Flow trigger “Payment overdue”",

  "activity.jobKind.payment-overdue": "Check unpaid parcels",
} as const;
