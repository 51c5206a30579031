// The New game form: a preset, house rules (a few common ones as controls, any other as option=value lines),
// the person's seat, a bot in every other seat, the bots' pace and a seed. The server checks the rules: its 422
// message is shown as it is.

import { api, errorText } from "./api.js";

/** Options offered as controls when the preset has them (every other option goes in the free field). */
const COMMON = [
  { name: "target_score", label: "Target score" },
  { name: "num_rounds", label: "Rounds" },
  { name: "follow", label: "Following suit" },
  { name: "dealer_steals", label: "Dealer may steal the bid" },
  { name: "moon_bid", label: "Shooting the moon" },
];
const SEARCH_NOTE = " (slow: thinks for a while)";
const WATCH = "watch";

function element(tag, props = {}) {
  return Object.assign(document.createElement(tag), props);
}

/** A typed value for an option from its text, by the option's type in /v1/presets (unknown ones as JSON or text). */
export function optionValue(text, option) {
  const raw = text.trim();
  const type = option?.type ?? "";
  if (type === "string") return raw.replace(/^"(.*)"$/, "$1");
  if (type === "boolean" && /^(true|yes|on|1)$/i.test(raw)) return true;
  if (type === "boolean" && /^(false|no|off|0)$/i.test(raw)) return false;
  if (type.includes("null") && /^(none|null)$/i.test(raw)) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return type === "list" ? raw.split(",").map((part) => part.trim()).filter(Boolean) : raw;
  }
}

/** `option=value` lines as {option: value}; a line without "=" throws an Error naming it. */
export function parseOptionLines(text, options) {
  const byName = new Map(options.map((option) => [option.name, option]));
  const parsed = {};
  text.split(/\n|;/).forEach((line, index) => {
    if (!line.trim()) return;
    const at = line.indexOf("=");
    if (at < 1) throw new Error(`More options, line ${index + 1} ("${line.trim()}"): expected option=value, e.g. follow=strict`);
    const name = line.slice(0, at).trim();
    parsed[name] = optionValue(line.slice(at + 1), byName.get(name));
  });
  return parsed;
}

export class Setup {
  constructor(form, { onStart }) {
    this.form = form;
    this.onStart = onStart;
    this.presets = [];
    this.bots = [];
    this.botChoice = {};
    this.botsKey = "";
    this.el = (id) => form.querySelector(`#${id}`);
    this.error = this.el("setup-error");
  }

