import type { contactEn } from "./contact.en";

export const contactFr: Record<keyof typeof contactEn, string> = {
  "contact.call": "Appeler",
  "contact.whatsapp": "WhatsApp",
  "contact.call.order": "Appeler le client de la commande {order}",
  "contact.whatsapp.order": "Écrire sur WhatsApp au client de la commande {order}",
  "contact.whatsappIn.fr": "WhatsApp en français",
  "contact.whatsappIn.darija": "WhatsApp en darija",
  "contact.title": "Joindre le client",

  "settings.contact.title": "Message WhatsApp aux clients",
  "settings.contact.help":
    "Envoyé depuis la page d'une commande, la fiche client et les commandes retenues, pour confirmer une commande avant l'expédition. {name}, {order}, {amount} et {city} sont remplacés par les informations de la commande. Une partie entre crochets, comme [ de {amount}], est omise quand la commande n'a pas cette information : la phrase reste entière.",
  "settings.contact.language": "Langue du message",
  "settings.contact.language.fr": "Français",
  "settings.contact.language.darija": "Darija (en lettres latines)",
  "settings.contact.fr": "Message en français",
  "settings.contact.darija": "Message en darija",
  "settings.contact.reset": "Reprendre le texte proposé",
};
