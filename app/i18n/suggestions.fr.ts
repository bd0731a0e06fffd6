import type { suggestionsEn } from "./suggestions.en";

export const suggestionsFr: Record<keyof typeof suggestionsEn, string> = {
  "suggestions.product.certain": "Le même produit sur la plateforme :",
  "suggestions.product.likelyTitle": "Produits proches sur la plateforme : vérifiez avant de choisir",
  "suggestions.product.variant": "variante {variant}",
  "suggestions.product.price": "prix plateforme {price}",
  "suggestions.product.inStock": "en stock",
  "suggestions.product.outOfStock": "en rupture",
  "suggestions.product.noneTitle": "« {title} » n'est pas sur la plateforme",
  "suggestions.product.noneBody":
    "Aucun produit du catalogue de votre plateforme ne correspond. Ajoutez-le dans votre espace vendeur, puis vérifiez à nouveau. Si vous ne pouvez pas l'envoyer, annulez la commande dans Shopify.",
  "suggestions.choose": "Choisir",
  "suggestions.chooseLabel": "Choisir {name}",
  "suggestions.checkAgain": "Vérifier à nouveau",
  "suggestions.checkAgain.stillMissing": "Toujours absent du catalogue de la plateforme",
  "suggestions.openInShopify": "Ouvrir {order} dans Shopify",
  "suggestions.city.address": "Adresse de la commande",
  "suggestions.city.addressOf": "{order} : {address}",
  "suggestions.city.noAddress": "aucune adresse dans la commande",
  "suggestions.city.zip": "code postal {zip}",
  "suggestions.city.province": "province {province}",
  "suggestions.city.certain": "La même ville, écrite autrement :",
  "suggestions.city.region": "région {region}",
  "suggestions.city.likelyTitle":
    "Villes livrées proches de cette orthographe : comparez-les avec l'adresse avant de choisir",
  "suggestions.city.noneTitle": "Aucune ville livrée ne s'écrit comme « {city} »",
  "suggestions.city.noneBody":
    "Si votre plateforme livre cette adresse depuis une ville proche, choisissez cette ville ci-dessous : l'orthographe sera retenue pour les prochaines commandes. Sinon, annulez la commande dans Shopify.",
  "suggestions.picker.noProduct": "Aucun produit « {query} » sur la plateforme.",
  "suggestions.picker.noCity": "Aucune ville livrée « {query} ».",
  "fix.error.not_connected": "Connectez d'abord la clé de votre plateforme dans Paramètres.",
  "fix.error.platform_unreachable": "La plateforme n'a pas répondu. Réessayez dans un instant.",
};
