/** Claim the guest's name with a password, or sign in as an existing account. */
import { api, header, player, remember, token } from "./league.js";

const message = document.getElementById("message");

function say(text, error = false) {
  message.textContent = text;
  message.className = error ? "error" : "note";
}

async function refresh() {
  const status = document.getElementById("status");
  const claimSection = document.getElementById("claim-section");
  if (!token()) {
    status.textContent = "You are not playing as anyone yet on this device.";
    claimSection.hidden = true;
    return;
  }
  try {
    const { player: me } = await api("/api/account", { auth: true });
    status.textContent = me.claimed
      ? `Signed in as ${me.name}.`
      : `Playing as the guest ${me.name}.`;
    claimSection.hidden = me.claimed;
    document.querySelector("#claim [name=name]").value = me.name;
  } catch (error) {
    status.textContent = error.message;
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
      say(done(answer.player));
      refresh();
    } catch (error) {
      say(error.message, true);
    }
  });
}

header("Account");
wire("claim", "/api/account/claim", true, (p) => `${p.name} is yours now.`);
wire("signin", "/api/account/signin", false, (p) => `Welcome back, ${p.name}.`);
refresh();
