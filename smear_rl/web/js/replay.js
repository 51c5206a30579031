// The replay viewer: a game record (a JSON file, or the table's own) stepped through move by move with every
// hand face up. The page runs no rules: POST /v1/replay rebuilds the table at each step on the server.

import { api, errorText } from "./api.js";
import { cardImage, cardOfMove } from "./cards.js";
import { eventText } from "./log.js";
import { Names } from "./names.js";
import { handSummary, renderResults } from "./results.js";
import { renderFelt, renderScoreboard, isSchneider } from "./table.js";

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export class Replay {
  constructor(root, aside, errorBox) {
    this.root = root;
    this.aside = aside;
    this.errorBox = errorBox;
    this.record = null;
    this.answer = null;
    this.wanted = null;
    this.inflight = null;
    this.busy = false;
    this.$ = (id) => document.getElementById(id);
    const go = (id, target) => this.$(id).addEventListener("click", () => this.go(target()));
    go("replay-first", () => 0);
    go("replay-back", () => this.position - 1);
    go("replay-forward", () => this.position + 1);
    go("replay-last", () => this.steps);
    go("replay-prev-hand", () => this.handStart(-1));
    go("replay-next-hand", () => this.handStart(1));
    this.$("replay-step").addEventListener("input", (event) => this.go(Number(event.target.value)));
    this.$("replay-moves").addEventListener("click", (event) => {
      const target = event.target.closest("button[data-step]");
      if (target) this.go(Number(target.dataset.step));
    });
  }

  get step() {
    return this.answer ? this.answer.step : 0;
  }

  /** The step on show, or the one asked for and on its way: where "one more" counts from. */
  get position() {
    return this.wanted ?? this.inflight ?? this.step;
  }

  get steps() {
    return this.answer ? this.answer.steps : 0;
  }

  /** Open a record; seats names the players when known (the table's own record), else "Seat k";
   *  me is the person's seat there ("You"), or null for a record file. */
  async open(record, seats = null, me = null) {
    this.errorBox.textContent = "";
    const previous = { record: this.record, seats: this.seats, me: this.me, answer: this.answer };
    this.record = record;
    this.seats = seats;
    this.me = me;
    this.answer = null;
    if (!(await this.go(0))) Object.assign(this, previous); // a record the server refused: keep the last one
  }

  /** Show the table after `step` moves (clamped); requests made while one is on its way collapse to the last. */
  async go(step) {
    if (!this.record) return false;
    this.wanted = Math.max(0, Math.min(step, this.answer ? this.steps : step));
    if (this.busy) return true;
    this.busy = true;
    try {
      while (this.wanted !== null) {
        const target = this.wanted;
        this.wanted = null;
        this.inflight = target;
        const fresh = !this.answer;
        const answer = await api("/v1/replay", { method: "POST", body: { record: this.record, step: target } });
        this.answer = answer;
        this.render(fresh);
      }
      return true;
    } catch (err) {
      this.errorBox.textContent = `This record cannot be replayed: ${errorText(err)}`;
      this.wanted = null;
      return false;
    } finally {
      this.busy = false;
      this.inflight = null;
    }
  }

  /** The first step of the deal before (-1) or after (+1) the one on show. */
  handStart(direction) {
    const moves = this.answer.moves;
    const step = this.position;
    const current = step < moves.length ? moves[step].hand : moves.length ? moves[moves.length - 1].hand + 1 : 0;
    const starts = [];
    moves.forEach((move, index) => {
      if (index === 0 || moves[index - 1].hand !== move.hand) starts.push(index);
    });
    if (direction > 0) return starts.find((start) => moves[start].hand > current) ?? moves.length;
    const mine = starts.filter((start) => start < step);
    const startOfCurrent = starts.find((start) => moves[start].hand === current);
    return step > startOfCurrent ? startOfCurrent : mine[mine.length - 1] ?? 0;
  }

  names(state) {
    const seats = this.seats ?? state.seats;
    return new Names(seats, this.me ?? null);
  }

  render(fresh) {
    const { state, seats, step, steps, moves, undealt } = this.answer;
    const names = this.names(state);
    this.root.dataset.step = String(step);
    this.root.dataset.steps = String(steps);
    const rules = isSchneider(state) ? "Bohemian Schneider" : state.preset;
    this.$("replay-title").textContent = `Record: ${rules}, seed ${state.seed}, ${steps} moves`;
    for (const id of ["replay-first", "replay-back", "replay-prev-hand"]) this.$(id).disabled = step === 0;
    for (const id of ["replay-forward", "replay-last", "replay-next-hand"]) this.$(id).disabled = step === steps;
    const slider = this.$("replay-step");
    slider.disabled = false;
    slider.max = String(steps);
    slider.value = String(step);
    this.$("replay-position").textContent = `Move ${step} of ${steps}`;
    const last = moves[step - 1];
    const next = moves[step];
    let text = last ? `Move ${step}: ${eventText(last, state, names)}.` : "The first deal, before any move.";
    if (next) text += ` Next: ${names.seat(next.seat)} to move.`;
    else if (state.match_over) text += " The match is over.";
    this.$("replay-move").textContent = text;
    renderScoreboard(this.$("replay-scoreboard"), state, names);
    renderFelt(this.$("replay-felt"), state, names, { perspective: 0, backs: false, summary: handSummary(state, names) });
    this.renderHands(seats, state, names, next, undealt);
    renderResults(this.$("replay-results"), state, names);
    if (fresh) this.renderMoveList(moves, state, names);
    this.markMove(step);
  }

  renderHands(seats, state, names, next, undealt) {
    const box = this.$("replay-hands");
    box.replaceChildren();
    const nextCard = next ? cardOfMove(next.move) : null;
    for (const { seat, view, hand_groups: groups } of seats) {
      const row = element("div", "replay-hand");
      row.dataset.seat = String(seat);
      if (state.current_player === seat && !state.match_over) row.classList.add("on-turn");
      const cards = element("div", "hand small");
      cards.setAttribute("role", "group");
      cards.setAttribute("aria-label", `${names.long(seat)}'s cards`);
      for (const group of groups) {
        const suit = element("div", "suit-group");
        for (const card of group.cards) {
          const image = cardImage(card, { rules: state.rules, trump: group.trump, size: "small" });
          if (next && next.seat === seat && card === nextCard) image.classList.add("next");
          suit.append(image);
        }
        cards.append(suit);
      }
      row.append(element("span", "replay-seat", names.long(seat)), cards);
      const out = view.my_discards ?? [];
      if (out.length) row.append(this.pile(`Discarded`, out, state));
      box.append(row);
    }
    for (const [name, list] of Object.entries(undealt)) {
      if (!list.length) continue;
      const row = element("div", "replay-hand undealt");
      row.append(this.pile(name[0].toUpperCase() + name.slice(1), list, state));
      box.append(row);
    }
  }

  pile(label, cards, state) {
    const box = element("div", "pile");
    box.append(element("span", "pile-label", `${label} (${cards.length})`));
    const list = element("div", "hand tiny");
    list.setAttribute("role", "group");
    list.setAttribute("aria-label", label);
    for (const card of cards) list.append(cardImage(card, { rules: state.rules, size: "tiny" }));
    box.append(list);
    return box;
  }

  renderMoveList(moves, state, names) {
    const list = this.$("replay-moves");
    list.replaceChildren();
    moves.forEach((move, index) => {
      if (index === 0 || moves[index - 1].hand !== move.hand) list.append(element("li", "hand-sep", `Deal ${move.hand + 1}`));
      const item = element("li", "entry");
      const jump = element("button", "jump", `${index + 1}. ${eventText(move, state, names)}`);
      jump.type = "button";
      jump.dataset.step = String(index + 1);
      jump.tabIndex = -1;
      item.append(jump);
      list.append(item);
    });
  }

  markMove(step) {
    const list = this.$("replay-moves");
    list.querySelector(".current")?.classList.remove("current");
    const current = list.querySelector(`button[data-step="${step}"]`);
    if (current) {
      current.classList.add("current");
      current.scrollIntoView({ block: "nearest" });
    }
  }

  /** Keys of the replay viewer: arrows step, PageUp/PageDown jump a deal, Home/End go to either end. */
  key(event) {
    if (!this.answer) return false;
    const targets = {
      ArrowLeft: () => this.position - 1,
      ArrowRight: () => this.position + 1,
      PageUp: () => this.handStart(-1),
      PageDown: () => this.handStart(1),
      Home: () => 0,
      End: () => this.steps,
    };
    if (!targets[event.key]) return false;
    this.go(targets[event.key]());
    return true;
  }
}
