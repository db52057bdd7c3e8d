"use strict";
const $ = (id) => document.getElementById(id);
let ws = null, frame = null, selected = new Set(), lastKey = "", takeTrump = false;

function cardEl(code, legal) {
  const t = document.createElement("template");
  t.innerHTML = CARDS[code];
  const el = t.content.firstElementChild;
  if (legal) {
    el.setAttribute("data-legal", "true");
    el.classList.add("legal");
    el.setAttribute("tabindex", "0");  // reachable by keyboard: Tab, then Enter or Space
    el.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        el.dispatchEvent(new MouseEvent("click", {bubbles: true}));
      }
    });
  }
  return el;
}
function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
function button(label, action, onclick, secondary) {
  const b = el("button", tr(label), secondary ? "secondary" : "");  // label: an English id
  if (action) b.setAttribute("data-action", action);
  b.addEventListener("click", onclick);
  return b;
}
function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}
function act(text) { send({type: "action", action: text}); }
const WORDS_DE = {Acorns: "Eichel", Leaves: "Gras", Hearts: "Herz", Bells: "Schellen", trumps: "Trumpf", or: "oder"};
function fieldDe(value) {  // the cards, suits and "or" inside a rule message, in German
  return String(value).replace(/\b([EGHS](?:10|[6-9UOKA]))\b/g, (m, code) => cardName(code))
    .replace(/\b(Acorns|Leaves|Hearts|Bells|trumps|or)\b/g, (m, word) => WORDS_DE[word]);
}
function actionText(action) {  // a move as the hint names it ("play HK"), in the page's language
  if (LANG === "en") return action;
  return action.split(" ").map((word, i) => i === 0 ? tr(word) : word === "+trump" ? tr("+trump") : fieldDe(word)).join(" ");
}
function trRule(message) {  // a refusal "R25.1: …" by a catalog pattern ({fields} match any text)
  if (LANG === "en") return message;
  for (const id of Object.keys(T)) {
    if (!/^(R\d|\{rule\})/.test(id)) continue;
    const names = [];
    const source = id.replace(/[.*+?^$()|[\]\\]/g, "\\$&")
      .replace(/\{(\w+)\}/g, (m, name) => { names.push(name); return "(.+?)"; });
    const found = new RegExp("^" + source + "$").exec(message);
    if (!found) continue;
    const fields = {};
    names.forEach((name, i) => { fields[name] = fieldDe(found[i + 1]); });
    return tr(id, fields);
  }
  return message;
}
function showError(message) {
  const box = $("error");
  box.textContent = trRule(message);
  box.style.display = "block";
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.style.display = "none"; }, 5000);
}
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const path = TOKEN === null ? "/ws/watch/" + TABLE : "/ws/" + TOKEN;
  const since = frame && frame.version !== undefined ? "?since=" + frame.version : "";
  ws = new WebSocket(scheme + "://" + location.host + path + since);
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") { frame = message; $("hintbox").textContent = ""; render(); }
    else if (message.type === "error") showError(message.message);
    else if (message.type === "hint") $("hintbox").textContent = tr("Hint: {action}", {action: actionText(message.action)});
  };
  ws.onclose = () => { $("status").textContent = tr("Connection lost, reconnecting…");
    setTimeout(connect, 1500); };
}
function tr(text, fields) {  // the page's language (T: the catalog, English ids as keys)
  return (T[text] || text).replace(/\{(\w+)\}/g, (m, k) => fields && k in fields ? fields[k] : m);
}
const SUITS_DE = {E: "Eichel", G: "Gras", H: "Herz", S: "Schellen"};
const RANKS_DE = {U: "Unter", O: "Ober", K: "König", A: "Sau"};
function cardName(code) {  // as the players say it in German; the notation in English
  if (LANG !== "de" || !code || !(code[0] in SUITS_DE)) return code;
  const rank = code.slice(1);
  return SUITS_DE[code[0]] + " " + (RANKS_DE[rank] || rank);
}
function name(seat) { return seat === frame.seat ? tr("You") : frame.players[seat].name; }
function shortName(seat) {  // a seat's name where room is short: a bot's default name without its kind
  const p = frame.players[seat];
  if (seat !== frame.seat && p.kind !== "human" && p.name === "Seat " + seat + " (" + p.kind + " bot)")
    return tr("Seat {seat}", {seat: seat});
  return name(seat);
}
function count(n, word) { return tr(n === 1 || n === -1 ? "{n} " + word : "{n} " + word + "s", {n: n}); }
const SUITS = LANG === "de" ? SUITS_DE : {E: "Acorns", G: "Leaves", H: "Hearts", S: "Bells"};
const CRITICAL = {HK: "Maxi", S7: "Belli", E7: "Spitz"};

