import type { homeEn } from "./home.en";

export const homeFr: Record<keyof typeof homeEn, string> = {
  "home.inbox.title": "À faire",
  "home.inbox.nothing": "Rien ne vous attend : toutes les commandes suivent leur cours.",
  "home.inbox.total":
    "{count, plural, one {# commande vous attend, {amount} à encaisser en jeu.} other {# commandes vous attendent, {amount} à encaisser en jeu.}}",
  "home.inbox.atStake": "{amount}",
  "home.inbox.amountUnknown": "pas de montant en dirhams",
  "home.inbox.waiting": "la plus ancienne : {age}",
  "home.inbox.age.underMinute": "moins d'une minute",
  "home.inbox.age.minutes": "{count} min",
  "home.inbox.age.hours": "{count} h",
  "home.inbox.age.days": "{count} j",
  "home.inbox.cause.mismatch":
    "{count, plural, one {# commande annulée ou modifiée dans Shopify, son colis toujours en route} other {# commandes annulées ou modifiées dans Shopify, leurs colis toujours en route}}",
  "home.inbox.feesAtStake": "{amount} de frais de livraison en jeu, plus le retour",
  "home.inbox.feesUnknown": "frais de livraison et de retour en jeu",
  "home.inbox.cause.customer":
    "{count, plural, one {# client à risque à appeler} other {# clients à risque à appeler}}",
  "home.inbox.cause.product":
    "{count, plural, one {# commande avec un produit à associer} other {# commandes avec un produit à associer}}",
  "home.inbox.cause.city":
    "{count, plural, one {# commande avec une ville à reconnaître} other {# commandes avec une ville à reconnaître}}",
  "home.inbox.cause.phone":
    "{count, plural, one {# commande avec un téléphone à corriger} other {# commandes avec un téléphone à corriger}}",
  "home.inbox.cause.other":
    "{count, plural, one {# commande retenue pour une autre raison} other {# commandes retenues pour une autre raison}}",
  "home.inbox.cause.stale":
    "{count, plural, one {# commande ancienne à envoyer en connaissance de cause} other {# commandes anciennes à envoyer en connaissance de cause}}",
  "home.inbox.cause.ready": "{count, plural, one {# commande prête à envoyer} other {# commandes prêtes à envoyer}}",
  "home.inbox.cause.refused":
    "{count, plural, one {# commande refusée par la plateforme} other {# commandes refusées par la plateforme}}",
  "home.inbox.cause.failed":
    "{count, plural, one {# commande qui n'a pas pu être envoyée} other {# commandes qui n'ont pas pu être envoyées}}",
  "home.inbox.cause.duplicate":
    "{count, plural, one {# doublon possible à trancher} other {# doublons possibles à trancher}}",
  "home.inbox.cause.flagged":
    "{count, plural, one {# lead signalé par la plateforme, à corriger dans l'espace vendeur} other {# leads signalés par la plateforme, à corriger dans l'espace vendeur}}",
  "home.inbox.more.held":
    "{count, plural, one {# commande retenue plus ancienne} other {# commandes retenues plus anciennes}}",
  "home.inbox.more.damaged": "{count, plural, one {# lead signalé plus ancien} other {# leads signalés plus anciens}}",
  "home.figure.open": "{figure}, {period} : voir les commandes",
};
