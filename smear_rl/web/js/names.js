// How seats, teams and sides are named on the page: "You", "Seat 2", "Seat 2 (rule)", "Team B: Seat 1 & Seat 3".

const TEAM_LETTERS = "ABCDEFGH";

export class Names {
  /** seats: the table's [{seat, kind, bot}]; me: the person's seat, or null (a spectator, a replay). */
  constructor(seats, me = null) {
    this.seats = seats;
    this.me = me;
  }

  /** A seat as a sentence's subject: "You", "Seat 2". */
  seat(k) {
    return k === this.me ? "You" : `Seat ${k}`;
  }

  /** A seat with its bot: "Seat 2 (rule)". */
  long(k) {
    const bot = this.seats[k]?.bot;
    return bot && k !== this.me ? `Seat ${k} (${bot})` : this.seat(k);
  }

  /** Several seats: "You & Seat 2". */
  group(seats) {
    return seats.map((k) => this.seat(k)).join(" & ");
  }

  /** A match team by its index in the state's `teams` (a single seat is named as the seat). */
  team(index, teams) {
    const seats = teams[index];
    return seats.length === 1 ? this.seat(seats[0]) : `Team ${TEAM_LETTERS[index]}: ${this.group(seats)}`;
  }

  /** A match team in few words: "Team B" (the scoreboard says who is in it), or a single seat as the seat. */
  teamShort(index, teams) {
    const seats = teams[index];
    return seats.length === 1 ? this.seat(seats[0]) : `Team ${TEAM_LETTERS[index]}`;
  }

  /** A scoring side of one hand, by its seats (a team, or with a called partner the bidder's pair). */
  side(seats, teams) {
    const index = sameTeam(seats, teams);
    return index >= 0 ? this.team(index, teams) : this.group(seats);
  }

  /** A scoring side in few words: "Team B", "You", "Seat 1 & Seat 3" (a called partnership). */
  sideShort(seats, teams) {
    const index = sameTeam(seats, teams);
    return index >= 0 ? this.teamShort(index, teams) : this.group(seats);
  }
}

/** The index of the team made of exactly these seats, or -1. */
function sameTeam(seats, teams) {
  return teams.findIndex((team) => team.length === seats.length && team.every((k) => seats.includes(k)));
}

/** The team index of a seat, from the state's `teams`. */
export function teamOf(seat, teams) {
  return teams.findIndex((team) => team.includes(seat));
}
