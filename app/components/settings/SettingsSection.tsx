/**
 * One section of Settings, the Shopify way: its title and what it is for on
 * the left, its fields in a card on the right (Polaris' annotated layout).
 * Each section is a component of this folder; the route owns the form state.
 */
import type { ReactNode } from "react";
import { BlockStack, Card, Layout } from "@shopify/polaris";

export function SettingsSection({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Layout.AnnotatedSection id={id} title={title} description={description}>
      <Card>
        <BlockStack gap="400">{children}</BlockStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}
