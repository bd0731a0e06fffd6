import { Text } from "@shopify/polaris";

/** The line an IndexTable shows when it has no rows. */
export function TableEmptyText({ children }: { children: string }) {
  return (
    <div style={{ padding: "var(--p-space-400)" }}>
      <Text as="p" tone="subdued">
        {children}
      </Text>
    </div>
  );
}
