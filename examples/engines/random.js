#!/usr/bin/env node
// A random engine in JavaScript (Node): engine protocol 1, one JSON object per line.
// Run by a host, e.g.
//   python -m bohmisch_watten arena --bots "engine:node examples/engines/random.js,random"
"use strict";
const readline = require("readline");

const input = readline.createInterface({ input: process.stdin });
function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

input.on("line", (line) => {
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      send({ type: "hello", protocol: 1, name: "random.js", author: "example", options: {} });
      break;
    case "decide": {
      const legal = message.legal;
      send({ type: "action", action: legal[Math.floor(Math.random() * legal.length)] });
      break;
    }
    case "quit":
      process.exit(0);
    // options, new_game, event: nothing to answer
  }
});
input.on("close", () => process.exit(0)); // the host is gone
