/** Claim the guest's name with a password, sign in as an existing account, change the
 * password, or sign out every other device. */
import { api, header, player, remember, token } from "./league.js";

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
    status.textContent = "You are not playing as anyone yet on this device.";
    show(false, false, false);
    return;
  }
  try {
    const { player: me } = await api("/api/account", { auth: true });
    status.textContent = me.claimed
      ? `Signed in as ${me.name}.`
      : `Playing as the guest ${me.name}.`;
    show(!me.claimed, me.claimed, true);
    document.querySelector("#claim [name=name]").value = me.name;
  } catch (error) {
    status.textContent = error.status === 401 ? `${error.message}.` : error.message;
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
wire("claim", "/api/account/claim", true, (p) => `${p.name} is yours now.`);
wire("signin", "/api/account/signin", false, (p) => `Welcome back, ${p.name}.`);
wire("password", "/api/account/password", true,
  () => "Your password is changed; other devices sign in again with the new one.");
document.getElementById("signout-all").addEventListener("click", async () => {
  try {
    const answer = await api("/api/account/signout-all", { method: "POST", body: {}, auth: true });
    remember(answer.player, answer.token);
    say("Every other device is signed out; this one stays signed in.");
  } catch (error) {
    say(error.message, true);
  }
});
refresh();
