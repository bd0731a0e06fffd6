/** English messages of Home's to-do inbox. Spread into en.ts. */
export const homeEn = {
  "home.inbox.title": "To do",
  "home.inbox.nothing": "Nothing waits for you: every order is on its way.",
  "home.inbox.total":
    "{count, plural, one {# order waits for you, {amount} to collect at stake.} other {# orders wait for you, {amount} to collect at stake.}}",
  "home.inbox.atStake": "{amount}",
  "home.inbox.amountUnknown": "no amount in dirhams",
  "home.inbox.waiting": "oldest {age}",
  "home.inbox.age.underMinute": "under a minute",
  "home.inbox.age.minutes": "{count} min",
  "home.inbox.age.hours": "{count} h",
  "home.inbox.age.days": "{count} d",
  "home.inbox.cause.mismatch":
    "{count, plural, one {# order cancelled or changed in Shopify, its parcel still on its way} other {# orders cancelled or changed in Shopify, their parcels still on their way}}",
  "home.inbox.feesAtStake": "{amount} in delivery fees at stake, plus returns",
  "home.inbox.feesUnknown": "delivery and return fees at stake",
  "home.inbox.cause.customer": "{count, plural, one {# risky customer to call} other {# risky customers to call}}",
  "home.inbox.cause.product":
    "{count, plural, one {# order with a product to map} other {# orders with a product to map}}",
  "home.inbox.cause.city":
    "{count, plural, one {# order with a city to recognise} other {# orders with a city to recognise}}",
  "home.inbox.cause.phone":
    "{count, plural, one {# order with a phone number to correct} other {# orders with a phone number to correct}}",
  "home.inbox.cause.other":
    "{count, plural, one {# order held for another reason} other {# orders held for another reason}}",
  "home.inbox.cause.stale":
    "{count, plural, one {# old order to send knowingly} other {# old orders to send knowingly}}",
  "home.inbox.cause.ready": "{count, plural, one {# order ready to send} other {# orders ready to send}}",
  "home.inbox.cause.refused":
    "{count, plural, one {# order refused by the platform} other {# orders refused by the platform}}",
  "home.inbox.cause.failed":
    "{count, plural, one {# order that could not be sent} other {# orders that could not be sent}}",
  "home.inbox.cause.duplicate":
    "{count, plural, one {# possible duplicate to decide on} other {# possible duplicates to decide on}}",
  "home.inbox.cause.flagged":
    "{count, plural, one {# lead flagged by the platform, to correct in its seller space} other {# leads flagged by the platform, to correct in its seller space}}",
  "home.inbox.more.held": "{count, plural, one {# older held order} other {# older held orders}}",
  "home.inbox.more.damaged": "{count, plural, one {# older flagged lead} other {# older flagged leads}}",
  "home.figure.open": "{figure}, {period}: see the orders",
} as const;
