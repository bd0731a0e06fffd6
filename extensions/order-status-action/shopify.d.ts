// The `shopify` global of each target, as `shopify app dev` generates this file.
import "@shopify/ui-extensions";

// @ts-ignore -- module augmentation of a source file, as the CLI writes it
declare module "./src/ActionExtension.tsx" {
  const shopify: import("@shopify/ui-extensions/admin.order-details.action.render").Api;
  const globalThis: { shopify: typeof shopify };
}
