/** French sentences of the order timeline. Typed against timeline.en.ts: a missing key fails to compile. */
import type { timelineEn } from "./timeline.en";

export const timelineFr: Record<keyof typeof timelineEn, string> = {
  "timeline.text.received": "Commande {order} reçue de Shopify",
  "timeline.text.placed": "Commande {order} passée dans Shopify",
  "timeline.text.imported": "Importée avec les commandes passées du {from} au {to}",
  "timeline.text.checked.send": "Vérifiée : prête à être envoyée",
  "timeline.text.checked.sendWarnings":
    "Vérifiée : prête à être envoyée, avec {warnings, plural, one {# avertissement} other {# avertissements}}",
  "timeline.text.checked.hold":
    "Vérifiée : {blocking, plural, one {# problème} other {# problèmes}} à corriger avant l'envoi",
  "timeline.text.checked.skip": "Vérifiée : pas pour la plateforme, non envoyée",
  "timeline.text.leadSent": "Lead envoyé à la plateforme",
  "timeline.text.leadSentAgain":
    "Lead renvoyé : l'issue de l'essai précédent était inconnue et aucun lead n'a été trouvé pour lui",
  "timeline.text.leadCreated": "Lead {ref} créé",
  "timeline.text.leadCreatedAnomalies": "Lead {ref} créé avec anomalies : {anomalies}",
  "timeline.text.leadFound": "Lead {ref} retrouvé sur la plateforme après un essai à l'issue inconnue",
  "timeline.text.leadFoundAnomalies":
    "Lead {ref} retrouvé sur la plateforme après un essai à l'issue inconnue, avec anomalies : {anomalies}",
  "timeline.text.refused": "La plateforme a refusé {field} : corrigez puis renvoyez la commande",
  "timeline.text.sendFailedRetrying": "Échec de l'envoi, nouvel essai : {cause}",
  "timeline.text.sendFailedFinal":
    "Échec de l'envoi après {attempts, plural, one {# essai} other {# essais}} : {cause}",
  "timeline.text.settled": "Réglé par {by} dans l'espace vendeur de la plateforme (lead {ref})",
  "timeline.text.staleHeld":
    "Passée il y a {days, plural, one {# jour} other {# jours}}, plus que votre limite de {limit, plural, one {# jour} other {# jours}} : elle attend votre accord avant d'être envoyée",
  "timeline.text.staleSent":
    "Envoyée par {by} en connaissance de cause : passée il y a {days, plural, one {# jour} other {# jours}}",
  "timeline.text.heldByRules": "Retenue par vos règles d'envoi",
  "timeline.text.autoSendOff":
    "L'envoi automatique est désactivé : envoyez cette commande depuis l'application quand elle est prête",
  "timeline.text.keyRejected": "La plateforme a refusé votre clé : saisissez-en une nouvelle dans les paramètres",
  "timeline.text.waitingForKey": "En attente de la clé de votre plateforme : saisissez-la dans les paramètres",
  "timeline.text.waitingKeyRejected":
    "En attente : la plateforme a refusé votre clé. Saisissez-en une nouvelle dans les paramètres",
  "timeline.text.rateLimited": "Limite d'envoi atteinte : nouvel envoi dans {seconds} s",
  "timeline.text.earlierSendLanding":
    "Un envoi précédent de cette commande est peut-être encore en route vers la plateforme : on le cherche là-bas dès qu'il est arrivé",
  "timeline.text.notInstalled": "L'application n'est plus installée sur cette boutique",
  "timeline.text.reinstalled": "L'application a été réinstallée : la commande est envoyée",
  "timeline.text.statusChanged": "Lead {ref} : {changes}",
  "timeline.text.writtenBack": "Commande Shopify mise à jour : {steps}",
  "timeline.text.writeBackRefused": "Shopify a refusé la mise à jour",
  "timeline.text.flowSent": "Envoyé à Shopify Flow : « {trigger} »",
  "timeline.text.flowRefused": "Shopify Flow a refusé « {trigger} »",
  "timeline.text.updated": "Commande modifiée dans Shopify : elle est vérifiée à nouveau",
  "timeline.text.cancelledBeforeSending": "Commande annulée dans Shopify : elle ne sera pas envoyée",
  "timeline.text.cancelledReason": "Annulée dans Shopify avant l'envoi",
  "timeline.text.refundedAfterSending":
    "Remboursée dans Shopify après l'envoi de son lead {ref} : le colis part quand même si vous n'annulez pas le lead dans l'espace vendeur de votre plateforme",
  "timeline.text.editedAfterSending":
    "Modifiée dans Shopify après l'envoi de son lead {ref} : le lead garde les anciens articles, montant ou adresse. Corrigez-le ou annulez-le dans l'espace vendeur de votre plateforme",
  "timeline.text.cancelledAfterSending":
    "Commande annulée dans Shopify après l'envoi de son lead {ref} : annulez le lead dans l'espace vendeur de votre plateforme",
  "timeline.text.cancelledAfterSendingNoRef":
    "Commande annulée dans Shopify après l'envoi de son lead : annulez le lead dans l'espace vendeur de votre plateforme",
  "timeline.text.resent": "Renvoyée par {by}",
  "timeline.text.resentReplacing": "Renvoyée par {by} (lead précédent {ref})",
  "timeline.text.corrected": "Corrigé par {by} pour cette commande : {fields}",
  "timeline.text.resentSecondLead":
    "Renvoyée par {by}, qui a confirmé qu'un deuxième lead peut exister en plus de {ref}",
  "timeline.text.duplicateKept": "Gardée comme vraie commande par {by}, malgré l'alerte de doublon de la plateforme",
  "timeline.text.cancelledAsDuplicate":
    "Annulée dans Shopify par {by} comme doublon ; le lead {ref} reste sur la plateforme tant que vous ne l'annulez pas dans l'espace vendeur",
  "timeline.text.recovered":
    "Reprise par la réconciliation : le webhook de Shopify pour cette nouvelle commande n'est jamais arrivé",
  "timeline.text.reconciledCancellation":
    "Annulation trouvée par la réconciliation : le webhook de Shopify n'est jamais arrivé",
  "timeline.text.reconciledChange":
    "Modification trouvée par la réconciliation : le webhook de Shopify n'est jamais arrivé",
  "timeline.text.rewritten": "La commande Shopify ne montre pas ce que l'app a écrit ({what}) : écrit à nouveau",
  "timeline.drift.fulfillment": "le traitement",
  "timeline.drift.paid": "le paiement",
  "timeline.drift.tags": "les balises",
  "timeline.text.refusedValue":
    "Non envoyée : une des valeurs de la commande ne peut pas être enregistrée. Corrigez la commande dans Shopify, puis renvoyez-la",
  "timeline.text.recheckedHeld": "Vérifiée à nouveau après une correction : toujours retenue ({codes})",
  "timeline.text.recheckedReleased": "Vérifiée à nouveau après une correction : plus rien ne la retient",
  "timeline.text.readyAfterFix": "Prête à envoyer : une correction a levé ce qui la retenait",
  "timeline.text.oddsReleased":
    "Prête à envoyer : votre nouvelle règle de chances de livraison ne la retient plus ({percent} % de chances d'être livrée) ; elle attend votre accord",
  "timeline.text.redacted": "Données du client effacées à la demande de Shopify",
  "timeline.change.confirmation": "confirmation {from} → {to}",
  "timeline.change.shipping": "livraison {from} → {to}",
  "timeline.change.tracking": "numéro de suivi {number}",
  "timeline.change.profit": "bénéfice vendeur {amount}",
  "timeline.writeBack.tagsAdded": "balises de statut mises à jour",
  "timeline.writeBack.tagsRemoved": "balises de statut mises à jour",
  "timeline.writeBack.fulfilled": "expédiée avec le numéro de suivi",
  "timeline.writeBack.paid": "marquée comme payée",
  "timeline.writeBack.cancel": "annulation demandée",
  "timeline.cause.unreachable": "la plateforme est injoignable",
  "timeline.cause.timeout": "la plateforme n'a pas répondu à temps",
  "timeline.cause.server": "la plateforme a eu une erreur de son côté",
  "timeline.cause.unexpected": "la réponse de la plateforme était illisible",
  "timeline.cause.other": "une erreur inattendue",
  "timeline.field.lead": "la commande",
  "timeline.field.other": "le champ « {name} »",
  "timeline.field.customer_name": "le nom du client",
  "timeline.field.customer_phone": "le numéro de téléphone",
  "timeline.field.city": "la ville",
  "timeline.field.address": "l'adresse",
  "timeline.field.total_client": "le montant à encaisser",
  "timeline.field.items": "les produits",
  "timeline.flowTrigger.lead-created": "Lead créé",
  "timeline.flowTrigger.lead-status-changed": "Statut du lead modifié",
  "timeline.flowTrigger.order-needs-attention": "Commande à traiter",
  "timeline.flowTrigger.payment-overdue": "Paiement en retard",
  "timeline.flowTrigger.order-stuck": "Commande bloquée",
  "timeline.flowTrigger.delivery-odds-scored": "Chances de livraison calculées",
  "timeline.actor.merchant": "vous",
  "timeline.actor.flow": "Shopify Flow",
  "timeline.detail.platform": "Message de la plateforme :",
  "timeline.detail.shopify": "Message de Shopify :",
};