  async load() {
    try {
      this.presets = await api("/v1/presets");
    } catch (err) {
      this.showError(`The presets could not be loaded: ${errorText(err)}`);
      return;
    }
    const select = this.el("preset");
    for (const preset of this.presets) select.append(element("option", { value: preset.name, textContent: preset.name }));
    const saved = localStorage.getItem("smear.preset");
    select.value = this.presets.some((p) => p.name === saved) ? saved : "ten_point";
    this.el("extra-options").value = localStorage.getItem("smear.options") ?? "";
    this.el("pace").value = localStorage.getItem("smear.pace") ?? "800";
    select.addEventListener("change", () => this.presetChanged());
    this.el("extra-options").addEventListener("input", () => this.rulesChanged());
    this.el("pace").addEventListener("input", () => this.showPace());
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.start();
    });
    this.showPace();
    await this.presetChanged();
    this.el("new-game").disabled = false; // not before: a game begun now would have no seat for the person yet
  }

  get preset() {
    return this.presets.find((p) => p.name === this.el("preset").value);
  }

  showPace() {
    const ms = Number(this.el("pace").value);
    this.el("pace-value").textContent = ms ? `${(ms / 1000).toFixed(1)} s` : "no wait";
  }

  showError(text) {
    this.error.textContent = text;
  }

  async presetChanged() {
    const preset = this.preset;
    const summary = `${preset.num_players} players` + (preset.game === "smear" ? "" : ", no bidding, a draw pile");
    this.el("preset-summary").textContent = summary;
    this.el("extra-options").placeholder = preset.game === "smear" ? "jick_points=2" : "num_rounds=4";
    const box = this.el("common-options");
    box.replaceChildren();
    for (const { name, label } of COMMON) {
      const option = preset.options.find((o) => o.name === name);
      if (option) box.append(this.control(option, label));
    }
    await this.rulesChanged();
  }

  control(option, label) {
    const id = `option-${option.name}`;
    const field = element("div", { className: option.type === "boolean" ? "field check" : "field" });
    let input;
    if (option.type === "boolean") {
      input = element("input", { type: "checkbox", id, checked: option.default });
    } else if (option.choices) {
      input = element("select", { id });
      for (const choice of option.choices) input.append(element("option", { value: choice, textContent: choice }));
      input.value = option.default;
    } else {
      input = element("input", { type: "number", id, value: option.default ?? "", inputMode: "numeric" });
    }
    input.dataset.option = option.name;
    input.title = option.description;
    input.addEventListener("change", () => this.rulesChanged());
    const text = element("label", { htmlFor: id, textContent: label });
    if (option.type === "boolean") field.append(input, text);
    else field.append(text, input);
    return field;
  }

  /** The rules as the API takes them: the preset's name, or {preset, ...house rules}; throws on a malformed line. */
  rules() {
    const preset = this.preset;
    const options = {};
    for (const input of this.el("common-options").querySelectorAll("[data-option]")) {
      const option = preset.options.find((o) => o.name === input.dataset.option);
      const value = input.type === "checkbox" ? input.checked : optionValue(input.value, option);
      if (JSON.stringify(value) !== JSON.stringify(option.default)) options[option.name] = value;
    }
    Object.assign(options, parseOptionLines(this.el("extra-options").value, preset.options));
    return Object.keys(options).length ? { preset: preset.name, ...options } : preset.name;
  }

  /** The rules, or null after showing why a house-rule line cannot be read. */
  checkedRules() {
    try {
      return this.rules();
    } catch (err) {
      this.showError(err.message);
      return null;
    }
  }

  seatCount(rules) {
    const preset = this.preset;
    return typeof rules === "object" && Number.isInteger(rules.num_players) ? rules.num_players : preset.num_players;
  }

  /** The rules changed: fetch the bots usable on them (neural only on the rules it was trained on), redraw seats. */
  async rulesChanged() {
    const rules = this.checkedRules();
    if (rules === null) return;
    const key = JSON.stringify(rules);
    if (key === this.botsKey) return;
    this.botsKey = key;
    try {
      const param = typeof rules === "string" ? rules : JSON.stringify(rules);
      const bots = await api(`/v1/bots?rules=${encodeURIComponent(param)}`);
      if (key !== this.botsKey) return; // the rules changed again meanwhile
      this.bots = bots;
      this.showError("");
    } catch (err) {
      if (key === this.botsKey) this.showError(errorText(err));
    }
    this.renderSeats(this.seatCount(rules));
  }

  renderSeats(count) {
    const mine = this.el("my-seat");
    const chosen = mine.value || "0";
    mine.replaceChildren();
    for (let k = 0; k < count; k++) mine.append(element("option", { value: String(k), textContent: `Seat ${k}` }));
    mine.append(element("option", { value: WATCH, textContent: "None: watch the bots" }));
    mine.value = chosen === WATCH || Number(chosen) < count ? chosen : "0";
    mine.onchange = () => this.renderBots(count);
    this.renderBots(count);
  }

  renderBots(count) {
    const box = this.el("bot-seats");
    box.querySelectorAll("select").forEach((select) => {
      this.botChoice[select.dataset.seat] = select.value;
    });
    box.replaceChildren();
    const me = this.el("my-seat").value;
    const names = this.bots.map((bot) => bot.name);
    for (let k = 0; k < count; k++) {
      if (String(k) === me) continue;
      const id = `bot-${k}`;
      const field = element("div", { className: "field inline" });
      const select = element("select", { id });
      select.dataset.seat = String(k);
      for (const bot of this.bots) {
        const note = bot.search ? SEARCH_NOTE : bot.kind === "neural" ? " (trained agent)" : "";
        select.append(element("option", { value: bot.name, textContent: bot.name + note }));
      }
      const previous = this.botChoice[k];
      select.value = names.includes(previous) ? previous : names.includes("rule") ? "rule" : names[0] ?? "";
      field.append(element("label", { htmlFor: id, textContent: `Seat ${k} bot` }), select);
      box.append(field);
    }
  }

  /** Open a table with these choices; the server's refusal (422) is shown in the form. */
  async start() {
    const rules = this.checkedRules();
    if (rules === null) return;
    const count = this.seatCount(rules);
    const me = this.el("my-seat").value;
    if (me === "") {
      this.showError("The seats are not shown yet: choose your seat, then New game.");
      return;
    }
    const seats = [];
    for (let k = 0; k < count; k++) {
      seats.push(String(k) === me ? "remote" : this.el(`bot-${k}`)?.value ?? "rule");
    }
    const body = { rules, seats, bot_delay_ms: Number(this.el("pace").value) };
    const seedText = this.el("seed").value.trim();
    if (seedText) body.seed = /^\d+$/.test(seedText) ? Number(seedText) : seedText;
    const submit = this.el("new-game");
    submit.disabled = true;
    this.showError("");
    try {
      const created = await api("/v1/tables", { method: "POST", body });
      localStorage.setItem("smear.preset", this.preset.name);
      localStorage.setItem("smear.options", this.el("extra-options").value);
      localStorage.setItem("smear.pace", this.el("pace").value);
      this.onStart(created, me === WATCH ? null : Number(me));
    } catch (err) {
      this.showError(errorText(err));
    } finally {
      submit.disabled = false;
    }
  }
}
