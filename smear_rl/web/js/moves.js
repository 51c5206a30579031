// The person's moves: the hand as cards and every move as a button whose accessible name is the move in
// notation ("play AS", "bid 4", "trump H"). The server's legal_moves decide what is enabled; the rules only
// decide which other moves of the phase are shown disabled (a bid too low, a card that may not be played).

import { cardFace, cardImage, cardOfMove, cardText, cardWords, SUITS } from "./cards.js";
import { bidText, isSchneider } from "./table.js";

function button(move, enabled, className = "move") {
  const node = document.createElement("button");
  node.type = "button";
  node.className = className;
  node.dataset.move = move;
  node.setAttribute("aria-label", move);
  node.disabled = !enabled;
  return node;
}

/** The moves of this phase that are shown besides the legal ones (disabled), from the rules. */
function phaseMoves(state) {
  const { view, rules } = state;
  if (isSchneider(state)) return [];
  if (view.phase === "bid") {
    const moves = ["pass"];
    for (let bid = rules.min_bid; bid <= rules.max_bid; bid++) moves.push(`bid ${bid}`);
    if (rules.smudge_bid) moves.push(`bid ${rules.max_bid + 1}`);
    if (rules.moon_bid) moves.push("bid moon");
    if (rules.misdeal_call) moves.push("misdeal");
    return moves;
  }
  if (view.phase === "trump") return ["trump S", "trump H", "trump D", "trump C"];
  if (view.phase === "discard" && rules.stock_use === "redraw") return ["done"];
  return [];
}

function moveLabel(move, state) {
  const [verb, arg] = move.split(" ");
  if (verb === "bid") return arg === "moon" ? "Moon" : bidText(arg, state.rules) === "smudge" ? `Smudge (${arg})` : `Bid ${arg}`;
  if (verb === "trump") return `${SUITS[arg].symbol} ${SUITS[arg].name[0].toUpperCase()}${SUITS[arg].name.slice(1)}`;
  return { pass: "Pass", done: "Done", misdeal: "Misdeal" }[verb] ?? move;
}

/** The move bar: passes, bids, trump suits, partner calls, done; every legal move that is not a card in hand. */
function renderBar(bar, state, legal, myTurn) {
  bar.replaceChildren();
  if (!myTurn) return;
  const { view } = state;
  const shown = phaseMoves(state);
  for (const move of legal) {
    const card = cardOfMove(move);
    const inHand = card && view.hand.includes(card) && !move.startsWith("call");
    if (!inHand && !shown.includes(move)) shown.push(move);
  }
  for (const move of shown) {
    const node = button(move, legal.includes(move));
    const card = cardOfMove(move);
    if (card) {
      node.classList.add("card-button", "call");
      node.append(cardFace(card, { rules: state.rules, size: "small" }));
      node.title = `${move}: ${cardWords(card, state.rules)}`;
    } else {
      const text = document.createElement("span");
      text.textContent = moveLabel(move, state);
      text.setAttribute("aria-hidden", "true");
      node.append(text);
      if (move.startsWith("trump")) node.dataset.suit = move.slice(-1);
    }
    bar.append(node);
  }
}

/** The hand, grouped by suit with trumps first; in the play and discard phases each card is a move button. */
function renderHand(hand, state, legal, myTurn) {
  hand.replaceChildren();
  const { view } = state;
  const verb = { play: "play", discard: "discard" }[view.phase];
  const taken = takenThisHand(state);
  for (const group of state.hand_groups) {
    const row = document.createElement("div");
    row.className = "suit-group";
    if (group.trump) row.classList.add("trump-group");
    for (const card of group.cards) {
      const options = { rules: state.rules, trump: group.trump };
      let node;
      if (verb && myTurn) {
        const move = `${verb} ${card}`;
        node = button(move, legal.includes(move), "card-button");
        node.append(cardFace(card, options));
        node.title = `${move}: ${cardWords(card, state.rules)}${group.trump ? ", trump" : ""}`;
      } else {
        node = cardImage(card, options);
      }
      if (taken.has(card)) node.classList.add("taken");
      row.append(node);
    }
    hand.append(row);
  }
  if (!state.hand_groups.length && !state.match_over && state.view.hand) {
    hand.append(Object.assign(document.createElement("p"), { className: "hint", textContent: "No cards." }));
  }
}

/** Cards the person took this hand (kitty, stock, blinds, pile), marked in the hand while they choose discards. */
function takenThisHand(state) {
  const taken = new Set();
  if (isSchneider(state) || state.view.phase !== "discard") return taken;
  for (const entry of state.log) {
    if (entry.hand === state.hand_number && entry.seat === state.seat && Array.isArray(entry.take)) {
      entry.take.forEach((card) => taken.add(card));
    }
  }
  return taken;
}

/** Number the enabled moves 1, 2, ... 9, 0 in page order: the digit keys make them. */
function numberMoves(container) {
  enabledMoves(container).forEach((node, index) => {
    if (index >= 10) return;
    const badge = document.createElement("span");
    badge.className = "key-badge";
    badge.setAttribute("aria-hidden", "true");
    badge.textContent = String((index + 1) % 10);
    node.append(badge);
    node.setAttribute("aria-keyshortcuts", String((index + 1) % 10));
  });
}

export function enabledMoves(container) {
  return [...container.querySelectorAll("button[data-move]:not(:disabled)")];
}

/** Draw the person's moves for this state; returns the legal moves shown. */
export function renderMoves(container, state) {
  const myTurn = state.your_turn;
  const legal = myTurn ? state.legal_moves : [];
  renderBar(container.querySelector("#move-bar"), state, legal, myTurn);
  renderHand(container.querySelector("#hand"), state, legal, myTurn);
  numberMoves(container);
  return legal;
}

/**
 * The legal move a typed text means: the move itself ("play AS"), a card ("AS", "10s": the legal move with that
 * card), a bid's number ("4"), or a word ("pass", "moon"); null when it matches none.
 */
export function typedMove(text, legal) {
  const typed = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (!typed.length) return null;
  const words = typed.map((word) => word.replace(/^10(?=[a-z])/, "t")); // a ten as a card: "10s" is "TS"
  const exact = legal.find((move) => [typed.join(" "), words.join(" ")].includes(move.toLowerCase()));
  if (exact) return exact; // "bid 10" as typed, "play 10s" as "play TS"
  if (words.length === 1) {
    const [word] = words;
    const byCard = legal.filter((move) => (cardOfMove(move) ?? "").toLowerCase() === word);
    if (byCard.length === 1) return byCard[0];
    const asBid = legal.find((move) => move === `bid ${typed[0]}`);
    if (asBid) return asBid;
    const asTrump = legal.find((move) => move === `trump ${word.toUpperCase()}`);
    if (asTrump) return asTrump;
  }
  return null;
}

/** A line for a refused typed move: what the legal moves are. */
export function legalText(legal) {
  return legal.map((move) => {
    const card = cardOfMove(move);
    return card ? `${move.split(" ")[0]} ${cardText(card)}` : move;
  }).join(", ");
}
