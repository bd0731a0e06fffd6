/**
 * English messages of store pairing (Settings, "Your other stores") and the
 * sharing log (Activity), spread into en.ts. pairing.fr.ts has the same keys.
 */
export const pairingEn = {
  "settings.pairing.title": "Your other stores",
  "settings.pairing.help":
    "Customer records are shared only with stores you pair. In one store, create a pairing code; in the other store, enter it within 15 minutes. Both stores must be connected to the same seller account at the same platform address, and both must turn sharing on above. Either store can end the pairing.",
  "settings.pairing.none": "No store is paired with this one.",
  "settings.pairing.since": "Paired {date}",
  "settings.pairing.status.sharing": "Sharing",
  "settings.pairing.status.off_here": "Not sharing: sharing is off in this store",
  "settings.pairing.status.off_there": "Not sharing: sharing is off in that store",
  "settings.pairing.status.not_connected": "Not sharing: one of the stores has no verified key or was uninstalled",
  "settings.pairing.status.other_account": "Not sharing: the stores are on different seller accounts now",
  "settings.pairing.status.other_platform":
    "Not sharing: the stores' keys were verified at different platform addresses",
  "settings.pairing.end": "End pairing",
  "settings.pairing.ended": "Pairing with {store} ended",
  "settings.pairing.notPaired": "This store is not paired with {store}.",
  "settings.pairing.create": "Create a pairing code",
  "settings.pairing.code.title": "Pairing code",
  "settings.pairing.code.help":
    "Enter this code in your other store's Settings before {time}. It works once, and is not shown again.",
  "settings.pairing.code.waiting":
    "A pairing code created in this store can be entered until {time}. Create a new one if you no longer have it.",
  "settings.pairing.enter.label": "Code from your other store",
  "settings.pairing.enter.submit": "Pair",
  "settings.pairing.joined": "Paired with {store}",
  "settings.pairing.already": "Already paired with {store}",
  "settings.pairing.error.invalid_code":
    "This code is not valid: it may be mistyped, expired or already used. Create a new one in the other store.",
  "settings.pairing.error.own_code": "This code was created in this store: enter it in your other store.",
  "settings.pairing.error.not_connected":
    "Both stores need a verified seller API key (Seller Order API connection, above) before they can be paired.",
  "settings.pairing.error.other_account":
    "The two stores are connected to different seller accounts: they cannot be paired.",
  "settings.pairing.error.other_platform":
    "The two stores' keys were verified at different platform addresses: they cannot be paired.",

  "activity.sharing.title": "Sharing with your other stores",
  "activity.sharing.intro":
    "Pairing codes created in this store, and the stores paired with it or unpaired: when, and from which store.",
  "activity.sharing.empty": "No pairing yet.",
  "activity.sharing.col.at": "When",
  "activity.sharing.col.event": "What happened",
  "activity.sharing.code_created": "Pairing code created in this store",
  "activity.sharing.joined.here": "Paired with {store}: its code was entered here",
  "activity.sharing.joined.there": "Paired with {store}: this store's code was entered there",
  "activity.sharing.refused.here": "Refused: the code of {store} was entered here, but the stores cannot share",
  "activity.sharing.refused.there": "Refused: {store} entered this store's code, but the stores cannot share",
  "activity.sharing.ended.here": "Pairing with {store} ended from this store",
  "activity.sharing.ended.there": "Pairing with {store} ended from {store}",
};
