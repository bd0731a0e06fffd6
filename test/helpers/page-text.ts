/**
 * What a merchant reads on a page in the browser, for the language checks:
 * every visible or screen-reader text node and the labels of controls
 * (aria-label, placeholder, title, alt), without what is declared not to be
 * the page's words (an element in another `lang`, `translate="no"`) or drawn
 * by the admin's stand-in (App Bridge's save bar). Also the layout facts the
 * pseudo-locales check: labels cut short, the page's direction.
 */
import type { Page } from "playwright-core";

export interface PageText {
  lang: string;
  dir: string;
  /** Text nodes, one string each (whitespace collapsed). */
  texts: string[];
  /** Accessible names and hints of controls. */
  attributes: string[];
}

export function readPageText(page: Page): Promise<PageText> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const lang = root.lang;
    const skip = (el: Element | null): boolean => {
      for (let e = el; e; e = e.parentElement) {
        if (e.matches("script, style, noscript, template, [data-app-bridge-stub], [translate='no']")) return true;
        if (e.hasAttribute("lang") && e !== root && e.getAttribute("lang") !== lang) return true;
        if (getComputedStyle(e).display === "none") return true;
      }
      return false;
    };
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? "").replace(/\s+/g, " ").trim();
      if (text && !skip(node.parentElement)) texts.push(text);
    }
    const attributes: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll("[aria-label], [placeholder], [title], img[alt]"))) {
      if (skip(el)) continue;
      for (const name of ["aria-label", "placeholder", "title", "alt"]) {
        const value = el.getAttribute(name)?.replace(/\s+/g, " ").trim();
        if (value) attributes.push(value);
      }
    }
    return { lang, dir: root.dir, texts, attributes };
  });
}

/** Elements whose pseudo-localised label (⟦…⟧) is cut: by code (no closing mark) or by CSS (its text overflows a clipping box). */
export function clippedLabels(page: Page, open: string, close: string): Promise<string[]> {
  return page.evaluate(
    ([open, close]) => {
      const out: string[] = [];
      for (const el of Array.from(document.body.querySelectorAll("*"))) {
        const own = Array.from(el.childNodes)
          .filter((n) => n.nodeType === Node.TEXT_NODE)
          .map((n) => n.textContent ?? "")
          .join("");
        if (!own.includes(open)) continue;
        if (el.closest("[data-app-bridge-stub], [translate='no']")) continue;
        const style = getComputedStyle(el);
        if (style.display === "none" || style.visibility === "hidden") continue;
        // Screen-reader-only text is clipped on purpose.
        if (
          style.position === "absolute" &&
          (style.clip !== "auto" || style.clipPath !== "none") &&
          el.clientWidth <= 1
        )
          continue;
        const cut = own.lastIndexOf(open) > own.lastIndexOf(close);
        const clipping = /hidden|clip/.test(style.overflowX) || style.textOverflow === "ellipsis";
        if (cut || (clipping && el.scrollWidth > el.clientWidth + 1)) out.push(own.trim().slice(0, 80));
      }
      return out;
    },
    [open, close] as const,
  );
}

/** Where the page's first-level heading sits: a right-to-left page puts it on the right. */
export function headingSide(page: Page): Promise<"left" | "right" | "none"> {
  return page.evaluate(() => {
    const h1 = document.querySelector("h1");
    if (!h1) return "none";
    const range = document.createRange();
    range.selectNodeContents(h1);
    const box = range.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    return box.left + box.width / 2 > width / 2 ? "right" : "left";
  });
}

/** Inline styles that name a physical side (left/right): they do not turn over for a right-to-left page. */
export function physicalSideStyles(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.body.querySelectorAll("[style]"))
      .map((el) => el.getAttribute("style") ?? "")
      .filter((style) =>
        /(?:^|;)\s*(?:margin|padding|border)-(?:left|right)\s*:|(?:^|;)\s*text-align\s*:\s*(?:left|right)|(?:^|;)\s*float\s*:/.test(
          style,
        ),
      ),
  );
}

/** Each shown text of the page (or of the first element `within` selects) with where it is laid out. */
function shownTexts(
  page: Page,
  within = "body",
): Promise<{ texts: { text: string; left: number; right: number }[]; screenWidth: number }> {
  return page.evaluate((selector) => {
    const texts: { text: string; left: number; right: number }[] = [];
    const walker = document.createTreeWalker(document.querySelector(selector) ?? document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? "";
      if (!text) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const box = range.getBoundingClientRect();
      // Visually hidden labels (1 px, clipped) are for screen readers only; a hidden copy (a table's sticky header) is not shown.
      if (box.width <= 1 || box.height <= 1) continue;
      if (getComputedStyle(node.parentElement!).visibility !== "visible") continue;
      texts.push({ text: text.slice(0, 60), left: box.left, right: box.right });
    }
    return { texts, screenWidth: window.innerWidth };
  }, within);
}

/**
 * Text that touches the screen's start (its first letter less than 4 px from the left edge): on a phone the
 * cards run edge to edge, and a paragraph outside them must keep their inner margin. Each as its text.
 */
export async function textsAtScreenEdge(page: Page): Promise<string[]> {
  const { texts } = await shownTexts(page);
  return texts.filter((t) => t.right > 0 && t.left < 4).map((t) => t.text);
}

/** Fields whose placeholder is wider than the field: the merchant reads it cut. Each as its placeholder. */
export function cutPlaceholders(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const context = document.createElement("canvas").getContext("2d")!;
    return Array.from(document.querySelectorAll<HTMLInputElement>("input[placeholder]"))
      .filter((input) => {
        if (input.clientWidth === 0 || input.value) return false;
        const style = getComputedStyle(input);
        context.font = style.font;
        const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return context.measureText(input.placeholder).width > room + 1;
      })
      .map((input) => input.placeholder);
  });
}

/**
 * Text laid out past the screen's end (its box beyond the window's width): on a phone, a table that
 * scrolls sideways inside its card hides those cells until the merchant swipes. Each as its text;
 * `within`: only inside the first element it selects.
 */
export async function textsPastScreenEnd(page: Page, within = "body"): Promise<string[]> {
  const { texts, screenWidth } = await shownTexts(page, within);
  return texts.filter((t) => t.right > screenWidth + 1).map((t) => t.text);
}
