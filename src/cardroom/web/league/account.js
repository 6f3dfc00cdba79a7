/** Claim the guest's name with a password, sign in as an existing account, change the
 * password, or sign out every other device. */
import { api, header, player, remember, token } from "./league.js";
import { t } from "../js/i18n.js";

const message = document.getElementById("message");

function say(text, error = false) {
  message.textContent = text;
  message.className = error ? "error" : "note";
}

async function refresh() {
  const status = document.getElementById("status");
  const claimSection = document.getElementById("claim-section");
  const passwordSection = document.getElementById("password-section");
  const signoutSection = document.getElementById("signout-section");
  const show = (claim, password, signout) => {
    claimSection.hidden = !claim;
    passwordSection.hidden = !password;
    signoutSection.hidden = !signout;
  };
  if (!token()) {
    status.textContent = t("account.nobody");
    show(false, false, false);
    return;
  }
  try {
    const { player: me } = await api("/api/account", { auth: true });
    status.textContent = t(me.claimed ? "account.signed_in" : "account.guest", { name: me.name });
    show(!me.claimed, me.claimed, true);
    document.querySelector("#claim [name=name]").value = me.name;
  } catch (error) {
    status.textContent = error.message;
    show(false, false, false);
  }
}

function wire(formId, path, auth, done) {
  document.getElementById(formId).addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = Object.fromEntries(new FormData(event.target));
    if (body.name === player()?.name) delete body.name;
    try {
      const answer = await api(path, { method: "POST", body, auth });
      remember(answer.player, answer.token);
      event.target.reset();
      say(done(answer.player));
      refresh();
    } catch (error) {
      say(error.message, true);
    }
  });
}

header("league.account");
wire("claim", "/api/account/claim", true, (p) => t("account.claimed", { name: p.name }));
wire("signin", "/api/account/signin", false, (p) => t("account.welcome", { name: p.name }));
wire("password", "/api/account/password", true, () => t("account.changed"));
document.getElementById("signout-all").addEventListener("click", async () => {
  try {
    const answer = await api("/api/account/signout-all", { method: "POST", body: {}, auth: true });
    remember(answer.player, answer.token);
    say(t("account.signed_out"));
  } catch (error) {
    say(error.message, true);
  }
});
refresh();
