/** French names of the platform's statuses, as a Moroccan merchant reads them. Spread into fr.ts. */
import type { PlatformStatusKey } from "./platform-status.en";

export const platformStatusFr: Record<PlatformStatusKey, string> = {
  "confirmation.new": "Nouveau",
  "confirmation.callback": "À rappeler",
  "confirmation.no_answer_1": "Pas de réponse (1)",
  "confirmation.no_answer_2": "Pas de réponse (2)",
  "confirmation.no_answer_3": "Pas de réponse (3)",
  "confirmation.confirmed": "Confirmé",
  "confirmation.canceled": "Annulé",
  "confirmation.wrong": "Mauvais numéro",
  "confirmation.fake": "Fausse commande",
  "confirmation.duplicate": "Doublon",
  "shipping.pending": "Non expédié",
  "shipping.picked_up": "Ramassé",
  "shipping.shipped": "Expédié",
  "shipping.delivered": "Livré",
  "shipping.returned": "Retourné",
  "shipping.canceled": "Annulé",
  "shipping.paid": "Payé",
};
