import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Link, Outlet, useLoaderData, useLocation, useNavigation, useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { NavMenu } from "@shopify/app-bridge-react";
import { SkeletonBodyText, SkeletonPage, Card, Layout } from "@shopify/polaris";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { authenticate } from "../shopify.server";
import { env } from "../env.server";
import { localeFromRequest, t, type MessageKey } from "../i18n";
import { I18nProvider, polarisTranslations } from "../i18n/react";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return { apiKey: env.SHOPIFY_API_KEY, locale: localeFromRequest(request) };
};

// Shopify puts `locale` only on the iframe's first URL; links inside the app drop
// it. Keep the language of the first load unless a URL names another one.
export const shouldRevalidate: ShouldRevalidateFunction = ({ nextUrl, currentUrl, defaultShouldRevalidate }) => {
  const next = nextUrl.searchParams.get("locale");
  return next !== null && next !== currentUrl.searchParams.get("locale") ? defaultShouldRevalidate : false;
};

const NAV: [string, MessageKey][] = [
  ["/app/orders", "nav.orders"],
  ["/app/analytics", "nav.analytics"],
  ["/app/anomalies", "nav.anomalies"],
  ["/app/mappings", "nav.mappings"],
  ["/app/activity", "nav.activity"],
  ["/app/backfill", "nav.backfill"],
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
          <Outlet />
        )}
      </I18nProvider>
    </AppProvider>
  );
}

// Shopify needs Remix to catch some thrown responses so its headers reach the browser.
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
