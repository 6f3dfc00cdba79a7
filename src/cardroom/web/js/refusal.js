/**
 * A refusal in the player's words. The server names each refusal by a code (and, for a move
 * the rules refuse, the rule and a `reason` with its parameters); the sentence comes from the
 * catalog (`refusal.<reason>`, else `error.<code>`). A code the catalog does not know yet
 * shows the server's English message rather than nothing.
 */
import { has, t } from "./i18n.js";

export function refusalText(error) {
  const params = error?.params || {};
  if (error?.reason && has(`refusal.${error.reason}`)) return t(`refusal.${error.reason}`, params);
  if (error?.code && has(`error.${error.code}`)) return t(`error.${error.code}`, params);
  return error?.message || t("error.unknown");
}
