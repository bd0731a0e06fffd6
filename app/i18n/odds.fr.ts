/** French messages of the delivery odds (see odds.en.ts), spread into fr.ts. */
import type { oddsEn } from "./odds.en";

export const oddsFr: Record<keyof typeof oddsEn, string> = {
  "odds.reason.customer_delivered":
    "{count, plural, one {A reçu # commande précédente} other {A reçu # commandes précédentes}}",
  "odds.reason.customer_failed":
    "{count, plural, one {A refusé, renvoyé ou annulé # commande précédente} other {A refusé, renvoyé ou annulé # commandes précédentes}}",
  "odds.reason.wrong_number": "Ce numéro était déjà un faux numéro",
  "odds.reason.first_order": "Première commande de ce numéro",
  "odds.reason.recent_orders":
    "{count, plural, one {# autre commande de ce numéro ces dernières 24 heures} other {# autres commandes de ce numéro ces dernières 24 heures}}",
  "odds.reason.city": "{city} : {rate} % livrées dans votre boutique (toutes villes {shopRate} %)",
  "odds.reason.product": "{product} : {rate} % livrées dans votre boutique (tous produits {shopRate} %)",
  "odds.reason.amount": "Montant {amount}, votre commande habituelle est de {usual}",
  "odds.reason.quantity": "{count, plural, one {# article} other {# articles dans une commande}}",
  "odds.reason.address": "Adresse courte ou incomplète",
  "odds.effect.raises": "Augmente les chances",
  "odds.effect.lowers": "Baisse les chances",
  "odds.hold.below": "Chances de livraison {probability} %, sous vos {threshold} %",
  "odds.hold.negative": "Chances de livraison {probability} %, sous les {threshold} % où l'envoi devient rentable",
  "odds.hold.neverPays": "Chances de livraison {probability} % : l'envoi fait perdre de l'argent même livrée",
  "settings.odds.title": "Chances de livraison",
  "settings.odds.help":
    "Avant l'envoi d'une commande, l'application estime ses chances d'être livrée et payée d'après les résultats de votre boutique (l'historique du client, la ville, les produits, le montant) et les compare à l'argent en jeu : la marge si elle est livrée, les frais aller et retour si elle est refusée. L'estimation et ses raisons s'affichent sur chaque commande, dans le panneau de risque de Shopify et dans Flow.",
  "settings.odds.policy": "Avant d'envoyer une commande",
  "settings.odds.policy.send_all": "Envoyer toutes les commandes",
  "settings.odds.policy.send_all.help": "Les chances s'affichent ; rien n'est retenu.",
  "settings.odds.policy.hold_below": "Retenir les commandes sous une probabilité de livraison",
  "settings.odds.policy.hold_below.help":
    "Les commandes retenues vous attendent : appelez le client, puis envoyez ou annulez.",
  "settings.odds.policy.hold_negative_value": "Retenir les commandes qui devraient faire perdre de l'argent",
  "settings.odds.policy.hold_negative_value.help":
    "Retenue quand la chance de livraison multipliée par la marge vaut moins que la chance de refus multipliée par les frais et votre coût.",
  "settings.odds.minPercent": "Retenir sous",
  "settings.odds.refusalCost": "Votre coût d'une commande échouée",
  "settings.odds.refusalCost.help":
    "Emballage, appel, usure du produit : ajouté aux frais aller et retour de la plateforme.",
  "settings.odds.flowTrigger": "Déclencheur Flow « Chances de livraison calculées »",
  "settings.odds.model.prior":
    "Aucune commande terminée chez vous pour l'instant : les chances partent d'une base tirée de chiffres publiés sur le paiement à la livraison et apprennent de vos commandes à mesure qu'elles se terminent.",
  "settings.odds.model.fitted":
    "{count, plural, one {Appris de # commande terminée de votre boutique} other {Appris de # commandes terminées de votre boutique}} le {date}.",
  "settings.odds.model.quality":
    "Sur {count, plural, one {sa dernière commande} other {ses # dernières commandes}} : AUC {auc} (0,5 = pile ou face), score de Brier {brier} (plus bas = mieux).",
  "odds.fact.probability": "Chances de livraison {probability} % (votre boutique livre {shopRate} %)",
  "odds.fact.value":
    "Valeur attendue de l'envoi : {value} ({margin} de marge si livrée, {loss} perdus en moyenne si elle échoue)",
  "odds.fact.released": "Libérée par le marchand de sa retenue pour ses chances de livraison",
  "odds.fact.valueUnknown":
    "Valeur attendue inconnue : le prix d'un produit ou les frais de livraison de la ville manquent",
  "activity.jobKind.odds-fit": "Apprendre les chances de livraison",
  "activity.jobKind.risk-assessment": "Écrire le risque sur la commande Shopify",
  "timeline.risk_assessed": "Panneau de risque Shopify",
  "odds.timeline.assessed": "Chances de livraison écrites dans le panneau de risque de la commande Shopify : {level}",
  "odds.level.high": "risque élevé",
  "odds.level.medium": "risque moyen",
  "odds.level.low": "risque faible",
  "odds.card.title": "Chances de livraison",
  "odds.card.chance": "de chances d'être livrée et payée",
  "odds.card.shopRate": "Votre boutique livre {rate} des commandes qu'elle envoie.",
  "odds.card.value": "Valeur attendue de l'envoi : {value}",
  "odds.card.valueDetail":
    "{margin} de marge si livrée, {loss} perdus en moyenne si elle échoue (l'aller et le retour quand le colis revient, votre coût).",
  "odds.card.valueUnknown":
    "Valeur attendue inconnue : le prix d'un produit ou les frais de livraison de la ville manquent.",
  "odds.card.reasons": "Pourquoi",
  "odds.card.noReason": "Rien ne ressort dans cette commande : elle a les chances habituelles de votre boutique.",
  "odds.card.model.prior": "Chances par défaut : votre boutique n'a encore aucune commande terminée.",
  "odds.card.model.fitted":
    "{count, plural, one {Appris de # commande terminée de votre boutique.} other {Appris de # commandes terminées de votre boutique.}}",
  "odds.release.title": "Ce qui l'enverrait",
  "odds.release.at": "Elle serait envoyée à partir de {probability} de chances de livraison.",
  "odds.release.never": "L'envoyer fait perdre de l'argent même livrée (marge {margin}).",
  "odds.release.how": "Appelez le client pour confirmer, faites confiance au numéro ou envoyez-la quand même.",
  "odds.badge.held": "Retenue",
  "odds.badge.loss": "Envoi à perte",
  "odds.badge.below": "Sous la moyenne",
  "odds.badge.usual": "Chances habituelles",
  "orders.column.odds": "Chances de livraison",
  "odds.list.value": "Valeur {value}",
  "timeline.odds_hold": "Retenue : chances de livraison",
  "odds.held.title": "Retenue à cause de ses chances de livraison",
  "odds.badge.cancelled": "Annulée",
  "odds.badge.refunded": "Remboursée",
  "odds.stop.title.cancelled": "Rien à gagner : annulée dans Shopify",
  "odds.stop.title.refunded": "Rien à gagner : remboursée dans Shopify",
  "odds.stop.before":
    "Arrêtez son lead avant le départ du colis : s'il part et revient, l'aller et le retour vous coûtent {cost} ({fee} chacun).",
  "odds.stop.shipped":
    "Son colis est parti : faites-le revenir ; l'aller et le retour vous coûtent {cost} ({fee} chacun).",
  "odds.stop.feeUnknown":
    "Si son colis part et revient, vous payez deux fois les frais de livraison de la ville (aller et retour).",
  "odds.stop.before.own":
    "Arrêtez son lead avant le départ du colis : s'il part et revient, il vous coûte {cost} : l'aller et le retour ({fee} chacun) et votre coût d'une commande échouée ({own}).",
  "odds.stop.shipped.own":
    "Son colis est parti : faites-le revenir ; il vous coûte {cost} : l'aller et le retour ({fee} chacun) et votre coût d'une commande échouée ({own}).",
  "odds.stop.feeUnknown.own":
    "Si son colis part et revient, vous payez deux fois les frais de livraison de la ville (aller et retour), plus votre coût d'une commande échouée ({own}).",
  "odds.cancelled": "Annulée dans Shopify avant l'envoi : elle ne sera pas envoyée, rien à gagner ni à perdre.",
  "odds.settled.estimate": "estimées avant l'envoi",
  "odds.settled.outcome": "Résultat : {outcome}.",
  "odds.list.stop": "Rien à gagner : arrêtez le colis",
  "odds.list.cancelled": "Ne sera pas envoyée",
  "odds.fact.stop.cancelled": "Annulée dans Shopify après l'envoi de son lead : rien à gagner à la livrer",
  "odds.fact.stop.refunded": "Remboursée dans Shopify après l'envoi de son lead : rien à gagner à la livrer",
  "odds.fact.stopCost":
    "Arrêtez son lead dans l'espace vendeur de la plateforme : un colis aller et retour coûte {cost} ({fee} chacun)",
  "odds.fact.stopCostUnknown":
    "Arrêtez son lead dans l'espace vendeur de la plateforme : un colis aller et retour coûte deux fois les frais de livraison de la ville",
  "odds.fact.stopCost.own":
    "Arrêtez son lead dans l'espace vendeur de la plateforme : un colis aller et retour vous coûte {cost} ({fee} chacun et votre coût d'une commande échouée, {own})",
  "odds.fact.stopCostUnknown.own":
    "Arrêtez son lead dans l'espace vendeur de la plateforme : un colis aller et retour coûte deux fois les frais de livraison de la ville, plus votre coût d'une commande échouée ({own})",
  "odds.fact.cancelled": "Annulée dans Shopify avant l'envoi : elle ne sera pas envoyée",
  "odds.level.none": "aucune recommandation",
};
