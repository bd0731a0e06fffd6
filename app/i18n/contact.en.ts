/** English messages of the contact links (call, WhatsApp) and their Settings section. Spread into en.ts. */
export const contactEn = {
  "contact.call": "Call",
  "contact.whatsapp": "WhatsApp",
  "contact.call.order": "Call the customer of order {order}",
  "contact.whatsapp.order": "WhatsApp the customer of order {order}",
  "contact.whatsappIn.fr": "WhatsApp in French",
  "contact.whatsappIn.darija": "WhatsApp in Darija",
  "contact.title": "Reach the customer",

  "settings.contact.title": "WhatsApp message to customers",
  "settings.contact.help":
    "Sent from an order's page, the Customer card and held orders to confirm an order before it ships. {name}, {order}, {amount} and {city} are replaced by the order's details. A part in square brackets, such as [ of {amount}], is left out when the order lacks that detail, so the sentence never has a hole.",
  "settings.contact.language": "Language of the message",
  "settings.contact.language.fr": "French",
  "settings.contact.language.darija": "Darija (Latin letters)",
  "settings.contact.fr": "Message in French",
  "settings.contact.darija": "Message in Darija",
  "settings.contact.reset": "Use the suggested wording",
} as const;
