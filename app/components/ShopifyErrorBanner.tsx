/**
 * A failed Admin call, told the merchant: what failed (the title names the work:
 * "... while loading your products"), what to do, and a retry. Never Shopify's own text.
 */
import { Banner } from "@shopify/polaris";
import type { MessageKey } from "../i18n";
import { useT } from "../i18n/react";
import type { ShopifyFailure } from "../shopify/failure";

export type ShopifyWork = "products" | "backfillOrders" | "order" | "storefrontPixel";

export function ShopifyErrorBanner({
  failure,
  work,
  onRetry,
  retrying = false,
}: {
  failure: ShopifyFailure;
  work: ShopifyWork;
  onRetry(): void;
  retrying?: boolean;
}) {
  const t = useT();
  const what = t(`shopifyError.what.${work}` as MessageKey);
  return (
    <div data-shopify-failure={failure.kind}>
      <Banner
        tone="critical"
        title={t(`shopifyError.title.${failure.kind}` as MessageKey, { what })}
        action={{ content: t("shopifyError.tryAgain"), onAction: onRetry, loading: retrying }}
      >
        <p>{t(`shopifyError.body.${failure.kind}` as MessageKey, { seconds: failure.retryAfterSeconds ?? 1 })}</p>
      </Banner>
    </div>
  );
}
