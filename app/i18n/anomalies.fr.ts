import type { anomaliesEn } from "./anomalies.en";

export const anomaliesFr: Record<keyof typeof anomaliesEn, string> = {
  "anomalies.stake": "{amount} à encaisser en jeu · la plus ancienne : {age}",
  "anomalies.stakeUnknown": "Pas de montant en dirhams · la plus ancienne : {age}",
  "anomalies.showAll": "Voir toutes les causes",
  "anomalies.cause.customer": "Clients à risque à appeler",
  "anomalies.cause.product": "Produits à associer",
  "anomalies.cause.city": "Villes à reconnaître",
  "anomalies.cause.phone": "Téléphones à corriger",
  "anomalies.cause.other": "Retenues pour une autre raison",
  "anomalies.cause.mismatch": "Annulées ou modifiées dans Shopify, toujours en route",
  "anomalies.cause.stale": "Commandes anciennes à envoyer en connaissance de cause",
  "anomalies.mismatch.help":
    "Envoyées à la plateforme, puis annulées ou modifiées dans Shopify : la plateforme n'en sait rien, et le colis part si vous n'arrêtez pas ou ne corrigez pas son lead dans votre espace vendeur. Ouvrez chaque commande pour savoir comment.",
  "anomalies.cause.ready": "Prêtes à envoyer",
  "anomalies.cause.refused": "Refusées par la plateforme",
  "anomalies.cause.failed": "Envois échoués",
  "anomalies.cause.duplicate": "Doublons possibles",
  "anomalies.cause.flagged": "Leads signalés par la plateforme",
  "anomalies.group.refused": "La plateforme a refusé {field}, dans {orders}",
  "anomalies.group.ready": "Prêtes à envoyer : {orders}",
  "anomalies.phoneFor": "Mobile du client pour {order}",
  "anomalies.fix.useProduct": "Utiliser {name} et envoyer {orders}",
  "anomalies.fix.useCity": "Utiliser {name} et envoyer {orders}",
  "anomalies.fix.failedHelp":
    "La plateforme n'a pas pu être jointe malgré toutes les tentatives. Réessayer ne crée jamais de second lead : l'app cherche d'abord celui qu'une tentative précédente aurait créé.",
  "anomalies.fix.readyHelp":
    "Rien ne retient ces commandes : l'envoi automatique est désactivé, ou elles attendaient la clé de votre plateforme.",
  "anomalies.fix.readyHelp.autoSendOff":
    "L'envoi automatique est désactivé (Paramètres) : ces commandes attendent que vous les envoyiez.",
  "anomalies.fix.readyHelp.other":
    "Plus rien ne retient ces commandes : envoyez-les si les clients les attendent encore.",
  "anomalies.fix.staleHelp":
    "Ces commandes ont été passées il y a plus longtemps que votre limite (Paramètres) : l'application ne les envoie pas d'elle-même. Envoyez-les seulement si les clients les attendent encore.",
  "anomalies.fix.sendStale": "Envoyer {orders} en connaissance de cause",
  "anomalies.group.stale": "Passées il y a plus de {days, plural, one {# jour} other {# jours}} : {orders}",
  "anomalies.fix.retry": "Réessayer l'envoi de {orders}",
  "anomalies.fix.send": "Envoyer {orders}",
  "anomalies.fix.decide":
    "Pour chaque commande : gardez les deux si le client a vraiment commandé deux fois, ou annulez celle-ci dans Shopify. Le lead lui-même ne peut être annulé que dans l'espace vendeur de votre plateforme.",
  "anomalies.fix.sellerSpace":
    "La plateforme a enregistré ces leads et attend leur correction dans son espace vendeur : l'app ne peut pas y modifier un lead. Ouvrez une commande pour voir vos possibilités.",
  "anomalies.hint.refused.phone": "Saisissez le mobile de chaque client (06 ou 07) : la commande est alors renvoyée.",
  "anomalies.hint.refused.city":
    "Corrigez la ville de chaque commande dans Shopify, ou faites mémoriser l'orthographe dans Correspondances, puis renvoyez-la depuis sa page.",
  "anomalies.hint.refused.items":
    "Associez le produit dans Correspondances, puis renvoyez chaque commande depuis sa page.",
  "anomalies.hint.refused.total": "Corrigez le total dans Shopify, puis renvoyez chaque commande depuis sa page.",
  "anomalies.hint.refused.name": "Ajoutez le nom du client dans Shopify, puis renvoyez chaque commande depuis sa page.",
  "anomalies.hint.refused.address": "Ouvrez chaque commande pour corriger son adresse.",
  "anomalies.hint.refused.other": "Ouvrez chaque commande : les mots de la plateforme disent quoi corriger.",
  "anomalies.hint.phone_missing": "Saisissez le mobile de chaque client (06 ou 07) : la commande est alors envoyée.",
  "anomalies.hint.phone_invalid": "Saisissez le mobile de chaque client (06 ou 07) : la commande est alors envoyée.",
  "anomalies.hint.phone_landline": "Saisissez le mobile de chaque client (06 ou 07) : la commande est alors envoyée.",
  "anomalies.hint.phone_foreign":
    "Saisissez le mobile marocain de chaque client (06 ou 07) : la commande est alors envoyée.",
  "anomalies.hint.phone_unverified":
    "Vérifiez le numéro avec le client, puis saisissez-le à nouveau : la commande est alors envoyée.",
  "anomalies.hint.total_below_cost":
    "Le montant à encaisser ne couvre pas le prix de la plateforme et la livraison : corrigez le prix dans Shopify, ou laissez partir ces commandes dans les paramètres.",
  "anomalies.hint.currency_not_mad":
    "La commande n'est pas en MAD : corrigez-la dans Shopify pour qu'elle ait un montant en MAD.",
  "anomalies.hint.item_out_of_stock":
    "La plateforme n'a plus ce produit en stock : attendez le réassort, ou associez-le à un autre produit.",
  "anomalies.hint.too_many_items": "Divisez la commande en plusieurs commandes plus petites dans Shopify.",
  "anomalies.hint.possible_duplicate":
    "Ouvrez chaque commande : si c'est une vraie seconde commande, envoyez-la ; sinon annulez-la dans Shopify.",
  "anomalies.hint.name_missing": "Ajoutez le nom du client à la commande dans Shopify.",
  "anomalies.hint.total_invalid": "Corrigez le total de la commande dans Shopify.",
  "anomalies.toast.fixedSome":
    "Envoyées : {count}. Encore en attente : {skipped} (un autre problème, ou un lead déjà sur la plateforme).",
  "anomalies.cancelDuplicate.lead":
    "Son lead reste sur la plateforme : annulez-le dans l'espace vendeur de votre plateforme, l'app ne le peut pas.",
  "anomalies.sendAnyway.title": "Envoyer {name} quand même ?",
};
