/** The reader's language for a request (its ?locale, else its Accept-Language), pseudo-locales as the environment allows. */
import { env } from "../env.server";
import { csvDialect, type CsvDialect } from "../analytics/csv";
import { localeFromRequest, type Locale } from "../i18n";

export function requestLocale(request: Request): Locale {
  return localeFromRequest(request, { pseudo: env.PSEUDO_LOCALES });
}

/** The reader's spreadsheet dialect: French Excel reads ";" and a decimal comma. */
export function requestCsvDialect(request: Request): CsvDialect {
  return csvDialect(requestLocale(request));
}
