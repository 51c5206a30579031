// Drawing a table state: the scoreboard, the felt (seats, bids, the trick, the contract) and the last trick.
// Used by the live table and the replay viewer alike; everything drawn comes from the state the server sent.

import { cardBack, cardImage, cardText, suitText, SUITS } from "./cards.js";
import { teamOf } from "./names.js";

const BID_WORDS = { pass: "Pass", moon: "Moon" };

export function isSchneider(state) {
  return state.preset === "bohemian_schneider";
}

/** A bid as players say it: "4", "moon", "smudge". */
export function bidText(bid, rules) {
  if (bid === "moon") return "moon";
  if (rules.smudge_bid && Number(bid) === rules.max_bid + 1) return "smudge";
  return String(bid);
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// ------------------------------------------------------------------ scoreboard
/** Scores per team (per seat without partnerships), the match's length, the hand, the contract. */
export function renderScoreboard(board, state, names) {
  board.replaceChildren();
  const scores = element("div", "scores");
  scores.id = board.id === "scoreboard" ? "scores" : `${board.id}-scores`;
  state.scores.forEach((score, team) => {
    const cell = element("div", "team-score");
    cell.dataset.team = String(team);
    cell.dataset.teamIndex = String(team % 6);
    if (names.me !== null && state.teams[team].includes(names.me)) cell.classList.add("mine");
    cell.append(element("span", "team-name", names.team(team, state.teams)), element("span", "score", String(score)));
    scores.append(cell);
  });
  const facts = element("p", "facts");
  facts.textContent = matchFacts(state, names).join(" · ");
  board.append(scores, facts);
}

function matchFacts(state, names) {
  const { rules, view } = state;
  const facts = [];
  if (isSchneider(state)) {
    facts.push(`Round ${Math.min(view.rounds_played + 1, view.num_rounds)} of ${view.num_rounds}`);
  } else {
    facts.push(rules.match_end === "hands" ? `${rules.num_hands} hands` : `Game to ${rules.target_score}`);
    facts.push(state.match_over ? `${view.hands_played} hands played` : `Hand ${view.hands_played + 1}`);
  }
  if (!state.match_over) facts.push(`Dealer: ${names.seat(state.dealer)}`);
  if (!isSchneider(state) && view.bidder >= 0 && view.phase !== "bid") {
    let contract = `${names.seat(view.bidder)} bid ${bidText(view.bids[view.bidder], rules)}`;
    if (view.trump) contract += ` · trump ${SUITS[view.trump].symbol}`;
    facts.push(contract);
  }
  return facts;
}

// ------------------------------------------------------------------ the felt
/** Where seat k sits around the felt, the perspective seat at the bottom and play going clockwise. */
function place(k, perspective, n) {
  const angle = ((90 + (((k - perspective + n) % n) * 360) / n) * Math.PI) / 180;
  return { x: Math.cos(angle), y: Math.sin(angle) };
}

function at(node, x, y) {
  node.style.left = `${x}%`;
  node.style.top = `${y}%`;
}

/** Cards a seat holds now (for the backs drawn at other seats). */
function heldCount(state, k) {
  const { view, rules } = state;
  if (isSchneider(state)) {
    const inTrick = (s) => view.trick.some(([seat]) => seat === s);
    const mine = view.hand ? view.hand.length + (inTrick(view.seat) ? 1 : 0) : 6;
    return mine - (inTrick(k) ? 1 : 0);
  }
  return rules.hand_size + view.drawn_counts[k] - view.discard_counts[k] - view.played[k].length;
}

/**
 * Draw the table: each seat with its name, team, dealer chip, bid and tricks taken; the trick in the middle.
 * options.perspective: the seat drawn at the bottom; options.backs: draw other seats' cards face down;
 * options.summary: a node for the middle (the hand just scored), or null.
 */
export function renderFelt(felt, state, names, { perspective = 0, backs = true, summary = null } = {}) {
  const { view } = state;
  const n = view.num_players;
  felt.replaceChildren();
  felt.dataset.players = String(n);
  const seats = element("ul", "seats");
  seats.setAttribute("aria-label", "Seats");
  for (let k = 0; k < n; k++) {
    const { x, y } = place(k, perspective, n);
    const box = seatBox(state, names, k, backs && k !== names.me && !state.match_over);
    at(box, 50 + 40 * x, 50 + 39 * y);
    seats.append(box);
  }
  felt.append(seats, centre(state, names, perspective, summary));
}

function seatBox(state, names, k, showBacks) {
  const { view } = state;
  const box = element("li", "seat");
  box.dataset.seat = String(k);
  const team = teamOf(k, state.teams);
  box.dataset.teamIndex = String(team % 6);
  const turn = state.current_player === k && !state.match_over;
  if (turn) box.classList.add("on-turn");
  if (k === names.me) box.classList.add("me");
  const title = element("span", "seat-name", names.long(k));
  const badges = element("span", "badges");
  const words = [names.long(k)];
  if (state.teams[team].length > 1) {
    badges.append(element("span", "badge team-badge", names.team(team, state.teams).split(":")[0]));
  }
  if (state.dealer === k && !state.match_over) {
    badges.append(element("span", "badge dealer", "Dealer"));
    words.push("dealer");
  }
  if (!isSchneider(state)) {
    const bid = view.bids[k];
    if (bid && (view.phase === "bid" || k === view.bidder)) {
      const text = bid === "pass" ? "Pass" : `Bid ${BID_WORDS[bid] ?? bidText(bid, state.rules)}`;
      const badge = element("span", `badge bid${bid === "pass" ? " pass" : ""}`, text);
      badges.append(badge);
      words.push(text.toLowerCase());
    }
    if (view.partner === k) {
      badges.append(element("span", "badge partner", `Partner (${cardText(view.called_card)})`));
      words.push("called partner");
    }
  }
  const taken = view.tricks.filter((trick) => trick.winner === k).length;
  if (view.phase === "play" || taken) {
    badges.append(element("span", "badge tricks", `${taken} trick${taken === 1 ? "" : "s"}`));
    words.push(`${taken} tricks taken`);
  }
  if (isSchneider(state)) {
    badges.append(element("span", "badge tricks", `${view.round_points[k]} pts`));
    words.push(`${view.round_points[k]} counter points this round`);
  }
  if (turn) words.push("on turn");
  box.setAttribute("aria-label", words.join(", "));
  const head = element("span", "seat-head");
  head.append(title);
  head.setAttribute("aria-hidden", "true");
  badges.setAttribute("aria-hidden", "true");
  box.append(head, badges);
  if (showBacks) {
    const fan = element("span", "backs");
    fan.setAttribute("aria-hidden", "true");
    const count = Math.max(0, heldCount(state, k));
    for (let i = 0; i < Math.min(count, 14); i++) fan.append(cardBack("tiny"));
    box.append(fan);
  }
  return box;
}

/** The middle of the felt: the contract, the trick (or the trick just taken), the kitty or pile, a message. */
function centre(state, names, perspective, summary) {
  const { view, rules } = state;
  const middle = element("div", "centre");
  const players = view.num_players;
  const trick = element("ul", "trick");
  trick.setAttribute("aria-label", "Trick on the table");
  let plays = view.trick;
  let caption = "";
  const last = state.last_trick;
  if (!plays.length && last && last.hand === state.hand_number && !state.match_over) {
    plays = last.cards;
    trick.classList.add("taken");
    caption = `${names.seat(last.winner)} took the trick`;
    trick.setAttribute("aria-label", `Trick just taken by ${names.seat(last.winner)}`);
  }
  for (const [seat, card] of plays) {
    const { x, y } = place(seat, perspective, players);
    const slot = element("li", "played");
    slot.dataset.seat = String(seat);
    const winner = trick.classList.contains("taken") && seat === last.winner;
    if (winner) slot.classList.add("winner");
    const image = cardImage(card, { rules, trump: false, size: "mid" });
    image.setAttribute("aria-label", `${names.seat(seat)}: ${image.getAttribute("aria-label")}`);
    slot.append(image, element("span", "played-by", names.seat(seat)));
    slot.lastChild.setAttribute("aria-hidden", "true");
    at(slot, 50 + 23 * x, 50 + 19 * y);
    trick.append(slot);
  }
  middle.append(trick);
  const info = element("div", "centre-info");
  if (view.trump) {
    const trump = element("span", "trump-mark", SUITS[view.trump].symbol);
    trump.dataset.suit = view.trump;
    trump.title = `Trump: ${suitText(view.trump)}`;
    trump.setAttribute("role", "img");
    trump.setAttribute("aria-label", `Trump: ${suitText(view.trump)}`);
    info.append(trump);
  }
  if (summary) info.append(summary);
  const message = centreMessage(state, names, caption);
  if (message) info.append(element("p", "centre-message", message));
  const stack = undealtStack(state);
  if (stack) info.append(stack);
  middle.append(info);
  return middle;
}

function centreMessage(state, names, caption) {
  const { view } = state;
  if (state.error) return `The table stopped: ${state.error}`;
  if (state.match_over) return `Match over: ${winnersText(state, names)}`;
  if (caption) return caption;
  if (view.phase === "bid" && state.hand_results.length && !view.bids.some(Boolean)) return "New hand: bidding";
  const who = state.current_player === names.me ? "Your" : `${names.seat(state.current_player)}'s`;
  const what = { bid: "bid", trump: "call of trump", call: "partner call", discard: "discard", play: "lead" }[view.phase];
  if (view.phase === "play" && view.trick.length) return "";
  return what ? `${who} ${what}` : "";
}

/** "you win", "Team A: You & Seat 2 win", "Seat 3 wins", "a draw". */
export function winnersText(state, names) {
  const winners = state.winners;
  if (!winners.length || winners.length === state.teams.length) return "a draw";
  if (winners.length === 1 && state.teams[winners[0]].length === 1 && state.teams[winners[0]][0] === names.me) {
    return "you win";
  }
  const text = winners.map((team) => names.team(team, state.teams)).join(" and ");
  const plural = winners.length > 1 || state.teams[winners[0]].length > 1;
  return `${text} win${plural ? "" : "s"}`;
}

function undealtStack(state) {
  const { view, rules } = state;
  let count = 0;
  let label = "";
  if (isSchneider(state)) {
    count = view.pile_size;
    label = `Pile: ${count} card${count === 1 ? "" : "s"}`;
  } else if (view.phase === "bid" && rules.kitty_size) {
    count = rules.kitty_size;
    label = `Kitty: ${count} cards`;
  }
  if (!count) return null;
  const stack = element("div", "stack");
  stack.setAttribute("role", "img");
  stack.setAttribute("aria-label", label);
  for (let i = 0; i < Math.min(count, 4); i++) stack.append(cardBack("tiny"));
  stack.append(element("span", "stack-label", label));
  stack.lastChild.setAttribute("aria-hidden", "true");
  return stack;
}

// ------------------------------------------------------------------ last trick
export function renderLastTrick(box, state, names) {
  box.replaceChildren();
  const last = state.last_trick;
  if (!last) {
    box.append(element("p", "hint", "No trick yet."));
    return;
  }
  const list = element("ol", "trick-row");
  for (const [seat, card] of last.cards) {
    const item = element("li", seat === last.winner ? "winner" : "");
    const image = cardImage(card, { rules: state.rules, size: "small" });
    image.setAttribute("aria-label", `${names.seat(seat)}: ${image.getAttribute("aria-label")}`);
    item.append(image, element("span", "played-by", names.seat(seat)));
    item.lastChild.setAttribute("aria-hidden", "true");
    list.append(item);
  }
  const winner = last.cards.find(([seat]) => seat === last.winner)[1];
  const deal = isSchneider(state) ? "round" : "hand";
  const earlier = last.hand !== state.hand_number ? ` (the last trick of ${deal} ${last.hand + 1})` : "";
  box.append(list, element("p", "caption", `${names.seat(last.winner)} took it with ${cardText(winner)}${earlier}.`));
}
