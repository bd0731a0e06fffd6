/** French messages of the customer delivery record (see customers.en.ts), spread into fr.ts. */
import type { customersEn } from "./customers.en";

export const customersFr: Record<keyof typeof customersEn, string> = {
  "settings.customerHold.title": "Clients au mauvais historique de livraison",
  "settings.customerHold.help":
    "Retenir une commande avant son envoi quand son client a refusé, retourné ou simulé assez de commandes, ou quand vous avez bloqué son téléphone. La commande retenue dit pourquoi, et vous pouvez l'envoyer quand même.",
  "settings.customerHold.enabled": "Retenir les commandes des clients au mauvais historique",
  "settings.customerHold.failures": "Livraisons échouées qui retiennent une commande",
  "settings.customerHold.days": "Comptées sur les derniers (jours)",
  "timeline.customer_hold": "Retenue : historique du client",
  "timeline.send_anyway": "Envoyée quand même",
};
