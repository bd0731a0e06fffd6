/** French messages of the Shopify Flow parts (see flow.en.ts), spread into fr.ts. */
import type { flowEn } from "./flow.en";

export const flowFr: Record<keyof typeof flowEn, string> = {
  "settings.flow.title": "Shopify Flow",
  "settings.flow.help":
    "Lancez vos workflows Flow quand un lead est créé, quand son statut change ou quand une commande demande votre attention. Un déclencheur qu'aucun workflow actif n'utilise, selon Flow, n'est pas envoyé. L'action « Envoyer la commande à la plateforme COD » est disponible dans Flow.",
  "settings.flow.leadCreated": "Lead créé",
  "settings.flow.leadStatusChanged": "Statut du lead modifié",
  "settings.flow.orderNeedsAttention": "Commande à traiter (retenue, refusée ou créée avec anomalie)",
  "timeline.flow": "Shopify Flow",
};
