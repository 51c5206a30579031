// Cards as people see them: names in the engine's notation ("AS", "TH", "JK2") drawn with suit symbols.
// Only presentation lives here: which cards are trumps, legal or grouped comes from the server.

export const SUITS = {
  S: { symbol: "♠", name: "spades" },
  H: { symbol: "♥", name: "hearts" },
  D: { symbol: "♦", name: "diamonds" },
  C: { symbol: "♣", name: "clubs" },
};

const RANK_WORDS = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
  T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};

/** {joker, rank, suit, label} of a card name; rank "T" is shown as "10". */
export function parseCard(name) {
  if (name.startsWith("JK")) return { joker: name === "JK" ? 1 : 2, rank: "", suit: "", label: "JK" };
  const rank = name.slice(0, -1);
  return { joker: 0, rank, suit: name.slice(-1), label: rank === "T" ? "10" : rank };
}

/** The joker's name under these rules: "joker", or "big joker" / "little joker" when they differ. */
function jokerWords(joker, rules) {
  if (rules && rules.distinct_jokers) return joker === 1 ? "big joker" : "little joker";
  if (rules && rules.jokers === 1) return "joker";
  return joker === 1 ? "joker" : "second joker";
}

/** The word on a joker's face: "BIG JOKER" / "LITTLE JOKER" when they differ, "JOKER" and "JOKER 2" otherwise. */
function jokerFaceWord(joker, rules) {
  if (rules && rules.distinct_jokers) return joker === 1 ? "BIG JOKER" : "LITTLE JOKER";
  return joker === 2 ? "JOKER 2" : "JOKER";
}

/** A card in words, for screen readers and tooltips: "ace of spades". */
export function cardWords(name, rules) {
  const card = parseCard(name);
  if (card.joker) return jokerWords(card.joker, rules);
  return `${RANK_WORDS[card.rank]} of ${SUITS[card.suit].name}`;
}

/** A card in a line of text: "A♠", "10♥", "JK". */
export function cardText(name) {
  const card = parseCard(name);
  if (card.joker) return card.joker === 1 ? "JK" : "JK2";
  return `${card.label}${SUITS[card.suit].symbol}`;
}

/** A suit letter as a symbol and word: "♥ hearts". */
export function suitText(letter) {
  return `${SUITS[letter].symbol} ${SUITS[letter].name}`;
}

/** The drawn face of a card (hidden from screen readers: its container names it). */
export function cardFace(name, { size = "", trump = false, rules = null } = {}) {
  const card = parseCard(name);
  const face = document.createElement("span");
  face.className = `card-face ${size}`.trim();
  face.setAttribute("aria-hidden", "true");
  face.dataset.card = name;
  if (trump) face.classList.add("trump");
  if (card.joker) {
    face.dataset.suit = "joker";
    face.innerHTML = `<span class="corner">★</span><span class="pip">★</span><span class="joker-word">${jokerFaceWord(card.joker, rules)}</span>`;
  } else {
    face.dataset.suit = card.suit;
    const symbol = SUITS[card.suit].symbol;
    face.innerHTML = `<span class="corner"><span class="rank">${card.label}</span><span>${symbol}</span></span>`
      + `<span class="pip">${symbol}</span>`;
  }
  if (trump) face.insertAdjacentHTML("beforeend", '<span class="trump-band">trump</span>');
  return face;
}

/** A card shown, not played: an image named in words. */
export function cardImage(name, options = {}) {
  const holder = document.createElement("span");
  holder.className = "card";
  holder.setAttribute("role", "img");
  holder.setAttribute("aria-label", cardWords(name, options.rules) + (options.trump ? ", trump" : ""));
  holder.title = holder.getAttribute("aria-label");
  holder.append(cardFace(name, options));
  return holder;
}

/** The back of a card (a card someone holds, unseen). */
export function cardBack(size = "small") {
  const back = document.createElement("span");
  back.className = `card-face back ${size}`;
  back.setAttribute("aria-hidden", "true");
  return back;
}

/** The card a move is made with ("play AS" -> "AS"), or null for pass, bids, trump and done. */
export function cardOfMove(move) {
  const [verb, arg] = move.split(" ");
  return ["play", "discard", "call"].includes(verb) ? arg : null;
}
