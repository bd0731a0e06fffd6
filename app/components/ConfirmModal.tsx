/**
 * An App Bridge modal that asks before a consequential action (a second lead on
 * the platform, a Shopify cancellation, sending despite the customer's record):
 * what will happen, in plain words, then the action or "Cancel".
 */
import type { ReactNode } from "react";
import { Modal, TitleBar } from "@shopify/app-bridge-react";
import { BlockStack, Box, Text } from "@shopify/polaris";
import { useT } from "../i18n/react";

interface Props {
  id: string;
  open: boolean;
  title: string;
  /** Paragraphs saying what the action does. */
  body: ReactNode[];
  confirmLabel: string;
  /** The action cannot be undone from the app (a second lead, a cancellation). */
  destructive?: boolean;
  busy?: boolean;
  onConfirm(): void;
  onClose(): void;
}

export function ConfirmModal({
  id,
  open,
  title,
  body,
  confirmLabel,
  destructive = false,
  busy = false,
  onConfirm,
  onClose,
}: Props) {
  const t = useT();
  return (
    <Modal id={id} open={open} onHide={onClose}>
      <Box padding="400">
        <div data-modal-body={id}>
          <BlockStack gap="200">
            {body.map((paragraph, i) => (
              <Text as="p" key={i}>
                {paragraph}
              </Text>
            ))}
          </BlockStack>
        </div>
      </Box>
      <TitleBar title={title}>
        <button
          variant="primary"
          tone={destructive ? "critical" : undefined}
          onClick={onConfirm}
          disabled={busy}
          loading={busy ? "" : undefined}
        >
          {confirmLabel}
        </button>
        <button onClick={onClose}>{t("modal.cancel")}</button>
      </TitleBar>
    </Modal>
  );
}
