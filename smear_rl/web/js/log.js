// The match's events (the state's log) as sentences: the visible move list and the live region's announcements.

import { cardText, suitText } from "./cards.js";
import { bidText, isSchneider } from "./table.js";

function cards(list) {
  return list.map(cardText).join(" ");
}

function takeSource(state) {
  if (isSchneider(state)) return "";
  const { rules } = state;
  if (rules.kitty_size) return " from the kitty";
  return { to_bidder: " from the stock", blinds: " from the blinds", redraw: " from the stock" }[rules.stock_use] ?? "";
}

/** One event of the log as a sentence: "Seat 2 bid 4", "You played A♠", "Seat 1 took 4 cards from the kitty". */
export function eventText(entry, state, names) {
  const who = names.seat(entry.seat);
  if ("take" in entry) {
    const verb = isSchneider(state) ? "drew" : "took";
    if (Array.isArray(entry.take)) return `${who} ${verb} ${cards(entry.take)}${takeSource(state)}`;
    return `${who} ${verb} ${entry.take} card${entry.take === 1 ? "" : "s"}${takeSource(state)}`;
  }
  const [verb, arg] = entry.move.split(" ");
  switch (verb) {
    case "pass":
      return `${who} passed`;
    case "bid":
      return `${who} bid ${bidText(arg, state.rules)}`;
    case "misdeal":
      return `${who} called a misdeal`;
    case "trump":
      return `${who} named ${suitText(arg)} trump`;
    case "call": {
      const called = `${who} called ${cardText(arg)} as partner`;
      if (entry.partner === undefined) return called; // a record's move list does not say who holds it
      return `${called}: ${entry.partner === null ? "nobody holds it" : `${names.seat(entry.partner)} holds it`}`;
    }
    case "discard":
      return arg ? `${who} discarded ${cardText(arg)}` : `${who} discarded a card`;
    case "done":
      return `${who} finished exchanging`;
    case "play":
      return `${who} played ${cardText(arg)}`;
    default:
      return `${who}: ${entry.move}`;
  }
}

/** Log entries as lines, a seat's consecutive discards merged into one ("Seat 3 discarded 3 cards"). */
export function logLines(log, state, names) {
  const lines = [];
  for (const entry of log) {
    const last = lines[lines.length - 1];
    const discard = entry.move?.startsWith("discard");
    if (discard && last?.discards && last.seat === entry.seat && last.hand === entry.hand) {
      last.discards.push(entry.move.split(" ")[1] ?? null);
    } else {
      lines.push({ hand: entry.hand, seat: entry.seat, entry, discards: discard ? [entry.move.split(" ")[1] ?? null] : null });
    }
  }
  return lines.map((line) => ({ hand: line.hand, seat: line.seat, text: lineText(line, state, names) }));
}

function lineText(line, state, names) {
  if (!line.discards || line.discards.length === 1) return eventText(line.entry, state, names);
  const who = names.seat(line.seat);
  if (line.discards.every(Boolean)) return `${who} discarded ${cards(line.discards)}`;
  return `${who} discarded ${line.discards.length} cards`;
}

/** Keeps the visible move list (an <ol>) in step with the log, appending what is new. */
export class LogView {
  constructor(list) {
    this.list = list;
    this.lines = [];
  }

  reset() {
    this.list.replaceChildren();
    this.lines = [];
  }

  render(log, state, names) {
    const lines = logLines(log, state, names);
    let same = 0;
    while (same < Math.min(lines.length, this.lines.length) && lines[same].text === this.lines[same].text) same++;
    const items = [...this.list.querySelectorAll("li.entry")];
    if (same < this.lines.length) {
      // the tail changed (a merged discard grew, or another log): drop it and everything after
      const cut = items[same];
      while (cut && cut.nextSibling) cut.nextSibling.remove();
      cut?.remove();
      const seps = [...this.list.querySelectorAll("li.hand-sep")];
      const last = seps[seps.length - 1];
      if (last && !last.nextSibling) last.remove();
    }
    for (let i = same; i < lines.length; i++) {
      const line = lines[i];
      if (i === 0 || lines[i - 1].hand !== line.hand) {
        const sep = document.createElement("li");
        sep.className = "hand-sep";
        sep.textContent = `Deal ${line.hand + 1}`;
        this.list.append(sep);
      }
      const item = document.createElement("li");
      item.className = "entry";
      if (line.seat === names.me) item.classList.add("mine");
      item.textContent = line.text;
      this.list.append(item);
    }
    this.lines = lines;
    if (lines.length !== same) this.list.scrollTop = this.list.scrollHeight;
  }
}
