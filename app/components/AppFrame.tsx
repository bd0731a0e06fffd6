/**
 * The app's frame around every admin page: App Bridge, Polaris and the language, with the
 * app's navigation, the same for every page and for the error page (a failure keeps the menu),
 * and a page's skeleton while the next page loads.
 */
import { useState, type ReactNode } from "react";
import {
  isRouteErrorResponse,
  Link,
  Outlet,
  useLoaderData,
  useLocation,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { NavMenu } from "@shopify/app-bridge-react";
import { SkeletonBodyText, SkeletonPage, Card, Layout } from "@shopify/polaris";
import type { framePageData } from "../pages/frame-page.server";
import { errorFailureOf } from "../http/error-reference";
import { resolveLocale, t, type CurrencyLabel, type Locale, type MessageKey } from "../i18n";
import { I18nProvider, polarisTranslations } from "../i18n/react";
import { ErrorPage, isShopifyResponse, StandaloneErrorPage } from "./ErrorPage";

/** The app's name for pages without a title of their own; the error page's title when a page failed. */
export function appTitle(locale: Locale, error: unknown): string {
  const failed = errorFailureOf(error) === "save" ? "errorPage.save.title" : "errorPage.load.title";
  return error ? `${t(locale, failed)} · ${t(locale, "app.title")}` : t(locale, "app.title");
}

/**
 * What a merchant does daily, seven entries with Home (the money the platform owes
 * among them). Activity and Backfill are
 * maintenance: reached from Settings (components/settings/MaintenanceSection).
 */
export const NAV: [string, MessageKey][] = [
  ["/app/orders", "nav.orders"],
  ["/app/anomalies", "nav.anomalies"],
  ["/app/cash", "nav.cash"],
  ["/app/analytics", "nav.analytics"],
  ["/app/mappings", "nav.mappings"],
  ["/app/settings", "nav.settings"],
];

/**
 * App Bridge, Polaris and the language around a page, with the app's navigation:
 * the same for every page and for the error page, so a failure keeps the menu.
 */
function AppFrame({
  apiKey,
  locale,
  currency,
  setCurrency,
  children,
}: {
  apiKey: string;
  locale: Locale;
  currency: CurrencyLabel;
  setCurrency?: (currency: CurrencyLabel) => void;
  children: ReactNode;
}) {
  return (
    <AppProvider isEmbeddedApp apiKey={apiKey} i18n={polarisTranslations(locale)}>
      <I18nProvider locale={locale} currency={currency} setCurrency={setCurrency}>
        <NavMenu>
          <Link to="/app" rel="home">
            {t(locale, "nav.home")}
          </Link>
          {NAV.map(([to, key]) => (
            <Link key={to} to={to}>
              {t(locale, key)}
            </Link>
          ))}
        </NavMenu>
        {/* The admin draws its own frame around the iframe: the page is the iframe's main landmark. */}
        <main>{children}</main>
      </I18nProvider>
    </AppProvider>
  );
}

export function AppLayout() {
  const { apiKey, locale, currency: saved } = useLoaderData<typeof framePageData>();
  const navigation = useNavigation();
  const location = useLocation();
  // Settings changes it in place: reloading the layout would lose the first URL's locale.
  const [currency, setCurrency] = useState(saved);
  // A link to another page: show its skeleton while its loader runs.
  const loadingOtherPage =
    navigation.state === "loading" &&
    navigation.formMethod === undefined &&
    navigation.location.pathname !== location.pathname;

  return (
    <AppFrame apiKey={apiKey} locale={locale} currency={currency} setCurrency={setCurrency}>
      {loadingOtherPage ? (
        <SkeletonPage>
          <Layout>
            <Layout.Section>
              <Card>
                <SkeletonBodyText lines={6} />
              </Card>
            </Layout.Section>
          </Layout>
        </SkeletonPage>
      ) : (
        <Outlet />
      )}
    </AppFrame>
  );
}

/**
 * Shopify needs Remix to catch the responses it throws (bounce page, redirects) so its
 * headers reach the browser: those go to boundary.error. Anything else (a failure with
 * a logged reference, a render error) is the app's error page inside the app's frame,
 * navigation included; only when the layout itself failed is there no frame to keep.
 */
export function AppErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof framePageData>("routes/app");
  const location = useLocation();
  if (isShopifyResponse(error) && !(isRouteErrorResponse(error) && error.status === 404)) return boundary.error(error);
  const locale = data?.locale ?? resolveLocale(new URLSearchParams(location.search).get("locale"));
  if (!data) return <StandaloneErrorPage error={error} locale={locale} />;
  return (
    <AppFrame apiKey={data.apiKey} locale={locale} currency={data.currency}>
      <ErrorPage error={error} />
    </AppFrame>
  );
}
