import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { isLocale, resolveLocale, type Locale } from "./i18n";
import { documentLanguage } from "./i18n/react";
import { StandaloneErrorPage } from "./components/ErrorPage";

/** The page's language and direction: the app layout's locale (the merchant's admin language), else the URL's. */
function usePageLanguage(): { locale: Locale; lang: string; dir: "ltr" | "rtl" } {
  const data = useRouteLoaderData("routes/app") as { locale?: unknown } | undefined;
  const param = new URLSearchParams(useLocation().search).get("locale");
  const locale = isLocale(data?.locale) ? data.locale : resolveLocale(param);
  return { locale, ...documentLanguage(locale) };
}

export default function App() {
  const { lang, dir } = usePageLanguage();
  return (
    <html lang={lang} dir={dir}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <link rel="preconnect" href="https://cdn.shopify.com/" />
        <link rel="stylesheet" href="https://cdn.shopify.com/static/fonts/inter/v4/styles.css" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/** Whatever no route boundary caught (the layout's own boundary failing, a page outside /app): still a Polaris page. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { locale, lang, dir } = usePageLanguage();
  return (
    <html lang={lang} dir={dir}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>COD Lead Sync</title>
        <link rel="stylesheet" href={polarisStyles} />
        <Meta />
        <Links />
      </head>
      <body>
        <StandaloneErrorPage error={error} locale={locale} />
        <Scripts />
      </body>
    </html>
  );
}
