/**
 * What the merchant sees instead of "Application Error": a Polaris page saying nothing
 * was lost, a retry, and a short reference the server logged with the error. Never the
 * error's own text.
 */
import { useEffect, useState } from "react";
import { isRouteErrorResponse } from "@remix-run/react";
import { AppProvider as PolarisAppProvider, Banner, BlockStack, Page, Text } from "@shopify/polaris";
import { errorReferenceOf } from "../http/error-reference";
import type { Locale } from "../i18n";
import { I18nProvider, polarisTranslations, useT } from "../i18n/react";

/** The reference of a tagged server error; else one made here for the browser's console (a render error). */
function useReference(error: unknown): string | null {
  // A 404 is no failure: nothing to look up.
  const tagged = isRouteErrorResponse(error) && error.status === 404 ? "" : errorReferenceOf(error);
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    if (tagged !== null) return;
    // Made after hydration, so the server's and the browser's render agree.
    const reference = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, "0")).join("");
    console.error(`[error ${reference}]`, error);
    setLocal(reference);
  }, [tagged, error]);
  return tagged || local;
}

export function ErrorPage({ error }: { error: unknown }) {
  const t = useT();
  const reference = useReference(error);
  if (isRouteErrorResponse(error) && error.status === 404 && !errorReferenceOf(error)) {
    return (
      <Page title={t("errorPage.notFound.title")}>
        <Banner tone="warning" title={t("errorPage.notFound.title")} action={{ content: t("errorPage.home"), url: "/app" }}>
          <p>{t("errorPage.notFound.body")}</p>
        </Banner>
      </Page>
    );
  }
  return (
    <Page title={t("errorPage.title")}>
      <Banner
        tone="critical"
        title={t("errorPage.title")}
        action={{ content: t("errorPage.tryAgain"), onAction: () => window.location.reload() }}
        secondaryAction={{ content: t("errorPage.home"), url: "/app" }}
      >
        <BlockStack gap="200">
          <p>{t("errorPage.body")}</p>
          {reference ? (
            <Text as="p">
              <span data-error-reference={reference}>{t("errorPage.reference", { reference })}</span>
            </Text>
          ) : null}
        </BlockStack>
      </Banner>
    </Page>
  );
}

/** The same page where no provider above it is left (the app layout's or the root's boundary). */
export function StandaloneErrorPage({ error, locale }: { error: unknown; locale: Locale }) {
  return (
    <PolarisAppProvider i18n={polarisTranslations(locale)}>
      <I18nProvider locale={locale}>
        <main>
          <ErrorPage error={error} />
        </main>
      </I18nProvider>
    </PolarisAppProvider>
  );
}
