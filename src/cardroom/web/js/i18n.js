/**
 * Every word a player reads, in their language (docs/translating.md).
 *
 * One JSON catalog per language (/i18n/<lang>.json), loaded once before any page renders (this
 * module awaits it at the top level) and cached by the service worker, so every language works
 * offline. A message has named placeholders (`{name}`); a plural message is an object keyed by
 * CLDR category (`one`, `few`, `many`, `other`) chosen by `Intl.PluralRules` from `count`.
 * Numbers in the parameters are shown with `Intl.NumberFormat`. The code never builds a
 * sentence from pieces: one key per sentence.
 *
 * The language: the one chosen in this browser (the picker; signed-in players' accounts keep
 * it too and hand it to a new browser), else the browser's languages, else English.
 */
export const LANGUAGES = { en: "English", pl: "Polski", de: "Deutsch", fr: "Français" };
const STORE = "cardroom.lang";
const COOKIE = "cardroom_lang"; // server-rendered pages (the rules) read it

function supported(code) {
  const base = String(code || "").toLowerCase().split("-")[0];
  return base in LANGUAGES ? base : null;
}

/** The browser's own languages, first supported one wins. */
export function browserLanguage() {
  for (const code of navigator.languages || [navigator.language]) {
    const found = supported(code);
    if (found) return found;
  }
  return null;
}

function chosen() {
  const asked = new URLSearchParams(location.search).get("lang");
  return supported(asked) || supported(localStorage.getItem(STORE)) || browserLanguage() || "en";
}

export const lang = chosen();
let catalog = {};

async function load(code) {
  try {
    const response = await fetch(`/i18n/${code}.json`);
    if (response.ok) return await response.json();
  } catch {
    // no connection and not cached yet: the keys show, the page still works
  }
  return {};
}

catalog = await load(lang);
const plurals = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang);

/** Whether the catalog has a message for `key` (a refusal's code may be new to it). */
export function has(key) {
  return key in catalog;
}

/** The message `key` with its `{placeholders}` filled from `params`. */
export function t(key, params = {}) {
  let message = catalog[key];
  if (message === undefined) return key;
  if (typeof message === "object") {
    const count = params.count ?? 0;
    message = message[plurals.select(count)] ?? message.other;
  }
  return message.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? numbers.format(value) : String(value);
  });
}

/** A number as this language writes it (scores, ratings). */
export function num(value, options) {
  return options ? new Intl.NumberFormat(lang, options).format(value) : numbers.format(value);
}

/** A date (and time) as this language writes it. */
export function date(value, options = { dateStyle: "medium" }) {
  return new Intl.DateTimeFormat(lang, options).format(value instanceof Date ? value : new Date(value));
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy" in this language. */
export function list(items) {
  // British English: no comma before "and", as Cardroom has always written it.
  return new Intl.ListFormat(lang === "en" ? "en-GB" : lang, { style: "long", type: "conjunction" }).format(items);
}

/** Choose a language: remembered in this browser (and by the account, when signed in), and
 * the page is drawn again in it. */
export async function setLanguage(code, { save } = {}) {
  const picked = supported(code) || "en";
  localStorage.setItem(STORE, picked);
  document.cookie = `${COOKIE}=${picked}; path=/; max-age=31536000; samesite=lax`;
  try {
    await save?.(picked);
  } catch {
    // offline or signed out: this browser remembers it, the account learns it next time
  }
  location.reload();
}

/** The account's language, learned after boot: follow it unless it is the one shown. */
export function adopt(code) {
  const picked = supported(code);
  if (!picked || picked === lang) return;
  if (localStorage.getItem(STORE) === picked) return;
  setLanguage(picked);
}

/**
 * The static words of an HTML page: `data-i18n="key"` replaces an element's text,
 * `data-i18n-attr="title:key;aria-label:key"` its attributes. Sets `<html lang>`, the
 * document's title (`<title data-i18n>`) and the manifest's language.
 */
export function translatePage(root = document) {
  document.documentElement.lang = lang;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-html]")) el.innerHTML = t(el.dataset.i18nHtml);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
  const manifest = document.querySelector("link[rel=manifest]");
  if (manifest) manifest.href = `/manifest.webmanifest?lang=${lang}`;
  document.cookie = `${COOKIE}=${lang}; path=/; max-age=31536000; samesite=lax`;
}

/** The language picker for a top bar: the language's code, small, over a native select that
 * lists each language in its own words (the phone's own picker opens on a tap). */
export function languagePicker({ save } = {}) {
  const box = document.createElement("span");
  box.className = "lang-box";
  const code = document.createElement("span");
  code.className = "lang-code";
  code.setAttribute("aria-hidden", "true");
  code.textContent = lang.toUpperCase();
  const select = document.createElement("select");
  select.className = "lang-picker";
  select.id = "lang-picker";
  select.setAttribute("aria-label", t("common.language"));
  select.title = t("common.language");
  for (const [value, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = name;
    option.lang = value;
    option.selected = value === lang;
    select.append(option);
  }
  select.addEventListener("change", () => setLanguage(select.value, { save }));
  box.append(code, select);
  return box;
}
