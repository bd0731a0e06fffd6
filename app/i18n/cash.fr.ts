/** French messages of the cash features: the keys of cash.en.ts, each translated. */
import type { cashEn } from "./cash.en";

export const cashFr: Record<keyof typeof cashEn, string> = {
  "cash.title": "Encaissements",
  "cash.intro":
    "Le livreur encaisse l’argent à la porte ; la plateforme garde ses prix et ses frais et vous verse ensuite votre bénéfice. Un colis livré vous est dû jusqu’à ce que la plateforme le paie ; les montants dus sont vos bénéfices vendeur.",
  "cash.overdueRule":
    "Après {days, plural, one {# jour} other {# jours}} sans paiement, un colis est en retard : une alerte sur l’accueil et le déclencheur Flow « Paiement en retard ». Le délai se change dans les paramètres.",
  "cash.tab.owed": "Pas encore payés",
  "cash.tab.paid": "Payés",
  "cash.tab.returned": "Retournés",
  "cash.summary.owed": "Dû par la plateforme : {amount}",
  "cash.summary.paid": "Payé par la plateforme : {amount}",
  "cash.summary.returned": "Retournés : {amount} non encaissés",
  "cash.summary.parcels": "{count, plural, one {# colis} other {# colis}}",
  "cash.summary.unknownProfit":
    "{count, plural, one {# colis dont le bénéfice n’est pas encore communiqué n’est pas compté dans le montant.} other {# colis dont le bénéfice n’est pas encore communiqué ne sont pas comptés dans le montant.}}",
  "cash.ages.title": "Selon l’ancienneté de la livraison",
  "cash.age.band": "{band} : {amount} · {parcels}",
  "cash.age.0-7": "0 à 7 jours",
  "cash.age.8-14": "8 à 14 jours",
  "cash.age.15-30": "15 à 30 jours",
  "cash.age.over-30": "Plus de 30 jours",
  "cash.filter.minAge": "Livrés il y a plus de {days, plural, one {# jour} other {# jours}}",
  "cash.filter.maxAge": "Livrés il y a {max, plural, one {# jour} other {# jours}} au plus",
  "cash.filter.range": "Livrés il y a {min} à {max, plural, one {# jour} other {# jours}}",
  "cash.filter.clear": "Voir tous les colis pas encore payés",
  "cash.column.order": "Commande",
  "cash.column.lead": "Lead",
  "cash.column.delivered": "Livré le",
  "cash.column.age": "Jours depuis la livraison",
  "cash.column.paid": "Payé le",
  "cash.column.returned": "Retourné le",
  "cash.column.amount": "Montant encaissé",
  "cash.column.amountToCollect": "Montant à encaisser",
  "cash.column.profit": "Bénéfice vendeur",
  "cash.profit.unknown": "Pas encore communiqué",
  "cash.days": "{count, plural, one {# jour} other {# jours}}",
  "cash.empty.owed": "Rien à payer : la plateforme a payé tous les colis livrés.",
  "cash.empty.filtered": "Aucun colis dans cette vue.",
  "cash.empty.paid": "Aucun colis payé par la plateforme pour l’instant.",
  "cash.empty.returned": "Aucun colis retourné.",
  "cash.export": "Exporter ces colis (CSV)",
  "cash.exportFailed": "L’export n’a pas pu être téléchargé. Réessayez.",
  "cash.pagination": "Pages de colis",
  "cash.error.title": "Cette liste ne peut pas être affichée telle quelle",
  "cash.error.bad_state": "Cette liste n’existe pas : les colis pas encore payés sont affichés.",
  "cash.error.bad_age":
    "Les jours depuis la livraison doivent être des nombres entiers de 0 à 3650, le plus petit d’abord, et seulement pour les colis pas encore payés : tous les colis pas encore payés sont affichés.",
  "cash.error.bad_cursor": "Cette page de la liste n’existe plus : la première page est affichée.",

  "home.cash.title": "L’argent de la plateforme",
  "home.cash.owed": "Dû par la plateforme : {amount}",
  "home.cash.ofWhich": "dont {amount} en retard (livrés il y a plus de {days, plural, one {# jour} other {# jours}})",
  "home.cash.parcels":
    "{count, plural, one {# colis livré et pas encore payé.} other {# colis livrés et pas encore payés.}}",
  "home.cash.nothingOwed": "Rien à payer : la plateforme a payé tous les colis livrés.",
  "home.cash.seeAll": "Voir tous les colis pas encore payés",
  "home.cash.overdue.title":
    "{count, plural, one {Paiement en retard : # colis livré il y a plus de {days, plural, one {# jour} other {# jours}} n’est pas payé} other {Paiement en retard : # colis livrés il y a plus de {days, plural, one {# jour} other {# jours}} ne sont pas payés}}",
  "home.cash.overdue.body":
    "La plateforme vous doit {amount} pour ces colis. Relancez la plateforme, ou changez le délai dans les paramètres.",
  "home.cash.overdue.action": "Voir les colis en retard",

  "analytics.figure.netCollected": "Encaissé net",
  "analytics.figure.owed": "Dû par la plateforme",
  "analytics.figure.confirmationRate": "Taux de confirmation",
  "analytics.figure.returnRate": "Taux de retour",
  "analytics.figures.definitions":
    "Encaissé net : l’argent encaissé à la porte pour les commandes de la période livrées (les retours et les annulations ne rapportent rien). Dû : le bénéfice vendeur des colis livrés que la plateforme n’avait pas encore payés à la fin de la période.",
  "analytics.figures.more":
    "Commandes reçues : {orders} (période précédente : {previousOrders}). Délai médian de livraison : {days} (période précédente : {previousDays}).",
  "analytics.rate.confirmedOfSent":
    "{part, plural, one {# confirmée} other {# confirmées}} sur {whole, plural, one {# envoyée} other {# envoyées}}",
  "analytics.change.up": "↑ {value}",
  "analytics.change.down": "↓ {value}",
  "analytics.change.same": "Inchangé",
  "analytics.change.new": "Nouveau sur cette période",
  "analytics.change.points": "{value} pts",
  "analytics.change.against": "contre {previous} sur la période précédente",
  "analytics.funnel.lostLine": "Perdues avant l’étape suivante : {items}",
  "analytics.funnel.tableCaption": "De la commande à la livraison, étape par étape",
  "analytics.week.label": "S{week} · {range}",
  "analytics.week.axis": "S{week}",
  "analytics.others": "Autres ({count})",
  "analytics.others.note":
    "{count, plural, one {La plus petite ligne est comptée dans « Autres »} other {Les # plus petites lignes sont additionnées dans « Autres »}} ; le CSV contient toutes les lignes.",
  "analytics.cash.title": "L’argent de la plateforme",
  "analytics.cash.paid": "Payé par la plateforme sur la période : {amount}",
  "analytics.cash.returned": "Retournés sur la période : {amount} non encaissés",
  "analytics.cash.owedToday": "Dû aujourd’hui, selon l’ancienneté de la livraison",
  "analytics.cash.list": "Voir les colis pas encore payés",
  "analytics.exportCash": "Exporter le relevé des encaissements (CSV)",

  "date.month.1": "janv",
  "date.month.2": "févr",
  "date.month.3": "mars",
  "date.month.4": "avr",
  "date.month.5": "mai",
  "date.month.6": "juin",
  "date.month.7": "juil",
  "date.month.8": "août",
  "date.month.9": "sept",
  "date.month.10": "oct",
  "date.month.11": "nov",
  "date.month.12": "déc",

  "settings.cash.title": "Encaissements et paiements",
  "settings.cash.markPaidWhen.label": "Marquer la commande Shopify comme payée",
  "settings.cash.markPaidWhen.delivered": "À la livraison (le client a payé le livreur)",
  "settings.cash.markPaidWhen.paid": "Quand la plateforme vous paie",
  "settings.cash.markPaidWhen.help":
    "À la livraison, Shopify compte la vente dès que le livreur a l’argent ; quand la plateforme vous paie, les rapports financiers de Shopify ne montrent que l’argent que vous avez reçu.",
  "settings.cash.markPaidWhen.off":
    "Activez « Marquer les commandes comme payées à la livraison » dans « Mises à jour dans Shopify » pour utiliser ce choix.",
  "settings.cash.overdueDays.label": "Paiement en retard après (jours)",
  "settings.cash.overdueDays.help":
    "Un colis livré que la plateforme n’a pas payé après ce nombre de jours affiche une alerte sur l’accueil et peut lancer un workflow Flow.",
  "settings.cash.flowTrigger": "Envoyer le déclencheur Shopify Flow « Paiement en retard »",

  "activity.jobKind.payment-overdue": "Vérifier les colis non payés",
};
