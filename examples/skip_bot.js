#!/usr/bin/env node
// An external Skip bot in JavaScript (Node, no packages): docs/bot-protocol.md.
//
//   cardroom tournament --bots planner,cmd:"node examples/skip_bot.js"
//
// One JSON message per line on stdin; it answers `hello` with its name and each `decide`
// with one action line. Between its decisions it follows every `move` at the table, so it
// counts the cards played to the building piles in each game, and reports each result on
// stderr (which Cardroom keeps in a log file per program).
"use strict";

const readline = require("readline");

const seen = new Map(); // game_id -> cards played to the building piles in that game

function choose(view, legal) {
  const plays = legal.filter((a) => a.type === "play");
  const stock = plays.find((a) => a.from === "stock");
  if (stock) return stock;
  const target = view.stock_tops[view.seat];
  if (typeof target === "number") {
    // A hand card that brings a building pile closer to the stock card.
    const step = plays.find(
      (a) => a.from === "hand" && a.card !== "W" && view.building[a.to - 1].next < target,
    );
    if (step) return step;
  }
  const fromDiscard = plays.find((a) => a.from === "discard");
  if (fromDiscard) return fromDiscard;
  const discards = legal.filter((a) => a.type === "discard");
  if (discards.length === 0) return { type: "pass" };
  // The highest non-wild card, on an empty pile if there is one.
  const piles = view.discards[view.seat];
  const score = (a) =>
    (a.card === "W" ? -100 : a.card) + (piles[a.pile - 1].length === 0 ? 0.5 : 0);
  return discards.reduce((best, a) => (score(a) > score(best) ? a : best));
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      process.stdout.write(JSON.stringify({ type: "hello", name: "Stock first (JS)" }) + "\n");
      break;
    case "start":
      seen.set(message.game_id, 0);
      break;
    case "move":
      if (message.action.type === "play") seen.set(message.game_id, (seen.get(message.game_id) || 0) + 1);
      break;
    case "decide":
      process.stdout.write(JSON.stringify(choose(message.view, message.legal)) + "\n");
      break;
    case "over":
      process.stderr.write(
        `game ${message.game_id}: ${message.won ? "won" : "lost"}, ` +
          `${seen.get(message.game_id)} cards played to the building piles\n`,
      );
      seen.delete(message.game_id);
      break;
  }
});
