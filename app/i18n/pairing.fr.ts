/** French messages of store pairing and the sharing log (see pairing.en.ts), spread into fr.ts. */
import type { pairingEn } from "./pairing.en";

export const pairingFr: Record<keyof typeof pairingEn, string> = {
  "settings.pairing.title": "Vos autres boutiques",
  "settings.pairing.help":
    "Les historiques clients ne sont partagés qu'avec les boutiques que vous associez. Dans une boutique, créez un code d'association ; dans l'autre, saisissez-le dans les 15 minutes. Les deux boutiques doivent être connectées au même compte vendeur, à la même adresse de plateforme, et avoir toutes les deux activé le partage ci-dessus. Chacune peut mettre fin à l'association.",
  "settings.pairing.none": "Aucune boutique n'est associée à celle-ci.",
  "settings.pairing.since": "Associée le {date}",
  "settings.pairing.status.sharing": "Partage actif",
  "settings.pairing.status.off_here": "Pas de partage : le partage est désactivé dans cette boutique",
  "settings.pairing.status.off_there": "Pas de partage : le partage est désactivé dans l'autre boutique",
  "settings.pairing.status.not_connected":
    "Pas de partage : l'une des boutiques n'a pas de clé vérifiée ou a été désinstallée",
  "settings.pairing.status.other_account":
    "Pas de partage : les boutiques sont maintenant sur des comptes vendeur différents",
  "settings.pairing.status.other_platform":
    "Pas de partage : les clés des boutiques ont été vérifiées à des adresses de plateforme différentes",
  "settings.pairing.end": "Mettre fin à l'association",
  "settings.pairing.ended": "Association avec {store} terminée",
  "settings.pairing.notPaired": "Cette boutique n'est pas associée à {store}.",
  "settings.pairing.create": "Créer un code d'association",
  "settings.pairing.code.title": "Code d'association",
  "settings.pairing.code.help":
    "Saisissez ce code dans les Paramètres de votre autre boutique avant {time}. Il ne sert qu'une fois et ne sera plus affiché.",
  "settings.pairing.code.waiting":
    "Un code d'association créé dans cette boutique peut être saisi jusqu'à {time}. Créez-en un nouveau si vous ne l'avez plus.",
  "settings.pairing.enter.label": "Code reçu de votre autre boutique",
  "settings.pairing.enter.submit": "Associer",
  "settings.pairing.joined": "Associée à {store}",
  "settings.pairing.already": "Déjà associée à {store}",
  "settings.pairing.error.invalid_code":
    "Ce code n'est pas valide : il est peut-être mal saisi, expiré ou déjà utilisé. Créez-en un nouveau dans l'autre boutique.",
  "settings.pairing.error.own_code": "Ce code a été créé dans cette boutique : saisissez-le dans votre autre boutique.",
  "settings.pairing.error.not_connected":
    "Les deux boutiques doivent avoir une clé API vendeur vérifiée (Connexion à la Seller Order API, plus haut) pour être associées.",
  "settings.pairing.error.other_account":
    "Les deux boutiques sont connectées à des comptes vendeur différents : elles ne peuvent pas être associées.",
  "settings.pairing.error.other_platform":
    "Les clés des deux boutiques ont été vérifiées à des adresses de plateforme différentes : elles ne peuvent pas être associées.",

  "activity.sharing.title": "Partage avec vos autres boutiques",
  "activity.sharing.intro":
    "Les codes d'association créés dans cette boutique, et les boutiques qui lui ont été associées ou dissociées : quand, et depuis quelle boutique.",
  "activity.sharing.empty": "Aucune association pour l'instant.",
  "activity.sharing.col.at": "Quand",
  "activity.sharing.col.event": "Événement",
  "activity.sharing.code_created": "Code d'association créé dans cette boutique",
  "activity.sharing.joined.here": "Associée à {store} : son code a été saisi ici",
  "activity.sharing.joined.there": "Associée à {store} : le code de cette boutique y a été saisi",
  "activity.sharing.refused.here":
    "Refusé : le code de {store} a été saisi ici, mais les boutiques ne peuvent pas partager",
  "activity.sharing.refused.there":
    "Refusé : {store} a saisi le code de cette boutique, mais les boutiques ne peuvent pas partager",
  "activity.sharing.ended.here": "Association avec {store} terminée depuis cette boutique",
  "activity.sharing.ended.there": "Association avec {store} terminée depuis {store}",
};
