/**
 * The games the web client can seat people at, each with its player kit (drawing the board and
 * turning clicks into actions) and its house-rules form. A new game adds one entry here.
 */
import { SkipPlay } from "./skip.js";
import { SkyjoPlay } from "./skyjo/play.js";
import * as skipRules from "../house-rules.js";
import * as skyjoRules from "./skyjo/rules.js";

const GAMES = {
  skip: { title: "Skip", Play: SkipPlay, rules: skipRules },
  skyjo: { title: "Skyjo", Play: SkyjoPlay, rules: skyjoRules },
};

export const GAME_NAMES = Object.keys(GAMES);

function entry(game) {
  return GAMES[game || "skip"] || GAMES.skip;
}

/** The player kit of a table's game, bound to its table screen. */
export function kitFor(game, screen) {
  return new (entry(game).Play)(screen);
}

/** {rulesForm, summarize} for a game's house rules. */
export function rulesFor(game) {
  return entry(game).rules;
}

export function gameTitle(game) {
  return entry(game).title;
}