function render() {
  const v = frame.view, me = frame.seat, watching = me === null;
  document.body.dataset.watching = watching ? "true" : "false";
  const key = frame.game + "/" + v.deal_number + "/" + v.phase;
  if (key !== lastKey) { selected.clear(); takeTrump = false; lastKey = key; }
  document.body.dataset.phase = v.phase;
  document.body.dataset.deal = v.deal_number;
  document.body.dataset.turn = frame.your_turn ? "you" : "other";
  document.body.dataset.gameOver = frame.game_over ? "true" : "false";
  document.body.dataset.seats = v.num_players;  // the style packs five to seven seats tighter
  const trumps = v.trump_card ? " · " + tr("{suit} are trumps", {suit: SUITS[v.trump_card[0]]}) : "";
  const turn = frame.game_over ? tr("Game over") : frame.your_turn ? tr("Your turn")
    : v.current_player === null ? tr("Dealing…") : tr("Waiting for {name}", {name: name(v.current_player)});
  $("status").textContent = tr("Game {game}", {game: frame.game}) + " · " + tr("Deal {number}", {number: v.deal_number})
    + trumps + " · " + (v.dealer === me ? tr("You deal") : tr("{name} deals", {name: name(v.dealer)})) + " · " + turn;
  $("hint").disabled = !frame.your_turn;
  $("hint").style.display = watching ? "none" : "";
  $("review-button").style.display = watching ? "none" : "";
  // Every person may ask to give up a game under way (it ends early only when all ask);
  // after the end the host starts the next one ("again").
  $("newgame").style.display = watching || frame.game_over ? "none" : "";
  $("record").style.display = frame.game_over ? "" : "none";
  renderOpponents(v, me); renderMiddle(v); renderPrompt(v, me); renderHand(v);
  renderScores(v); renderLog(); renderGameOver(v);
}
function renderOpponents(v, me) {
  const box = $("opponents"); box.replaceChildren();
  const watching = me === null;
  for (let i = watching ? 0 : 1; i < v.num_players; i++) {
    const s = watching ? i : (me + i) % v.num_players;
    const d = el("div", null, "seat" + (v.current_player === s ? " turn" : ""));
    d.dataset.seat = s;
    const n = el("div", null, "name");
    n.appendChild(el("span", shortName(s), "who"));
    const kind = frame.players[s].kind;
    if (kind !== "human") n.appendChild(el("span", kind.split(":")[0], "chip kind"));
    if (v.dealer === s) n.appendChild(el("span", tr("dealer"), "chip"));
    if (v.folded[s]) n.appendChild(el("span", tr("folded"), "chip out"));
    d.appendChild(n);
    const meta = el("div", null, "meta");  // each fact whole: a narrow seat wraps between them
    const facts = [count(v.scores[s], "point"), count(v.tricks_won[s], "trick")];
    if (v.exchanged[s] !== null) facts.push(tr("exchanged {count}", {count: v.exchanged[s]}));
    facts.forEach((fact, i) => {
      if (i) meta.append(" ");  // between the spans: a line breaks after a "·", never in a fact
      meta.appendChild(el("span", fact + (i < facts.length - 1 ? " ·" : ""), "fact"));
    });
    d.appendChild(meta);
    const backs = el("div", null, "backs");
    if (!v.folded[s]) for (let k = 0; k < v.hand_sizes[s]; k++) backs.appendChild(cardEl("back"));
    d.appendChild(backs);
    box.appendChild(d);
  }
}
function renderMiddle(v) {
  const trick = $("trick"); trick.replaceChildren();
  let plays = v.trick, winner = frame.winning, old = false, caption = "";
  if (!plays.length) {
    const done = v.tricks.length ? v.tricks : (v.last_deal && v.phase !== "play" ? v.last_deal.tricks : []);
    if (done.length) {
      const t = done[done.length - 1];
      plays = t.plays; winner = t.winner; old = true;
      caption = tr("{name} took trick {number}", {name: name(winner), number: done.length});
    }
  }
  for (const p of plays) {
    const d = el("div", null, "played" + (p.seat === winner ? " winning" : "") + (old ? " old" : ""));
    d.appendChild(cardEl(p.card));
    const who = el("span", shortName(p.seat), "who");
    if (p.seat === winner && !old) who.appendChild(el("span", tr("winning"), "mark"));
    d.appendChild(who);
    trick.appendChild(d);
  }
  if (caption) trick.appendChild(el("div", caption, "caption"));
  if (!plays.length) trick.appendChild(el("div", v.phase === "exchange" ? tr("The exchange is on.") : ""));
  const trump = $("trump"); trump.replaceChildren();
  if (v.trump_card) {
    trump.appendChild(cardEl(v.trump_card));
    trump.appendChild(el("div", v.trump_card_taken ? tr("trump card (taken by the dealer)") : tr("trump card")));
    trump.appendChild(el("div", tr("stock: {count}", {count: v.stock_size})));
  }
}
function cutNotes(v, me) {
  const notes = [];
  for (const c of v.cut) {
    if (c.taken) notes.push(tr("{name} took {critical} ({card}) in the cut.", {name: name(c.seat), critical: CRITICAL[c.card] || c.card, card: cardName(c.card)}));
    else if (c.seat === me && c.card && !(frame.offer && c === v.cut[v.cut.length - 1]))
      notes.push(tr(c.critical ? "You saw {card} and left it at the bottom of the pack." : "You saw {card}, no Critical, at the bottom of the pack.", {card: cardName(c.card)}));
    else if (c.critical && c.seat !== me) notes.push(tr("{name} left a Critical at the bottom.", {name: name(c.seat)}));
  }
  return notes;
}
function renderPrompt(v, me) {
  const box = $("prompt"); box.replaceChildren();
  for (const note of cutNotes(v, me)) box.appendChild(el("div", note));
  const row = el("div", null, "buttons");
  if (frame.offer) {
    box.appendChild(el("div", tr("You looked at the cut card: it is {card}, a Critical. Take it into your hand?",
      {card: CRITICAL[frame.offer]})));
    row.appendChild(cardEl(frame.offer));
    row.appendChild(button("Take it", "take", () => act("take")));
    row.appendChild(button("Leave it", "leave", () => act("leave"), true));
  } else if (frame.exchange) {
    const x = frame.exchange, withTrump = takeTrump && x.max_with_trump !== null;
    const limit = exchangeLimit();
    const prompt = withTrump
      ? (limit === 1 ? tr("Your decision: select up to 1 card to exchange (for the trump card), or none, then press Exchange.") : tr("Your decision: select up to {limit} cards to exchange (one of them for the trump card), or none, then press Exchange.", {limit: limit}))
      : (limit === 1 ? tr("Your decision: select up to 1 card to exchange, or none, then press Exchange.") : tr("Your decision: select up to {limit} cards to exchange, or none, then press Exchange.", {limit: limit}));
    box.appendChild(el("div", limit === 0 ? tr("The stock is empty: nobody draws (R20). Keep your hand, or fold if you may.")
      : prompt));
    if (x.max_with_trump !== null) {
      const option = el("label", " " + tr("take the trump card {card}", {card: cardName(v.trump_card)}));
      const box2 = document.createElement("input");
      box2.type = "checkbox"; box2.id = "taketrump"; box2.checked = !!withTrump;
      box2.addEventListener("change", () => {
        takeTrump = box2.checked;
        if (exchangeLimit() === 0) selected.clear();  // no card may go without the trump card
        render();
      });
      option.prepend(box2); row.appendChild(option);
    }
    row.appendChild(button(limit === 0 ? tr("Keep my hand") : tr("Exchange {count}", {count: selected.size}), "exchange", () => {
      const cards = Array.from(selected).join(" ");
      act(("exchange " + cards).trim() + (withTrump ? " +trump" : ""));
    }));
    if (x.can_fold) row.appendChild(button("Fold", "fold", () => act("fold"), true));
  } else if (frame.your_turn && v.phase === "play") {
    box.appendChild(el("div", v.trick.length ? tr("Your turn: play a highlighted card.") : tr("Your lead: play any card.")));
  } else if (!frame.game_over) {
    if (v.folded[me]) box.appendChild(el("div", tr("You folded this deal.")));
    box.appendChild(el("div", v.current_player === null ? tr("The cards are being dealt…")
      : tr("Waiting for {name}", {name: name(v.current_player)}) + "…"));
  }
  box.appendChild(row);
}
function exchangeLimit() {  // the most cards this seat may give now (R20: no more than the stock holds)
  const x = frame.exchange;
  return takeTrump && x.max_with_trump !== null ? x.max_with_trump : x.max;
}
function renderHand(v) {
  const box = $("hand"); box.replaceChildren();
  const exchanging = !!frame.exchange && exchangeLimit() > 0;
  const playable = new Set(v.legal_actions.filter((a) => a.startsWith("play ")).map((a) => a.slice(5)));
  box.className = playable.size ? "dim" : "";
  for (const code of v.hand) {
    const card = cardEl(code, exchanging || playable.has(code));
    if (selected.has(code)) card.classList.add("selected");
    card.addEventListener("click", () => {
      if (exchanging) {
        if (selected.has(code)) selected.delete(code); else selected.add(code);
        render();
      } else if (v.phase === "play") act("play " + code);
    });
    box.appendChild(card);
  }
  if (frame.seat === null) { $("handlabel").textContent = tr("Watching: the hands are hidden"); return; }
  $("handlabel").textContent = v.folded[frame.seat] ? tr("Your hand (folded, set aside)")
    : tr("Your hand") + " · " + count(v.scores[frame.seat], "point") + " · " + count(v.tricks_won[frame.seat], "trick");
}
function renderScores(v) {
  const table = $("scores"); table.replaceChildren();
  const head = el("tr"); head.appendChild(el("th", tr("Deal")));
  const many = frame.players.length > 4;  // five to seven columns: a seat's number heads its own
  for (const p of frame.players) {
    const seat = tr("Seat {seat}", {seat: p.seat}), cell = el("th", p.seat === frame.seat ? tr("You") : many ? String(p.seat) : seat);
    cell.title = p.seat === frame.seat ? tr("You") : seat;
    head.appendChild(cell);
  }
  table.appendChild(head);
  let before = frame.players.map(() => v.rules.start_score);
  (v.past_deals || []).forEach((d, i) => {
    const row = el("tr"); row.appendChild(el("td", String(i + 1)));
    d.scores.forEach((score, s) => {
      const change = score - before[s], cell = el("td", String(score));
      cell.appendChild(el("span", " (" + (change > 0 ? "+" : "") + change + ")", "change"));
      row.appendChild(cell);
    });
    before = d.scores;
    table.appendChild(row);
  });
  const summary = $("summary"); summary.replaceChildren();
  const last = v.last_deal;
  if (last) {
    summary.appendChild(el("div", tr("Deal {number}", {number: last.deal_number}) + ": " + tr("trump {card}", {card: cardName(last.trump_card)})
      + (last.doubled ? tr(" (Hearts: doubled)") : "")));
    const t = el("table");
    const h = el("tr"); for (const c of ["", tr("tricks"), tr("points"), tr("score")]) h.appendChild(el("th", c));
    t.appendChild(h);
    frame.players.forEach((p, s) => {
      const row = el("tr");
      row.appendChild(el("td", shortName(s)));
      row.appendChild(el("td", last.folded[s] ? tr("folded") : String(last.tricks_won[s])));
      row.appendChild(el("td", (last.points[s] > 0 ? "+" : "") + last.points[s]));
      row.appendChild(el("td", String(last.scores[s])));
      t.appendChild(row);
    });
    summary.appendChild(t);
  } else summary.appendChild(el("div", tr("No deal finished yet.")));
}
function renderLog() {
  $("text").textContent = frame.text;
  const log = $("log"); log.replaceChildren();
  for (const line of (frame.logs && frame.logs[LANG]) || frame.log) log.appendChild(el("li", line));
  log.scrollTop = log.scrollHeight;
}
function renderGameOver(v) {
  const box = $("gameover");
  box.style.display = frame.game_over ? "flex" : "none";
  if (!frame.game_over) return;
  const names = (seats) => seats.map(shortName).join(", ");
  const won = v.winners.includes(frame.seat);
  $("gameover-title").textContent = won ? tr("You won!") : tr("Game over");
  $("gameover-text").textContent = tr("Winners: {winners}. Losers: {losers}. Final scores: {scores}.", {winners: names(v.winners),
    losers: names(v.losers), scores: v.scores.map((score, seat) => shortName(seat) + " " + score).join(" · ")});
  $("again").style.display = frame.host ? "" : "none";
  if (renderGameOver.game !== frame.game) {  // a new game over: forget the last review
    renderGameOver.game = frame.game;
    $("review").replaceChildren();
    $("review-button").disabled = false;
    box.querySelector(".panel").focus();  // the keyboard goes on in the panel, not behind it
  }
}
function renderReview(data) {
  const box = $("review"); box.replaceChildren();
  const mine = data.summaries.find((s) => s.seat === frame.seat);
  if (!mine) { box.textContent = tr("No review for this seat."); return; }
  const inaccuracies = tr(mine.inaccuracies === 1 ? "{n} inaccuracy" : "{n} inaccuracies", {n: mine.inaccuracies});
  box.appendChild(el("p", tr("{decisions} judged, average loss {loss} points: {inaccuracies}, {mistakes}, {blunders}.",
    {decisions: count(mine.decisions, "decision"), loss: mine.average_loss.toFixed(2), inaccuracies: inaccuracies,
      mistakes: count(mine.mistakes, "mistake"), blunders: count(mine.blunders, "blunder")})));
  const worst = data.decisions.filter((d) => d.seat === frame.seat && d.label);
  if (!worst.length) return;
  const table = el("table"), head = el("tr");
  for (const h of [tr("Deal"), tr("Situation"), tr("You played"), tr("Better"), tr("Loss"), ""]) head.appendChild(el("th", h));
  table.appendChild(head);
  for (const d of worst) {
    const row = el("tr", null, d.label);
    for (const cell of [d.deal, situationWords(d.situation, d.phase), moveWords(d.action), moveWords(d.best),
      d.loss.toFixed(2), tr(d.label)])
      row.appendChild(el("td", String(cell)));
    table.appendChild(row);
  }
  box.appendChild(table);
}
function moveWords(text) {  // a move as a review says it: "kept your hand", not "exchange"
  const [kind, ...rest] = text.split(" ");
  if (kind === "play") return tr("played {card}", {card: cardName(rest[0])});
  if (kind === "fold") return tr("folded");
  if (kind === "take") return tr("took the Critical");
  if (kind === "leave") return tr("left the Critical");
  const took = rest[rest.length - 1] === "+trump";
  const cards = (took ? rest.slice(0, -1) : rest).map(cardName).join(", ");
  if (!cards) return tr("kept your hand");
  return took ? tr("exchanged {discards} and took the trump card", {discards: cards}) : tr("exchanged {discards}", {discards: cards});
}
function situationWords(s, phase) {  // what the seat knew: its hand, the trump, the trick or the exchange
  const parts = [s.hand.length ? tr("Hand {hand}", {hand: s.hand.map(cardName).join(" ")}) : tr("no cards yet")];
  if (s.trump_card) parts.push(tr("trump {card}", {card: cardName(s.trump_card)}));
  if (s.dealer && phase !== "play") parts.push(tr("you deal"));
  const did = (b) => b.exchanged === null ? tr("{name} folded", {name: name(b.seat)})
    : b.exchanged === 0 ? tr("{name} kept the hand", {name: name(b.seat)})
    : tr("{name} exchanged {count}", {name: name(b.seat), count: b.exchanged});
  if (phase === "play") {
    const plays = s.trick.map((p) => name(p.seat) + " " + cardName(p.card)).join(", ");
    parts.push(plays ? tr("trick: {plays}", {plays: plays}) : tr("you lead"));
  } else if (phase === "exchange") {
    parts.push(s.before.length ? tr("before you: {moves}", {moves: s.before.map(did).join(", ")}) : tr("you decide first"));
  } else if (s.offered) {
    parts.push(tr("offered the Critical {card}", {card: cardName(s.offered)}));
  }
  return parts.join("; ");
}
$("hint").addEventListener("click", () => send({type: "hint"}));
$("newgame").addEventListener("click", () => {
  if (frame && (frame.game_over || confirm(tr("Abandon this game and start a new one?")))) send({type: "new_game"});
});
$("again").addEventListener("click", () => send({type: "new_game"}));
$("review-button").addEventListener("click", () => {
  $("review-button").disabled = true;
  $("review").textContent = tr("Reviewing your decisions…");
  fetch({review}).then((r) => r.ok ? r.json() : Promise.reject(new Error(r.statusText)))
    .then(renderReview, (error) => { $("review").textContent = tr("No review: {error}", {error: error.message});
      $("review-button").disabled = false; });
});
connect();
