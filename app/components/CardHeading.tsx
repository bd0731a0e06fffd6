/** A card's title and the line under it that says what the card holds. */
import type { ReactNode } from "react";
import { BlockStack, Text } from "@shopify/polaris";

export function CardHeading({ title, intro }: { title: string; intro: ReactNode }) {
  return (
    <BlockStack gap="100">
      <Text as="h2" variant="headingMd">
        {title}
      </Text>
      <Text as="p" tone="subdued">
        {intro}
      </Text>
    </BlockStack>
  );
}
