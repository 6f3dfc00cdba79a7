/** Boot: identity, routing (#/ lobby, #/table/<id>), header tools and the service worker. */
import { api } from "./api.js";
import { rememberInvite } from "./invites.js";
import { $, toast } from "./dom.js";
import { adopt, languagePicker, t, translatePage } from "./i18n.js";
import { player, renewed, token } from "./identity.js";
import { Lobby } from "./lobby.js";
import { TableScreen } from "./table.js";
import { bindKeys } from "./keys.js";
import * as sound from "./sound.js";
import { applyTheme, setTheme, theme } from "./theme.js";
import { closeWalkthrough, showWalkthrough } from "./walkthrough.js";

const app = $("#app");
let levels = [];
let screen = null;

/** The table of `#/table/<id>` (an invite link adds `?invite=<code>`, kept for that table). */
function tableIdFromHash() {
  const m = location.hash.match(/^#\/table\/([\w-]+)(?:\?invite=([\w-]+))?/);
  if (m?.[2]) rememberInvite(m[1], m[2]);
  return m ? m[1] : null;
}

export function openTable(id) {
  location.hash = `#/table/${id}`;
}

function toLobby() {
  location.hash = "#/";
}

function route() {
  closeWalkthrough();
  screen?.destroy?.();
  screen?.hide?.();
  screen = null;
  const id = tableIdFromHash();
  document.body.dataset.screen = id && player() ? "table" : "lobby";
  if (id && player()) {
    screen = new TableScreen(app, id, { levels, onExit: toLobby });
    screen.open();
  } else {
    screen = new Lobby(app, { levels, openTable });
    screen.show();
  }
}

function showIdentity() {
  const me = player();
  $("#who").textContent = me ? me.name : "";
}

function setupTools() {
  const button = $("#sound-toggle");
  const paint = () => {
    const on = sound.enabled();
    button.setAttribute("aria-pressed", String(on));
    button.title = t(on ? "top.sounds_on" : "top.sounds_off");
  };
  button.addEventListener("click", () => {
    sound.setEnabled(!sound.enabled());
    paint();
  });
  paint();
  const help = $("#help");
  $("#help-toggle").addEventListener("click", () => help.showModal());
  $("#walk-again").addEventListener("click", () => {
    help.close();
    showWalkthrough(document.body.dataset.game || "skip");
  });
  const choice = $("#theme-choice");
  choice.querySelector(`input[value="${theme()}"]`).checked = true;
  choice.addEventListener("change", (e) => {
    setTheme(e.target.value);
    if (token()) api.wear({ theme: e.target.value }).catch((error) => toast(error.text || error.message));
  });
  bindKeys((key) => {
    if (key === "?") help.showModal();
    else if (key === "m") button.click();
    else return false;
    return true;
  });
}

/** Each visit renews the token (a new expiry), and learns the name the server holds now; a
 * token that has ended is forgotten by api.js and the lobby asks for a name again. */
async function renewToken() {
  if (!token()) return;
  try {
    const out = await api.me();
    renewed(out.player, out.token);
  } catch (error) {
    if (error.status === 401) toast(error.text);
    return;
  }
  syncRewards();
}

/** The player's unlocked themes become choosable; the theme they chose on any device is worn. */
async function syncRewards() {
  let rewards;
  try {
    rewards = await api.myRewards();
  } catch {
    return; // the local choice stays
  }
  const choice = $("#theme-choice");
  for (const item of rewards.items.filter((i) => i.kind === "theme")) {
    const input = choice.querySelector(`input[value="${item.id}"]`);
    if (!input) continue;
    input.disabled = !item.unlocked;
    input.closest("label")?.classList.toggle("locked-theme", !item.unlocked);
  }
  const saved = rewards.saved.theme;
  if (saved === null) {
    // Chosen on this device before the server kept choices: the server learns it.
    if (theme() !== "felt") api.wear({ theme: theme() }).catch(() => {});
  } else if (saved !== theme()) {
    setTheme(saved);
    const input = choice.querySelector(`input[value="${saved}"]`);
    if (input) input.checked = true;
  }
}

/** The account's language, kept with the player (PUT /api/me/language). */
async function saveLanguage(code) {
  if (token()) await api.setLanguage(code);
}

async function boot() {
  translatePage();
  $("#lang-slot")?.replaceWith(languagePicker({ save: saveLanguage }));
  applyTheme();
  setupTools();
  showIdentity();
  document.addEventListener("identity", () => {
    showIdentity();
    route();
  });
  try {
    ({ levels } = await api.levels());
  } catch {
    levels = [{ id: "easy", name: t("level.easy"), description: "" }];
  }
  window.addEventListener("hashchange", route);
  route();
  renewToken();
  if (token()) api.language().then(({ language }) => adopt(language)).catch(() => {});
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
}

boot();
