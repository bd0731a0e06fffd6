/** French messages. Typed against en.ts: a missing or extra key fails to compile. */
import type { Messages } from "./en";
import { mappingsActivityBackfillFr } from "./mappings-activity-backfill.fr";
import { ordersFr } from "./orders.fr";
import { flowFr } from "./flow.fr";
import { shopifyErrorsFr } from "./shopify-errors.fr";
import { analyticsFr } from "./analytics.fr";
import { customersFr } from "./customers.fr";
import { pairingFr } from "./pairing.fr";
import { adFeedFr } from "./ad-feed.fr";
import { cashFr } from "./cash.fr";
import { ordersListFr } from "./orders-list.fr";
import { contactFr } from "./contact.fr";
import { navigationFr } from "./navigation.fr";
import { homeFr } from "./home.fr";
import { orderPageFr } from "./order-page.fr";
import { anomaliesFr } from "./anomalies.fr";
import { syncLedgerFr } from "./sync-ledger.fr";
import { timelineFr } from "./timeline.fr";
import { oddsFr } from "./odds.fr";
import { suggestionsFr } from "./suggestions.fr";
import { csvFr } from "./csv.fr";
import { platformStatusFr } from "./platform-status.fr";

export const fr: Messages = {
  "app.title": "COD Lead Sync",
  ...mappingsActivityBackfillFr,
  ...csvFr,

  "nav.home": "Accueil",
  "nav.orders": "Commandes",
  "nav.analytics": "Analyses",
  "nav.anomalies": "Anomalies",
  "nav.cash": "Encaissements",
  "nav.mappings": "Produits et villes",
  "nav.activity": "Activité",
  "nav.backfill": "Importer les commandes passées",
  "nav.settings": "Paramètres",

  "common.save": "Enregistrer",

  "common.discard": "Annuler les modifications",

  "common.leave": "Vous avez des modifications non enregistrées. Quitter cette page sans les enregistrer ?",
  "common.done": "Fait",
  "common.toDo": "À faire",
  "common.notSet": "Non défini",
  "common.copy": "Copier",
  "common.copied": "Copié",
  "common.list": "{items} et {last}",
  "common.listSeparator": ", ",
  "common.none": "–",
  "common.unknown": "Inconnu",
  "time.zone.Africa/Casablanca": "heure du Maroc",
  "time.zone.UTC": "UTC",
  "time.ago.now": "à l'instant",
  "time.ago.minutes": "{count, plural, one {il y a # minute} other {il y a # minutes}}",
  "time.ago.hours": "{count, plural, one {il y a # heure} other {il y a # heures}}",
  "time.ago.days": "{count, plural, one {il y a # jour} other {il y a # jours}}",
  "time.minutes": "{count, plural, one {# minute} other {# minutes}}",
  "time.exact": "{time} (UTC{offset})",
  "time.shown": "Heures : {zone}.",

  "home.checklist.title": "Configurer COD Lead Sync",
  "home.checklist.intro":
    "Terminez ces étapes et vos commandes en paiement à la livraison arriveront sur votre plateforme COD sous forme de leads.",
  "home.checklist.progress":
    "{done, plural, one {# étape sur {total} terminée} other {# étapes sur {total} terminées}}",
  "home.step.enter_key.title": "Connecter votre plateforme COD",
  "home.step.enter_key.help": "Collez la clé que votre plateforme COD vous a donnée pour cette boutique.",
  "home.step.enter_key.action": "Ouvrir les paramètres",
  "home.step.key_verified.title": "Plateforme connectée",
  "home.step.key_verified.help":
    "La plateforme a accepté votre clé : l'application connaît votre compte et son rythme d'envoi.",
  "home.step.key_verified.action": "Vérifier la connexion",
  "home.step.catalogue_synced.title": "Catalogue et villes synchronisés",
  "home.step.catalogue_synced.help":
    "Vos produits et les villes livrées par la plateforme sont lus pour faire correspondre les commandes.",
  "home.step.catalogue_synced.action": "Ouvrir les correspondances",
  "home.step.first_order_sent.title": "Première commande envoyée",
  "home.step.first_order_sent.help":
    "Une commande en paiement à la livraison de votre boutique est devenue un lead sur la plateforme.",
  "home.step.first_order_sent.action": "Voir les commandes",
  "home.figures.title": "Chiffres",
  "home.period.today": "Aujourd'hui",
  "home.period.last7": "7 derniers jours",
  "home.period.last30": "30 derniers jours",
  "home.figure.sent": "Commandes envoyées",
  "home.figure.held": "Retenues ou refusées",
  "home.figure.damaged": "Créées avec anomalie",
  "home.figure.noRate": "–",
  "home.period.placedOn": "Commandes passées le {day}",
  "home.period.placedBetween": "Commandes passées du {from} au {to}",
  "home.figure.collectedOf": "{count, plural, one {{delivered} commande livrée} other {{delivered} commandes livrées}}",
  "home.figures.definitions":
    "Chaque chiffre compte les commandes au jour où elles ont été passées dans Shopify, comme la page Analyses : une commande importée compte au jour où elle a été passée, pas au jour de l'import. Un taux divise les deux nombres écrits sous lui.",
  "home.chart.title": "Leads par jour, 14 derniers jours",
  "home.chart.description": "Leads envoyés chaque jour, selon leur issue.",
  "home.outcome.delivered": "Livrés",
  "home.outcome.inDelivery": "Confirmés, en livraison",
  "home.outcome.awaiting": "En attente de confirmation",
  "home.outcome.lost": "Annulés ou retournés",
  "home.outcome.damaged": "Créés avec anomalie",
  "home.empty.title": "Aucun lead pour l'instant",
  "home.empty.body":
    "Les chiffres s'affichent ici dès que votre première commande en paiement à la livraison est envoyée à la plateforme.",
  "home.alert.paused.title": "Envoi suspendu : la plateforme a refusé votre clé",
  "home.alert.paused.body":
    "Motif : {reason}. La clé a peut-être été révoquée ou remplacée. Saisissez une clé valide dans les paramètres pour reprendre l'envoi.",
  "home.alert.backlog.title": "Des commandes attendent d'être envoyées",
  "home.alert.backlog.body":
    "{count, plural, one {# tâche attend} other {# tâches attendent}} ; la plus ancienne attend depuis {minutes} min. Si cela dure, contactez le support.",
  "home.alert.dead.title": "Certaines tâches ont abandonné",
  "home.alert.dead.body":
    "{count, plural, one {# tâche a définitivement échoué} other {# tâches ont définitivement échoué}}. Consultez-les dans Activité et relancez-les.",
  "home.alert.stale.title": "Les statuts des leads ne sont pas à jour",
  "home.alert.stale.body":
    "La dernière synchronisation des statuts date de {minutes} min (attendue toutes les {expected} min).",
  "home.alert.stale.never":
    "Les statuts des leads n'ont pas encore été synchronisés (attendu toutes les {expected} min).",
  "home.alert.openSettings": "Ouvrir les paramètres",
  "home.alert.openActivity": "Ouvrir l'activité",

  "settings.title": "Paramètres",
  "settings.connection.title": "Votre plateforme COD",
  "settings.connection.intro":
    "Collez la clé que votre plateforme vous a donnée pour cette boutique. Elle est vérifiée auprès de la plateforme à l'enregistrement, puis stockée chiffrée et n'est plus jamais affichée.",
  "settings.baseUrl.label": "Adresse de la plateforme",
  "settings.baseUrl.placeholder": "https://",
  "settings.baseUrl.help": "Laissez vide pour utiliser l'adresse par défaut : {url}",
  "settings.baseUrl.helpNoDefault": "L'adresse de l'API vendeur de votre plateforme COD, commençant par https://.",
  "settings.apiKey.label": "Clé de la plateforme",
  "settings.apiKey.help": "Depuis l'espace vendeur de votre plateforme. Laissez vide pour garder la clé enregistrée.",
  "settings.apiKey.saved": "Clé enregistrée se terminant par {last4}",
  "settings.account.title": "Compte connecté",
  "settings.account.name": "Compte",
  "settings.account.id": "Numéro de compte",
  "settings.account.prefix": "Préfixe des leads",
  "settings.account.rate": "Limite d'envoi",
  "settings.account.rateValue": "{rate, plural, one {# appel} other {# appels}} par minute",
  "settings.account.apiVersion": "Version de l'API de la plateforme",
  "settings.account.key": "Clé",
  "settings.account.keyValue": "•••• {last4}",
  "settings.account.verifiedAt": "Vérifiée le",
  "settings.account.none": "Aucune clé enregistrée : les commandes attendent que vous connectiez votre plateforme.",
  "settings.account.paused": "Suspendu : {reason}",
  "settings.key.verified": "Clé vérifiée : {name}",
  "settings.key.error.notVerified":
    "La plateforme n'a pas accepté cette clé à cette adresse. Vérifiez la clé (et l'adresse de la plateforme dans Avancé), puis enregistrez à nouveau. Rien n'a été enregistré.",
  "settings.key.error.keyRequired":
    "Saisissez à nouveau la clé pour utiliser une nouvelle adresse : la clé enregistrée n'est envoyée qu'à l'adresse où elle a été vérifiée.",
  "settings.key.error.missingKey": "Saisissez la clé de votre plateforme.",
  "settings.key.error.invalidKey": "La clé contient des espaces ou des caractères non autorisés.",
  "settings.key.error.invalidBaseUrl":
    "Saisissez l'adresse https:// de la plateforme : un nom d'hôte public, sans nom d'utilisateur, paramètres ni fragment.",
  "settings.key.error.noBaseUrl":
    "Saisissez l'adresse de votre plateforme dans Avancé : aucune adresse par défaut n'est configurée.",
  "settings.key.warning.otherStore":
    "Cette clé appartient à la boutique {store}, pas à celle-ci. Vérifiez que vous avez collé la bonne clé.",
  "settings.sending.title": "Règles d'envoi",
  "settings.sending.intro":
    "Quelles commandes partent vers votre plateforme, et lesquelles vous attendent pour vérification.",
  "settings.autoSend.label": "Envoyer les commandes automatiquement",
  "settings.autoSend.help":
    "Les nouvelles commandes sont envoyées dès leur arrivée. Désactivé : elles vous attendent dans Commandes.",
  "settings.sendAllOrders.label": "Envoyer toutes les commandes, pas seulement le paiement à la livraison",
  "settings.sendAllOrders.help":
    "Les commandes déjà payées par carte sont aussi envoyées : la plateforme encaisserait leur montant une seconde fois.",
  "settings.staleOrderDays.label": "Demander avant d'envoyer les commandes passées il y a plus de",
  "settings.staleOrderDays.suffix": "jours",
  "settings.staleOrderDays.help":
    "Une commande plus ancienne (un import de commandes passées, un webhook arrivé des jours plus tard) ne part jamais toute seule : elle attend dans Anomalies, avec son âge et son montant, jusqu'à ce que vous l'envoyiez en connaissance de cause. De 1 à 90 jours ; 7 par défaut.",
  "settings.sendTestOrders.label": "Envoyer les commandes de test Shopify",
  "settings.sendTestOrders.help": "Pour essayer l'application sur une boutique de développement.",
  "settings.codPatterns.label": "Moyens de paiement à la livraison",
  "settings.codPatterns.help":
    "Un par ligne. Une commande dont le moyen de paiement contient l'un de ces noms est en paiement à la livraison.",
  "settings.hold.title": "Retenir une commande pour vérification quand",
  "settings.hold.help": "Décoché : la commande est envoyée avec un avertissement.",
  "settings.hold.city_missing": "La ville manque",
  "settings.hold.city_unmatched": "La ville n'est pas une ville livrée",
  "settings.hold.city_fuzzy": "La ville a été lue par ressemblance, sans preuve",
  "settings.hold.city_fuzzyHelp":
    "Un nom proche de celui d'une ville livrée, ou qui le contient, peut être une autre localité (Bab Taza n'est pas Taza). Coché : la commande vous attend avec la ville qui lui ressemble et son adresse. Une orthographe qui se prononce comme une seule ville livrée, ou que vous avez confirmée, part dans tous les cas.",
  "settings.hold.city_from_address": "La ville a été trouvée dans l'adresse",
  "settings.hold.sku_missing": "Un produit n'a pas de SKU",
  "settings.hold.sku_unmatched": "Un produit n'est pas dans le catalogue de la plateforme",
  "settings.hold.item_out_of_stock": "Un produit est en rupture de stock",
  "settings.hold.currency_not_mad": "Le montant n'est pas en MAD",
  "settings.hold.total_below_cost": "Le total est inférieur aux prix de la plateforme plus la livraison",
  "settings.hold.possible_duplicate": "La commande est peut-être un doublon",
  "settings.hold.phone_unverified": "Le numéro de téléphone n'a pas pu être vérifié",
  "settings.hold.name_missing": "Le nom du client manque",
  "settings.writeBack.title": "Mettre à jour les commandes Shopify",
  "settings.writeBack.intro":
    "Ce que l'application écrit sur la commande Shopify à mesure que la plateforme fait avancer le lead.",
  "settings.writeBack.tags": "Étiqueter les commandes avec le statut du lead",
  "settings.writeBack.fulfillment": "Traiter les commandes avec le numéro de suivi à l'expédition",
  "settings.writeBack.markPaid": "Marquer les commandes comme payées à la livraison",
  "settings.writeBack.cancel": "Annuler les commandes annulées par la plateforme",
  "settings.sellerSpaceUrl.label": "Adresse de l'espace vendeur de votre plateforme (facultatif)",
  "settings.sellerSpaceUrl.placeholder": "https://",
  "settings.sellerSpaceUrl.help":
    "Seul l'espace vendeur peut annuler ou corriger un lead : une commande annulée ou modifiée dans Shopify après l'envoi y renvoie. L'application ne l'ouvre jamais elle-même.",
  "settings.carrierName.label": "Nom du transporteur sur les expéditions",
  "settings.carrierName.help":
    "Affiché comme société de suivi dans Shopify. Laissez vide pour laisser Shopify choisir.",
  "settings.sync.title": "Avancé",
  "settings.advanced.intro":
    "Réglages techniques de la connexion et de l'application. Les valeurs par défaut conviennent à la plupart des boutiques.",
  "settings.statusSync.label": "Vérifier les statuts des leads toutes les (minutes)",
  "settings.retention.label": "Conservation des données (jours)",
  "settings.retention.help": "Les copies de commandes et les journaux plus anciens sont supprimés.",
  "settings.events.title": "Mises à jour instantanées des statuts",
  "settings.events.intro":
    "Donnez cette adresse et un secret de signature à votre plateforme dans son espace vendeur : les changements de statut arrivent alors aussitôt au lieu d'attendre la prochaine vérification.",
  "settings.eventsUrl.label": "Adresse à donner à votre plateforme",
  "settings.eventsSecret.label": "Secret de signature",
  "settings.eventsSecret.help": "Jamais réaffiché. Laissez vide pour garder le secret enregistré.",
  "settings.eventsSecret.weak":
    "Utilisez le secret de votre plateforme : au moins {min} caractères, sans motif répété.",
  "settings.eventsSecret.saved": "Un secret est enregistré",
  "settings.eventsSecret.none": "Aucun secret enregistré",
  "settings.saved": "Paramètres enregistrés",
  "settings.error.title": "Certains paramètres sont à corriger : rien n'a été enregistré",
  "settings.display.title": "Montants",
  "settings.display.intro": "Comment l'application écrit les montants en dirhams sur ses pages.",
  "settings.currency.label": "Nom de la devise",
  "settings.currency.MAD": "MAD, le code international ({example})",
  "settings.currency.DH": "DH, comme le disent les clients ({example})",
  "settings.field.integer": "Saisissez un nombre entier.",
  "settings.field.min": "Doit être au moins {min}.",
  "settings.field.max": "Doit être au plus {max}.",
  "settings.field.required": "Saisissez au moins une valeur.",
  "settings.field.invalid": "Cette valeur n'est pas valide.",

  "paused.key_rejected": "clé refusée par la plateforme",

  "state.received": "Reçue",
  "state.held": "Retenue",
  "state.skipped": "Ignorée",
  "state.posting": "Envoi en cours",
  "state.created": "Lead créé",
  "state.damaged": "Créée avec anomalie",
  "state.invalid": "Refusée",
  "state.retrying": "Nouvel essai",
  "state.failed": "Échec",
  "state.cancelled": "Annulée",
  "status.unknown": "{status}",
  ...platformStatusFr,
  ...ordersFr,
  ...flowFr,
  ...shopifyErrorsFr,
  ...analyticsFr,
  ...customersFr,
  ...pairingFr,
  ...adFeedFr,
  ...cashFr,
  ...ordersListFr,
  ...contactFr,
  ...navigationFr,
  ...homeFr,
  ...orderPageFr,
  ...anomaliesFr,
  ...suggestionsFr,
  ...syncLedgerFr,
  ...timelineFr,
  ...oddsFr,
};
