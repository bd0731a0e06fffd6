/**
 * What the merchant sees instead of "Application Error": what failed (showing
 * the page, or saving a change on it), what that means for their data, a way
 * on, and a short reference the server logged with the error. Never the
 * error's own text. Drawn inside the app's frame, so the navigation stays.
 */
import { useEffect, useState } from "react";
import { isRouteErrorResponse, useLocation } from "@remix-run/react";
import { AppProvider as PolarisAppProvider, Banner, BlockStack, Page, Text } from "@shopify/polaris";
import { errorFailureOf, errorReferenceOf } from "../http/error-reference";
import { isMessageKey, type Locale, type MessageKey } from "../i18n";
import { I18nProvider, polarisTranslations, useT } from "../i18n/react";

/** The reference of a tagged server error; else one made here for the browser's console (a render error). */
function useReference(error: unknown): string | null {
  // A 404 is no failure: nothing to look up.
  const tagged = isRouteErrorResponse(error) && error.status === 404 ? "" : errorReferenceOf(error);
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    if (tagged !== null) return;
    // Made after hydration, so the server's and the browser's render agree.
    const reference = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) =>
      b.toString(16).padStart(2, "0"),
    ).join("");
    console.error(`[error ${reference}]`, error);
    setLocal(reference);
  }, [tagged, error]);
  return tagged || local;
}

/** A response Shopify's library threw (its bounce page, a redirect): no reference of ours, its own headers to keep. */
export function isShopifyResponse(error: unknown): boolean {
  return isRouteErrorResponse(error) && errorReferenceOf(error) === null;
}

/** The page's name in the navigation ("Settings"), from its path; the app's name when it has none. */
export function pageNameKey(pathname: string): MessageKey {
  const section = /^\/app\/([\w-]+)/.exec(pathname)?.[1];
  const key = `nav.${section ?? "home"}`;
  return isMessageKey(key) ? key : "app.title";
}

export function ErrorPage({ error }: { error: unknown }) {
  const t = useT();
  const { pathname } = useLocation();
  const reference = useReference(error);
  if (isRouteErrorResponse(error) && error.status === 404 && !errorReferenceOf(error)) {
    return (
      <Page title={t("errorPage.notFound.title")}>
        <Banner
          tone="warning"
          title={t("errorPage.notFound.title")}
          action={{ content: t("errorPage.home"), url: "/app" }}
        >
          <p>{t("errorPage.notFound.body")}</p>
        </Banner>
      </Page>
    );
  }
  // Saving went through an action (a POST): the change did not go through. Anything else only read.
  const saving = errorFailureOf(error) === "save";
  const page = t(pageNameKey(pathname));
  return (
    <Page title={t(saving ? "errorPage.save.title" : "errorPage.load.title")}>
      <Banner
        tone="critical"
        title={t(saving ? "errorPage.save.title" : "errorPage.load.title")}
        action={{
          content: t(saving ? "errorPage.save.reload" : "errorPage.tryAgain"),
          onAction: () => window.location.reload(),
        }}
        secondaryAction={{ content: t("errorPage.home"), url: "/app" }}
      >
        <BlockStack gap="200">
          <p data-error-failure={saving ? "save" : "load"}>
            {t(saving ? "errorPage.save.body" : "errorPage.load.body", { page })}
          </p>
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

/** The same page where no provider above it is left (the app layout's own failure, a page outside /app). */
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
