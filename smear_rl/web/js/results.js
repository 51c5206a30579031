// The breakdown of each scored hand, from the state's hand_results: who took High, Low, Jack, Jick, the jokers,
// Trey, Game; card points; made or set; each side's score change and the new scores.

import { cardText, SUITS } from "./cards.js";
import { bidText, isSchneider } from "./table.js";

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function signed(value) {
  return value > 0 ? `+${value}` : String(value);
}

function row(cells, header = false, data = {}) {
  const tr = document.createElement("tr");
  Object.assign(tr.dataset, data);
  cells.forEach((cell, index) => {
    const td = document.createElement(index === 0 && header === "row" ? "th" : header === true ? "th" : "td");
    if (td.tagName === "TH") td.scope = header === true ? "col" : "row";
    td.textContent = cell;
    tr.append(td);
  });
  return tr;
}

/** A small table; rows are cell lists, or {cells, data} to put data-* attributes on the row. */
function table(caption, head, rows) {
  const node = element("table", "breakdown");
  node.append(element("caption", "", caption));
  const thead = document.createElement("thead");
  thead.append(row(head, true));
  const tbody = document.createElement("tbody");
  for (const item of rows) {
    tbody.append(Array.isArray(item) ? row(item, "row") : row(item.cells, "row", item.data));
  }
  node.append(thead, tbody);
  return node;
}

/** Who took a category: the side, and the seat and card that decided it ("Team A (Seat 2, A♥)"); nobody: Game
 * tied on card points, or the card was not dealt. */
function takerText(award, sideSeats, teams, names) {
  if (!award || award.side === null) return award?.category === "game" ? "tie: nobody" : "not in play";
  const seats = sideSeats.get(award.side);
  const side = names.sideShort(seats, teams);
  if (award.seat === null || award.card === null) return side;
  const who = seats.length > 1 ? `${names.seat(award.seat)}, ` : "";
  return `${side} (${who}${cardText(award.card)})`;
}

/** One Smear hand: the contract and whether it was made, each category's taker, each side's points. */
function smearHand(result, state, names) {
  const teams = state.teams;
  const box = element("div", "hand-result");
  const bid = bidText(result.bid, state.rules);
  const trump = result.trump ? `${SUITS[result.trump].symbol}` : "";
  const verdict = result.made ? "made it" : "was set";
  const headline = element("p", `verdict ${result.made ? "made" : "set"}`);
  headline.textContent = `${names.seat(result.bidder)} bid ${bid} ${trump} and ${verdict}.`;
  box.append(headline);
  const sideSeats = new Map(result.sides.map((side) => [side.side, side.seats]));
  const taken = new Map(result.categories.map((award) => [award.category, award]));
  const rows = state.categories.map(({ key, label, points }) => {
    const award = taken.get(key);
    const seats = award && award.side !== null ? sideSeats.get(award.side).join(",") : "";
    return { cells: [`${label} (${points})`, takerText(award, sideSeats, teams, names)], data: { category: key, seats } };
  });
  box.append(table("Points", ["Point", "Taken by"], rows));
  const sides = result.sides.map((side) => ({
    cells: [names.sideShort(side.seats, teams), String(side.points), String(side.card_points), signed(side.score_change)],
    data: { seats: side.seats.join(",") },
  }));
  box.append(table("Sides", ["Side", "Points", "Card points", "Score"], sides));
  box.append(scoresLine(result.scores_after, state, names));
  return box;
}

/** One Bohemian Schneider round: counters captured per seat and the (doubled, tripled) round scores. */
function schneiderRound(result, state, names) {
  const box = element("div", "hand-result");
  const rows = result.points.map((points, seat) => [names.seat(seat), String(points), signed(result.round_scores[seat])]);
  box.append(table("Counters (A K Q J 10)", ["Player", "Counters", "Round score"], rows));
  box.append(scoresLine(result.scores_after, state, names));
  return box;
}

function scoresLine(scores, state, names) {
  const text = scores.map((score, team) => `${names.teamShort(team, state.teams)} ${score}`).join(" · ");
  const line = element("p", "scores-after", `Scores: ${text}`);
  line.dataset.scores = scores.join(",");
  return line;
}

/** Every scored hand, newest first and open; earlier ones folded. */
export function renderResults(box, state, names) {
  box.replaceChildren();
  const results = state.hand_results;
  if (!results.length) {
    box.append(element("p", "hint", "No hand scored yet."));
    return;
  }
  results
    .slice()
    .reverse()
    .forEach((result, index) => {
      const details = element("details", "result");
      details.dataset.hand = String(result.hand);
      details.open = index === 0;
      const label = isSchneider(state) ? `Round ${result.hand + 1}` : `Hand ${result.hand + 1}`;
      const summary = element("summary", "", label + (isSchneider(state) ? "" : result.made ? ": made" : ": set"));
      details.append(summary, (isSchneider(state) ? schneiderRound : smearHand)(result, state, names));
      box.append(details);
    });
}

/** One line announcing a scored hand, for the live region. */
export function resultSentence(result, state, names) {
  const scores = result.scores_after.map((score, team) => `${names.team(team, state.teams)} ${score}`).join(", ");
  if (isSchneider(state)) return `Round ${result.hand + 1} over. Scores: ${scores}.`;
  const verdict = result.made ? "made" : "was set";
  return `Hand ${result.hand + 1}: ${names.seat(result.bidder)} ${verdict} bid ${bidText(result.bid, state.rules)}. Scores: ${scores}.`;
}

/**
 * The newest scored hand in brief, for the middle of the felt while the next deal has not reached its first trick
 * (or the match is over): the contract and its fate, who took each point, each team's change and new score.
 * Null when there is nothing to sum up.
 */
export function handSummary(state, names) {
  const result = state.hand_results[state.hand_results.length - 1];
  const { view } = state;
  if (!result || (!state.match_over && (view.trick.length || view.tricks.length))) return null;
  const box = element("div", "hand-summary");
  box.setAttribute("role", "group");
  const title = isSchneider(state) ? `Round ${result.hand + 1}` : `Hand ${result.hand + 1}`;
  box.setAttribute("aria-label", `${title} scored`);
  if (isSchneider(state)) {
    box.append(element("p", "summary-title", `${title} over`));
  } else {
    const trump = result.trump ? ` ${SUITS[result.trump].symbol}` : "";
    const verdict = `${names.seat(result.bidder)} bid ${bidText(result.bid, state.rules)}${trump} and ${result.made ? "made it" : "was set"}`;
    box.append(element("p", `summary-title ${result.made ? "made" : "set"}`, `${title}: ${verdict}`));
    const sideSeats = new Map(result.sides.map((side) => [side.side, side.seats]));
    const taken = new Map(result.categories.map((award) => [award.category, award]));
    const points = state.categories.map(({ key, label }) => {
      const award = taken.get(key);
      const who = award && award.side !== null ? names.sideShort(sideSeats.get(award.side), state.teams) : "nobody";
      return `${label}: ${who}`;
    });
    box.append(element("p", "summary-points", points.join(" · ")));
  }
  const before = result.scores_before ?? result.scores_after.map((score, team) => score - (result.round_scores?.[team] ?? 0));
  const changes = result.scores_after.map((score, team) => {
    const change = score - before[team];
    return `${names.teamShort(team, state.teams)} ${change ? signed(change) : "±0"} → ${score}`;
  });
  box.append(element("p", "summary-scores", changes.join(" · ")));
  return box;
}
