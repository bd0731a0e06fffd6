import type { orderPageEn } from "./order-page.en";

export const orderPageFr: Record<keyof typeof orderPageEn, string> = {
  "order.stepper.title": "Où en est la commande",
  "order.step.received": "Reçue",
  "order.step.sent": "Envoyée",
  "order.step.confirmed": "Confirmée",
  "order.step.shipped": "Expédiée",
  "order.step.delivered": "Livrée",
  "order.step.done": "fait",
  "order.step.notYet": "pas encore",
  "order.stopped.held": "Arrêtée avant l'envoi : retenue pour vous (voir ci-dessous).",
  "order.stopped.refused": "Arrêtée : la plateforme a refusé le lead.",
  "order.stopped.failed": "Arrêtée : l'envoi a échoué après toutes les tentatives.",
  "order.stopped.skipped":
    "Non envoyée : ce n'est pas une commande en paiement à la livraison (ou c'est une commande test).",
  "order.stopped.cancelled_in_shopify": "Arrêtée : annulée dans Shopify.",
  "order.stopped.cancelled_on_call": "Arrêtée : annulée lors de l'appel de confirmation.",
  "order.stopped.parcel_cancelled": "Arrêtée : le colis a été annulé.",
  "order.stopped.returned": "Arrêtée : le colis a été refusé à la livraison ou retourné.",
  "order.action.send": "Envoyer",
  "order.action.retry": "Réessayer l'envoi",

  "next.fix.title": "Retenue : {problem}",
  "next.fix.body": "Corrigez ci-dessous : dès que plus rien ne la retient, la commande est envoyée.",
  "next.send.title": "Prête à envoyer",
  "next.sendAnyway.body": "Appelez ou écrivez d'abord au client : ne l'envoyez quand même que s'il confirme.",
  "next.retry.title": "Échec de l'envoi",
  "next.retry.body":
    "La plateforme n'a pas pu être jointe malgré toutes les tentatives. Réessayez : si une tentative précédente l'a atteinte, l'app retrouve ce lead au lieu d'en créer un second.",
  "next.refused.title": "Refusée par la plateforme",
  "next.refused.fix.phone":
    "Saisissez le mobile du client (06 ou 07) dans le formulaire de correction de cette page : la commande est alors renvoyée.",
  "next.refused.fix.city":
    "Corrigez la ville dans Shopify, ou faites mémoriser cette orthographe dans Correspondances, puis renvoyez la commande.",
  "next.refused.fix.items":
    "Associez le produit à un produit du catalogue de la plateforme dans Correspondances, puis renvoyez la commande.",
  "next.refused.fix.total": "Corrigez le total de la commande dans Shopify, puis renvoyez la commande.",
  "next.refused.fix.name": "Ajoutez le nom du client à la commande dans Shopify, puis renvoyez-la.",
  "next.refused.fix.address":
    "Corrigez l'adresse dans le formulaire de correction de cette page : la commande est alors renvoyée.",
  "next.refused.fix.other": "Corrigez la commande dans Shopify, puis renvoyez-la.",
  "next.duplicate.title": "La plateforme a signalé ce lead comme un doublon récent",
  "next.duplicate.repeats": "Il reprend le lead {ref}.",
  "next.duplicate.openEarlier": "Ouvrir la commande {name}",
  "next.duplicate.repeatsUnknown": "La plateforme n'a pas indiqué quel lead il reprend.",
  "next.duplicate.body":
    "À vous de décider : gardez les deux si le client a vraiment commandé deux fois, ou annulez cette commande dans Shopify.",
  "next.duplicate.sellerSpace":
    "Dans les deux cas, le lead {ref} lui-même ne peut être annulé ou débloqué que dans l'espace vendeur de votre plateforme : l'app ne peut pas modifier un lead sur la plateforme.",
  "next.duplicate.keep": "Garder les deux",
  "next.duplicate.cancel": "Annuler cette commande dans Shopify",
  "next.cancelledLead.title": "Annulée dans Shopify, mais le lead existe toujours",
  "next.cancelledLead.body":
    "Le lead {ref} est toujours sur la plateforme : annulez-le dans l'espace vendeur de votre plateforme, sinon le client peut encore être appelé et le colis expédié.",
  "next.flagged.title": "La plateforme a signalé ce lead",
  "next.flagged.waits":
    "La plateforme a enregistré le lead {ref} et attend sa correction dans son espace vendeur : l'app ne peut pas modifier un lead sur la plateforme.",
  "next.flagged.options": "Vos possibilités :",
  "next.flagged.option.sellerSpace":
    "Corriger le lead dans l'espace vendeur de votre plateforme (le montant, le produit ou la ville).",
  "next.flagged.option.mapProduct":
    "Associer le produit dans Correspondances, pour que les prochaines commandes partent correctement.",
  "next.flagged.option.learnCity":
    "Faire mémoriser cette orthographe de la ville dans Correspondances, pour que les prochaines commandes partent correctement.",
  "next.flagged.option.cancel": "Ou annuler la commande dans Shopify et le lead dans l'espace vendeur.",
  "next.flagged.option.newLead":
    "Ou, une fois la commande corrigée, envoyer un nouveau lead : un second lead existera alors à côté de celui-ci.",
  "next.flagged.newLead": "Envoyer un nouveau lead",
  "next.stale.title":
    "{days, plural, one {Passée il y a # jour : à envoyer en connaissance de cause} other {Passée il y a # jours : à envoyer en connaissance de cause}}",
  "next.stale.body":
    "Elle a été passée le {date}, plus tôt que votre limite de {limit, plural, one {# jour} other {# jours}} : l'application ne l'envoie donc pas d'elle-même. {amount} à encaisser.",
  "next.stale.call":
    "Le client ne l'attend peut-être plus : appelez-le ou écrivez-lui d'abord, puis envoyez-la seulement s'il la veut toujours. Un colis refusé vous coûte sa livraison et son retour.",
  "next.stopLead.title.cancelled": "Annulée dans Shopify, mais son colis est toujours en route",
  "next.stopLead.title.refunded": "Remboursée dans Shopify, mais son colis est toujours en route",
  "next.stopLead.title.edited": "Modifiée dans Shopify après l'envoi : le lead dit autre chose",
  "next.stopLead.what.cancelled":
    "La commande a été annulée dans Shopify après l'envoi de son lead {ref}. La plateforme n'en sait rien : son centre d'appel peut la confirmer et le transporteur la livrer.",
  "next.stopLead.what.refunded":
    "La commande a été remboursée dans Shopify après l'envoi de son lead {ref}. La plateforme n'en sait rien : le transporteur peut encore la livrer et encaisser.",
  "next.stopLead.what.edited":
    "Les articles, le montant ou l'adresse ont changé dans Shopify après l'envoi du lead {ref} : le lead garde les anciens.",
  "next.stopLead.cost":
    "Si rien n'est fait : {fee} de livraison (le tarif de la plateforme pour cette ville), et les frais de retour si le client refuse le colis.",
  "next.stopLead.costUnknown":
    "Si rien n'est fait : les frais de livraison, et les frais de retour si le client refuse le colis.",
  "next.stopLead.way":
    "Seul l'espace vendeur de votre plateforme peut annuler le lead {ref} : son API ne permet à aucune application d'annuler un lead. Annulez-le là-bas, puis indiquez que c'est fait.",
  "next.stopLead.wayEdited":
    "Seul l'espace vendeur de votre plateforme peut corriger le lead {ref} : son API ne permet à aucune application de modifier un lead. Corrigez-le (ou annulez-le et renvoyez la commande), puis indiquez que c'est fait.",
  "next.stopLead.open": "Ouvrir le lead {ref} dans l'espace vendeur",
  "next.stopLead.noAddress": "Ajoutez l'adresse de votre espace vendeur dans les",
  "next.stopLead.settled": "C'est fait dans l'espace vendeur",
  "order.stale.confirm.title": "Envoyer cette commande ancienne ?",
  "order.stale.confirm.body":
    "{name} a été passée il y a {days, plural, one {# jour} other {# jours}} ({amount} à encaisser), plus tôt que votre limite de {limit, plural, one {# jour} other {# jours}}.",
  "order.stale.confirm": "L'envoyer en connaissance de cause",
  "order.settled": "Indiqué comme réglé",
  "next.wait.title": "En cours",
  "next.wait.body": "L'app envoie cette commande à la plateforme : rien à faire.",
  "next.kept.title": "Vous avez gardé les deux leads",
  "next.kept.body":
    "Si la plateforme bloque encore ce lead pour son alerte de doublon, débloquez-le dans l'espace vendeur de votre plateforme.",

  "order.secondLead.title": "Envoyer un second lead ?",
  "order.secondLead.body":
    "Le lead {ref} existe déjà sur la plateforme pour cette commande. Renvoyer la commande crée un second lead : le client peut être appelé deux fois et deux colis expédiés.",
  "order.secondLead.sellerSpace":
    "Le premier lead reste sur la plateforme : seul l'espace vendeur de votre plateforme peut l'annuler.",
  "order.secondLead.confirm": "Envoyer un second lead",
  "order.sendAnyway.title": "Envoyer cette commande quand même ?",
  "order.sendAnyway.body":
    "La commande part vers la plateforme malgré l'historique de ce client. Ses prochaines commandes seront de nouveau vérifiées.",
  "order.cancelDuplicate.title": "Annuler la commande {name} dans Shopify ?",
  "order.cancelDuplicate.body":
    "La commande est annulée dans Shopify et ses articles remis en stock ; le client n'est pas prévenu et rien n'est remboursé (rien n'a été payé).",
  "order.cancelDuplicate.lead":
    "Le lead {ref} reste sur la plateforme : annulez-le dans l'espace vendeur de votre plateforme, l'app ne le peut pas.",
  "order.cancelDuplicate.confirm": "Annuler la commande dans Shopify",
  "order.duplicate.kept": "Les deux leads sont gardés",
  "order.duplicate.cancelled": "Commande annulée dans Shopify : annulez maintenant son lead dans l'espace vendeur",
  "order.duplicate.shopifyFailed":
    "Shopify n'a pas pu annuler la commande pour le moment. Réessayez dans un instant, ou annulez-la depuis la page de la commande dans Shopify.",

  "bulk.title": "{count, plural, one {Envoyer {orders} commande ?} other {Envoyer {orders} commandes ?}}",
  "bulk.confirm": "{count, plural, one {Envoyer {orders} commande} other {Envoyer {orders} commandes}}",
  "bulk.summary": "{count, plural, one {{orders} commande} other {{orders} commandes}}, {amount} à encaisser.",
  "bulk.summaryOldest":
    "{count, plural, one {{orders} commande} other {{orders} commandes}}, {amount} à encaisser ; la plus ancienne a été passée il y a {age}.",
  "bulk.olderWait":
    "{count, plural, one {{orders} autre, passée il y a plus de {days, plural, one {# jour} other {# jours}} ({amount}), ne part pas : elle attend votre accord dans Anomalies.} other {{orders} autres, passées il y a plus de {days, plural, one {# jour} other {# jours}} ({amount}), ne partent pas : elles attendent votre accord dans Anomalies.}}",
  "bulk.staleWarning":
    "Elles ont été passées il y a plus de {days, plural, one {# jour} other {# jours}} : le client ne les attend peut-être plus. Appelez-le d'abord en cas de doute : chaque colis refusé vous coûte sa livraison et son retour.",
  "bulk.what": "Chaque commande devient un lead sur la plateforme, dont le centre d'appel appelle le client.",
  "release.body": "Plus rien ne retient ces commandes : {orders}.",
  "release.sent": "Commandes envoyées : {count}",

  "timeline.rechecked": "Revérifiée après une correction",
  "timeline.odds_released": "Plus retenue pour ses chances",
  "timeline.resend_second_lead": "Renvoyée : un second lead peut exister",
  "timeline.duplicate_kept": "Doublon gardé comme vraie commande",
  "timeline.cancelled_in_shopify": "Annulée dans Shopify comme doublon",
  "fix.useSuggestion": "Utiliser {name} et envoyer",
  "fix.error.second_lead":
    "Un lead existe déjà pour cette commande : confirmez que vous voulez un second lead avant de la renvoyer.",
};
