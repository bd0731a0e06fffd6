import type { navigationEn } from "./navigation.en";

export const navigationFr: Record<keyof typeof navigationEn, string> = {
  "nav.more": "Activité et imports",
  "empty.connect.title": "Connectez d'abord votre plateforme",
  "empty.connect.action": "Connecter dans les paramètres",
  "empty.connect.orders":
    "Saisissez la clé de votre plateforme COD dans les paramètres : vos commandes en paiement à la livraison apparaîtront ici à mesure qu'elles deviennent des leads.",
  "empty.connect.anomalies":
    "Saisissez la clé de votre plateforme COD dans les paramètres : les commandes qui ont besoin de vous apparaîtront ici, regroupées par cause.",
  "empty.connect.home":
    "Saisissez la clé de votre plateforme COD dans les paramètres pour commencer à envoyer vos commandes en paiement à la livraison comme leads.",
  "empty.importPast": "Importer les commandes passées",
  "modal.cancel": "Annuler",
  "settings.maintenance.title": "Maintenance",
  "settings.maintenance.activity":
    "État de la synchronisation, tâches, appels à la plateforme et demandes de données clients.",
  "settings.maintenance.backfill": "Récupérer les commandes passées avant l'installation de l'app.",
};
