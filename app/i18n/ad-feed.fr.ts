/** French messages of the conversion feed (see ad-feed.en.ts), spread into fr.ts. */
import type { adFeedEn } from "./ad-feed.en";

export const adFeedFr: Record<keyof typeof adFeedEn, string> = {
  "adFeed.platform.meta": "Meta",
  "adFeed.platform.tiktok": "TikTok",
  "adFeed.stage.confirmed": "Confirmée",
  "adFeed.stage.shipped": "Expédiée",
  "adFeed.stage.delivered": "Livrée",
  "adFeed.stage.refused": "Refusée",
  "adFeed.stage.returned": "Retournée",

  "settings.adFeed.title": "Flux de conversions (Meta et TikTok)",
  "settings.adFeed.help":
    "Indiquez à Meta et TikTok quelles commandes sont vraiment devenues des ventes : les publicités cherchent alors des acheteurs qui acceptent leur colis, pas des acheteurs qui commandent puis refusent. Rien n'est envoyé tant que vous n'avez pas activé le flux.",
  "settings.adFeed.on": "Activé",
  "settings.adFeed.off": "Désactivé",
  "settings.adFeed.meta.title": "Meta (Facebook et Instagram)",
  "settings.adFeed.meta.id": "ID de l'ensemble de données (ID du pixel)",
  "settings.adFeed.meta.idHelp":
    "Dans le Gestionnaire d'événements de Meta : les chiffres sous le nom de votre ensemble de données.",
  "settings.adFeed.meta.token": "Jeton d'accès de l'API Conversions",
  "settings.adFeed.meta.tokenHelp":
    "Créé dans le Gestionnaire d'événements (votre ensemble de données, Paramètres, API Conversions). Conservé chiffré, jamais réaffiché.",
  "settings.adFeed.tiktok.title": "TikTok",
  "settings.adFeed.tiktok.id": "Code du pixel",
  "settings.adFeed.tiktok.idHelp":
    "Dans le Gestionnaire d'événements de TikTok : les 20 lettres et chiffres à côté du nom de votre pixel.",
  "settings.adFeed.tiktok.token": "Jeton d'accès de l'API Events",
  "settings.adFeed.tiktok.tokenHelp":
    "Créé dans le Gestionnaire d'événements (votre pixel, Paramètres, API Events). Conservé chiffré, jamais réaffiché.",
  "settings.adFeed.connected": "Connecté à {name}",
  "settings.adFeed.connectedUnnamed": "Connecté",
  "settings.adFeed.tokenSaved":
    "Jeton se terminant par {last4}, vérifié le {date}. Laissez le champ vide pour le garder.",
  "settings.adFeed.tokenSavedNoDigits": "Jeton vérifié le {date}. Laissez le champ vide pour le garder.",
  "settings.adFeed.connect": "Connecter {platform}",
  "settings.adFeed.checkAgain": "Vérifier {platform} à nouveau",
  "settings.adFeed.disconnect": "Déconnecter {platform}",
  "settings.adFeed.connectedToast": "{platform} connecté",
  "settings.adFeed.disconnectedToast": "{platform} déconnecté",
  "settings.adFeed.error.invalid_id.meta":
    "Un ID d'ensemble de données ne contient que des chiffres (le Gestionnaire d'événements l'affiche sous le nom de l'ensemble).",
  "settings.adFeed.error.invalid_id.tiktok":
    "Un code de pixel compte 20 lettres majuscules et chiffres (le Gestionnaire d'événements l'affiche à côté du nom du pixel).",
  "settings.adFeed.error.token_required": "Collez le jeton d'accès : celui enregistré a été vérifié pour un autre ID.",
  "settings.adFeed.error.invalid_token": "Ce n'est pas un jeton d'accès : collez-le en entier, sans espaces.",
  "settings.adFeed.error.refused": "{platform} a refusé ce jeton. Sa réponse : « {message} »",
  "settings.adFeed.error.unreachable":
    "Impossible de joindre {platform} : rien n'a été enregistré. Réessayez dans un instant.",
  "settings.adFeed.tokenRefused":
    "{platform} a refusé le jeton d'accès enregistré le {date} : rien ne lui est envoyé tant que vous ne l'avez pas reconnecté avec un nouveau jeton.",
  "settings.adFeed.feed.title": "Ce qui est envoyé",
  "settings.adFeed.enabled": "Envoyer le résultat des commandes aux publicités",
  "settings.adFeed.stage": "Le résultat qui compte",
  "settings.adFeed.stage.confirmed": "Confirmée par téléphone",
  "settings.adFeed.stage.shipped": "Expédiée",
  "settings.adFeed.stage.delivered": "Livrée (recommandé)",
  "settings.adFeed.naming": "Son nom",
  "settings.adFeed.naming.custom":
    "Un événement personnalisé ({event}) : il ne s'ajoute jamais à l'achat (Purchase) envoyé par le paiement Shopify",
  "settings.adFeed.naming.purchase":
    "Purchase, seulement dans un ensemble de données ou un pixel dédié (pas celui du paiement Shopify, sinon chaque achat est compté deux fois)",
  "settings.adFeed.negative":
    "Envoyer aussi les commandes refusées et retournées (CODRefused, CODReturned), pour exclure ces acheteurs de vos audiences",
  "settings.adFeed.withoutConsent":
    "Envoyer les commandes sans signal de consentement, à partir des données client seules",
  "settings.adFeed.withoutConsentHelp":
    "Les commandes créées par une application de formulaire COD ne passent jamais par le paiement Shopify : la boutique ne peut pas demander son accord à l'acheteur. Désactivé : seules les commandes dont l'acheteur a accepté le marketing au paiement sont envoyées.",
  "settings.adFeed.save": "Enregistrer le flux",
  "settings.adFeed.saved": "Flux de conversions enregistré",
  "settings.adFeed.error.connect_first": "Connectez Meta ou TikTok avant d'activer le flux.",
  "settings.adFeed.error.invalid": "Ces choix ne peuvent pas être enregistrés : rechargez la page et réessayez.",
  "settings.adFeed.pixel.added":
    "Pixel de la boutique ajouté : il recueille les identifiants de clic des publicités au paiement, avec l'accord de l'acheteur.",
  "settings.adFeed.pixel.missing": "Le pixel de la boutique n'est pas encore ajouté.",
  "settings.adFeed.pixel.retry": "Ajouter le pixel de la boutique",
  "shopifyError.what.storefrontPixel": "l'ajout du pixel de la boutique",

  "analytics.adFeed.title": "Ce que les publicités ont appris",
  "analytics.adFeed.off":
    "Le flux de conversions est désactivé. Activez-le dans Paramètres (Flux de conversions) pour indiquer à Meta et TikTok ce que chaque commande est devenue.",
  "analytics.adFeed.gap":
    "Au paiement, les publicités ont appris {placed, plural, one {# achat} other {# achats}} ; depuis que le flux est activé, {reached, plural, one {# commande a} other {# commandes ont}} atteint « {stage} ».",
  "analytics.adFeed.perPlatform": "Le flux en a indiqué {meta} à Meta et {tiktok} à TikTok.",
  "analytics.adFeed.week": "Semaine du",
  "analytics.adFeed.placed": "Commandes passées",
  "analytics.adFeed.reached": "{stage}",
  "analytics.adFeed.sentTo": "Indiquées à {platform}",
  "analytics.adFeed.negative": "Refus et retours indiqués",
  "analytics.adFeed.notSent": "Non indiquées",
  "analytics.adFeed.notSentHelp":
    "Non indiquées : trop tard (plus de 7 jours), sans l'accord de l'acheteur, ou refusées par la plateforme. En attente : {pending}.",

  "activity.adFeed.title": "Flux de conversions",
  "activity.adFeed.pending": "{count, plural, one {# résultat attend} other {# résultats attendent}} d'être envoyés.",
  "activity.adFeed.sent.title": "Derniers envois",
  "activity.adFeed.notSent.title": "Non envoyés",
  "activity.adFeed.none": "Rien n'a encore été envoyé.",
  "activity.adFeed.noneNotSent": "Tous les résultats ont été envoyés.",
  "activity.adFeed.order": "Commande",
  "activity.adFeed.outcome": "Résultat",
  "activity.adFeed.platform": "Plateforme",
  "activity.adFeed.at": "Quand",
  "activity.adFeed.why": "Pourquoi",
  "activity.adFeed.how": "Indiqué avec",
  "activity.adFeed.withCheckout": "Page de paiement et données client",
  "activity.adFeed.customerDataOnly": "Données client seules (commande passée sans page de paiement)",
  "activity.adFeed.why.too_late": "Trop tard : plus de 7 jours",
  "activity.adFeed.why.no_consent": "Sans l'accord de l'acheteur",
  "activity.adFeed.why.refused": "Refusé par la plateforme : « {detail} »",
  "activity.adFeed.tokenRefused": "{platform} a refusé le jeton d'accès enregistré : reconnectez-le dans Paramètres.",
  "activity.jobKind.ad-feed": "Envoyer les résultats aux publicités",

  "timeline.ad_feed": "Publicités",
  "timeline.text.adFeedSent": "Indiqué à {platform} : {event}",
  "timeline.text.adFeedRefused": "{platform} a refusé {event}",
};
