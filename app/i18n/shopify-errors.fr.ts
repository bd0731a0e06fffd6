/** French messages of the Shopify failure banner and the error page: the keys of shopify-errors.en.ts, each translated. */
import type { shopifyErrorsEn } from "./shopify-errors.en";

export const shopifyErrorsFr: Record<keyof typeof shopifyErrorsEn, string> = {
  "shopifyError.what.products": "le chargement de vos produits",
  "shopifyError.what.backfillOrders": "la lecture de vos commandes pour l'import",
  "shopifyError.what.order": "le chargement de cette commande depuis Shopify",
  "shopifyError.title.timeout": "Shopify n'a pas répondu à temps pendant {what}",
  "shopifyError.title.network": "Shopify était injoignable pendant {what}",
  "shopifyError.title.unavailable": "Shopify a eu une erreur serveur pendant {what}",
  "shopifyError.title.throttled": "Shopify est occupé (trop de requêtes) pendant {what}",
  "shopifyError.title.unauthorized": "Shopify a refusé l'accès de l'application pendant {what}",
  "shopifyError.title.too_large": "La réponse de Shopify était trop volumineuse pendant {what}",
  "shopifyError.title.refused": "Shopify a refusé la demande pendant {what}",
  "shopifyError.title.error": "Shopify a répondu par une erreur pendant {what}",
  "shopifyError.body.timeout": "Rien n'est perdu. Shopify est peut-être lent en ce moment : réessayez dans un instant.",
  "shopifyError.body.network": "Rien n'est perdu. Réessayez dans un instant.",
  "shopifyError.body.unavailable": "Rien n'est perdu. Le problème vient de Shopify : réessayez dans un instant.",
  "shopifyError.body.throttled": "Rien n'est perdu. Shopify demande d'attendre environ {seconds} s avant de réessayer.",
  "shopifyError.body.unauthorized":
    "L'autorisation de l'application doit être renouvelée. Réessayez ; si cela se reproduit, rouvrez l'application depuis votre admin Shopify.",
  "shopifyError.body.too_large":
    "Rien n'est perdu. Réessayez avec une recherche plus précise ; si cela se reproduit, contactez le support.",
  "shopifyError.body.refused": "Rien n'est perdu. Réessayez ; si cela se reproduit, contactez le support.",
  "shopifyError.body.error": "Rien n'est perdu. Réessayez ; si cela se reproduit, contactez le support.",
  "shopifyError.tryAgain": "Réessayer",
  "errorPage.reference": "Si cela se reproduit, donnez cette référence au support : {reference}",
  "errorPage.load.title": "Cette page n'a pas pu s'afficher",
  "errorPage.load.body":
    "Un problème est survenu au chargement de la page {page}. Rien n'a été modifié : réessayez dans un instant.",
  "errorPage.save.title": "Votre modification n'a pas pu être enregistrée",
  "errorPage.save.body":
    "Un problème est survenu de notre côté à l'enregistrement sur la page {page}. Rechargez la page pour voir ce qui est enregistré, puis refaites la modification.",
  "errorPage.save.reload": "Recharger la page",
  "errorPage.tryAgain": "Réessayer",
  "errorPage.home": "Retour à l'accueil",
  "errorPage.notFound.title": "Page introuvable",
  "errorPage.notFound.body": "Cette adresse n'existe pas dans l'application.",
};
