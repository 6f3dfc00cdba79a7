/** A rule id (R4.4, S2.2) as a link to its paragraph on the rules page of its game, opened
 * beside the table (/rules/skip#R4.4: the players' rule book, web/rules/<lang>/skip.md). */
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function ruleHref(rule) {
  return `/rules/${rule.startsWith("S") ? "skyjo" : "skip"}#${rule}`;
}

export function ruleLink(rule, text = rule) {
  if (!rule || !/^[RS]\d+(\.\d+)?$/.test(rule)) return text;
  return h("a", { class: "rule-link", href: ruleHref(rule), target: "_blank", rel: "noopener",
    title: t("rules.read", { rule }) }, text);
}
