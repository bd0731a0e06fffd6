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
  "odds.release.at": "Elle serait envoyée à partir de {probability} % de chances de livraison.",
  "odds.release.never": "L'envoyer fait perdre de l'argent même livrée (marge {margin}).",
  "odds.release.how": "Appelez le client pour confirmer, faites confiance au numéro ou envoyez-la quand même.",
};
