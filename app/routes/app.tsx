import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { isRouteErrorResponse, Link, Outlet, useLoaderData, useLocation, useNavigation, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { NavMenu } from "@shopify/app-bridge-react";
import { SkeletonBodyText, SkeletonPage, Card, Layout } from "@shopify/polaris";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import adminStyles from "../components/admin.css?url";
import { authenticate } from "../shopify.server";
import { env } from "../env.server";
import { localeFromRequest, resolveLocale, t, type MessageKey } from "../i18n";
import { withErrorReference } from "../http/error-reference.server";
import { errorReferenceOf } from "../http/error-reference";
import { StandaloneErrorPage } from "../components/ErrorPage";
import { I18nProvider, polarisTranslations } from "../i18n/react";

export const links = () => [
  { rel: "stylesheet", href: polarisStyles },
  { rel: "stylesheet", href: adminStyles },
];

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return { apiKey: env.SHOPIFY_API_KEY, locale: localeFromRequest(request) };
});

/** The app's name for pages without a title of their own; the error page's title when a page failed. */
export const meta: MetaFunction<typeof loader> = ({ data, error }) => {
  const locale = data?.locale ?? "en";
  return [{ title: error ? `${t(locale, "errorPage.title")} · ${t(locale, "app.title")}` : t(locale, "app.title") }];
};

// Shopify puts `locale` only on the iframe's first URL; links inside the app drop
// it. Keep the language of the first load unless a URL names another one.
export const shouldRevalidate: ShouldRevalidateFunction = ({ nextUrl, currentUrl, defaultShouldRevalidate }) => {
  const next = nextUrl.searchParams.get("locale");
  return next !== null && next !== currentUrl.searchParams.get("locale") ? defaultShouldRevalidate : false;
};

/**
 * What a merchant does daily, six entries with Home. Activity and Backfill are
 * maintenance: reached from Settings (components/settings/MaintenanceSection).
 */
export const NAV: [string, MessageKey][] = [
  ["/app/orders", "nav.orders"],
  ["/app/anomalies", "nav.anomalies"],
  ["/app/analytics", "nav.analytics"],
  ["/app/mappings", "nav.mappings"],
  ["/app/settings", "nav.settings"],
];

export default function App() {
  const { apiKey, locale } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const location = useLocation();
  // A link to another page: show its skeleton while its loader runs.
  const loadingOtherPage =
    navigation.state === "loading" && navigation.formMethod === undefined && navigation.location.pathname !== location.pathname;

  return (
    <AppProvider isEmbeddedApp apiKey={apiKey} i18n={polarisTranslations(locale)}>
      <I18nProvider locale={locale}>
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
        {loadingOtherPage ? (
          <SkeletonPage primaryAction>
            <Layout>
              <Layout.Section>
                <Card>
                  <SkeletonBodyText lines={6} />
                </Card>
              </Layout.Section>
            </Layout>
          </SkeletonPage>
        ) : (
          // The admin draws its own frame around the iframe: the page is the iframe's main landmark.
          <main>
            <Outlet />
          </main>
        )}
      </I18nProvider>
    </AppProvider>
  );
}

/**
 * Shopify needs Remix to catch the responses it throws (bounce page, redirects) so its
 * headers reach the browser: those go to boundary.error. Anything else (a failure with
 * a logged reference, a render error) is a Polaris page, never "Application Error".
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("routes/app");
  const location = useLocation();
  if (isRouteErrorResponse(error) && errorReferenceOf(error) === null && error.status !== 404) return boundary.error(error);
  const locale = data?.locale ?? resolveLocale(new URLSearchParams(location.search).get("locale"));
  return <StandaloneErrorPage error={error} locale={locale} />;
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
