/** Proposals for an unknown product or city: what is proven, what to check, what to do when nothing matches. */
export const suggestionsEn = {
  "suggestions.product.certain": "The same product on the platform:",
  "suggestions.product.likelyTitle": "Close products on the platform: check before choosing",
  "suggestions.product.variant": "variant {variant}",
  "suggestions.product.price": "platform price {price}",
  "suggestions.product.inStock": "in stock",
  "suggestions.product.outOfStock": "out of stock",
  "suggestions.product.noneTitle": "“{title}” is not on the platform",
  "suggestions.product.noneBody":
    "No product in your platform's catalogue matches it. Add it in your seller space, then check again. If you cannot send it, cancel the order in Shopify.",
  "suggestions.choose": "Choose",
  "suggestions.chooseLabel": "Choose {name}",
  "suggestions.checkAgain": "Check again",
  "suggestions.checkAgain.stillMissing": "Still not in the platform's catalogue",
  "suggestions.openInShopify": "Open {order} in Shopify",
  "suggestions.city.address": "The order's address",
  "suggestions.city.addressOf": "{order}: {address}",
  "suggestions.city.noAddress": "no address in the order",
  "suggestions.city.zip": "postcode {zip}",
  "suggestions.city.province": "province {province}",
  "suggestions.city.certain": "The same city, spelt another way:",
  "suggestions.city.region": "region {region}",
  "suggestions.city.likelyTitle":
    "Delivered cities close to this spelling: compare them with the address before choosing",
  "suggestions.city.noneTitle": "No delivered city is spelt like “{city}”",
  "suggestions.city.noneBody":
    "If your platform delivers this address from a nearby city, choose that city below: the spelling will be remembered for the next orders. Otherwise, cancel the order in Shopify.",
  "suggestions.picker.noProduct": "No product “{query}” on the platform.",
  "suggestions.picker.noCity": "No delivered city “{query}”.",
  "fix.error.not_connected": "Connect your platform key in Settings first.",
  "fix.error.platform_unreachable": "The platform did not answer. Try again in a moment.",
};
