"""The web table in a real browser: Playwright driving Debian's Chromium against ``smear-rl serve`` on a free port.

Whole hands are played by clicking on ``ten_point``, ``minnesota``, ``pitch_smudge`` and
``bohemian_schneider``; at every turn exactly the legal moves the API gives the seat are
enabled, each a button named by the move, and the scores shown are the API's; at the end the
page's scores and hand results equal the engine's replay of the table's record. Then the
keyboard path, the replay viewer (a record file, the table's own record, Bohemian
Schneider), the server's refusal of bad house rules shown on the page, the accessibility
basics, and a screenshot (``SMEAR_WEB_SCREENSHOT=docs/img/web_table.png`` writes the one the
docs show).

Nothing is downloaded: the browser is ``/usr/bin/chromium`` (``apt-get install chromium``,
which ``scripts/setup.sh`` does as root when asked, as ``scripts/test.sh`` asks). Without it,
or without the ``playwright`` package, the tests skip, unless ``SMEAR_REQUIRE_EXTRAS`` is set
(``scripts/test.sh``, CI): then they fail.
"""

from __future__ import annotations

import json
import os
import random
import re
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")

import httpx  # noqa: E402

import smear_env  # noqa: E402
from smear_env import actions as A  # noqa: E402
from tests.ports import free_port  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1400, "height": 900}
WAIT_MS = 20_000
#: a move at most this many times per match (a match that goes on longer is a bug of the page or the test)
MAX_TURNS = 400


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing: pip install -c constraints.txt -e '.[dev]'"
    if not CHROMIUM.exists():
        return f"no browser at {CHROMIUM}: apt-get install -y chromium (SMEAR_SYSTEM_PACKAGES=1 setup.sh, as root)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    reason = _missing()
    if reason:
        if os.environ.get("SMEAR_REQUIRE_EXTRAS"):
            pytest.fail(f"browser tests cannot run: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """``smear-rl serve`` on a free port, as a person starts it (bots in threads: no worker processes to spawn)."""
    port = free_port()
    command = [sys.executable, "-m", "smear_rl.cli", "serve", "--port", str(port), "--search-workers", "0",
               "--bot-workers", "0", "--keepalive-seconds", "1", "--log-level", "warning"]  # fmt: skip
    server = subprocess.Popen(command)
    url, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 60
    while True:
        assert server.poll() is None and time.monotonic() < deadline, "smear-rl serve did not start"
        try:
            if httpx.get(f"{url}/v1/health", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.1)
    yield url
    server.terminate()
    server.wait(30)


@pytest.fixture(scope="module")
def http(base_url: str) -> Iterator[httpx.Client]:
    """The test's own client of the API (one, reused: a fresh one per call costs a TLS set-up each)."""
    with httpx.Client(base_url=base_url, timeout=30) as client:
        yield client


@pytest.fixture
def page(browser: Any, base_url: str) -> Iterator[Any]:
    """A fresh page (its own storage) on the table; any uncaught script error fails the test."""
    context = browser.new_context(viewport=VIEWPORT, reduced_motion="reduce")
    context.set_default_timeout(WAIT_MS)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda err: errors.append(str(err)))
    tab.goto(base_url + "/")
    tab.wait_for_function("document.querySelectorAll('#preset option').length > 0")
    yield tab
    context.close()
    assert not errors, f"script errors on the page: {errors}"


# ---------------------------------------------------------------------- helpers
def start_game(page: Any, preset: str, options: str = "", seat: str = "0", seed: int | None = None) -> dict[str, Any]:
    """Fill the New game form (bots at no delay) and press New game; the table's id and tokens."""
    page.get_by_label("Preset").select_option(preset)
    page.get_by_label("More options").fill(options)
    page.get_by_label("Your seat").select_option(seat)
    set_range(page, "#pace", 0)
    if seed is not None:
        page.get_by_label("Seed").fill(str(seed))
    page.wait_for_function("document.querySelectorAll('#bot-seats select option').length > 0")
    page.get_by_role("button", name="New game").click()
    page.wait_for_function("document.getElementById('table').dataset.version !== '-1'")
    return json.loads(page.evaluate("sessionStorage.getItem('smear.table')"))


def set_range(page: Any, selector: str, value: int) -> None:
    """Move a slider as a person dragging it would (an input event)."""
    page.locator(selector).evaluate(f"e => {{ e.value = '{value}'; e.dispatchEvent(new Event('input')); }}")


def api_state(http: httpx.Client, table: dict[str, Any]) -> dict[str, Any]:
    params = {} if table["seat"] is None else {"seat": table["seat"]}
    headers = {"Authorization": f"Bearer {table['token']}"} if table["token"] else {}
    response = http.get(f"/v1/tables/{table['id']}", params=params, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def record_of(http: httpx.Client, table: dict[str, Any]) -> dict[str, Any]:
    response = http.get(f"/v1/tables/{table['id']}/record")
    assert response.status_code == 200, response.text
    return response.json()


def wait_for_turn(page: Any) -> None:
    """Until the page shows the person's turn or the match's end."""
    page.wait_for_function(
        "(t => t.yourTurn === 'true' || t.matchOver === 'true')(document.getElementById('table').dataset)"
    )


def page_version(page: Any) -> int:
    return int(page.locator("#table").get_attribute("data-version"))


def wait_past(page: Any, version: int) -> None:
    page.wait_for_function(f"Number(document.getElementById('table').dataset.version) > {version}")


def enabled_moves(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "#moves button[data-move]:not([disabled])", "nodes => nodes.map(n => n.getAttribute('aria-label'))"
    )


def shown_scores(page: Any, board: str = "#scores") -> list[int]:
    return [int(text) for text in page.locator(f"{board} [data-team] .score").all_inner_texts()]


def choose(rng: random.Random, legal: list[str], eager: bool = False) -> str:
    """A move for the person: mostly passing in the auction (so matches stay short), anything legal otherwise;
    ``eager``: the highest bid whenever one is legal (so the person wins auctions)."""
    bids = [move for move in legal if move.startswith("bid ")]
    if eager and bids:
        return max(bids, key=lambda move: A.MOON_BID if move == "bid moon" else int(move.split()[1]))
    if "pass" in legal and rng.random() < 0.75:
        return "pass"
    return rng.choice(legal)


def checked_turn(page: Any, http: httpx.Client, table: dict[str, Any]) -> dict[str, Any]:
    """The API's state at the person's turn, after checking the page against it: exactly the legal moves enabled,
    each a button named by the move, and the same scores and version."""
    state = api_state(http, table)
    assert page_version(page) == state["version"]
    assert sorted(enabled_moves(page)) == sorted(state["legal_moves"]), state["view"]["phase"]
    assert shown_scores(page) == state["scores"]
    disabled = page.eval_on_selector_all("#moves button[data-move][disabled]", "ns => ns.map(n => n.dataset.move)")
    assert not set(disabled) & set(state["legal_moves"])
    return state


def play_to_the_end(
    page: Any, http: httpx.Client, table: dict[str, Any], seed: int, eager: bool = False
) -> dict[str, Any]:
    """Click legal moves until the match is over, checking every turn; the final API state."""
    rng = random.Random(seed)
    for _ in range(MAX_TURNS):
        wait_for_turn(page)
        if page.locator("#table").get_attribute("data-match-over") == "true":
            return api_state(http, table)
        state = checked_turn(page, http, table)
        move = choose(rng, state["legal_moves"], eager)
        page.get_by_role("button", name=move, exact=True).click()
        wait_past(page, state["version"])
    raise AssertionError(f"the match did not end within {MAX_TURNS} turns")


def check_against_record(page: Any, http: httpx.Client, table: dict[str, Any], final: dict[str, Any]) -> Any:
    """The page's final scores and hand results are the engine's, replayed from the table's record."""
    game = smear_env.replay(record_of(http, table))
    assert game.is_over and final["match_over"]
    assert shown_scores(page) == list(game.scores) == final["scores"]
    results = game.round_results if final["preset"] == "bohemian_schneider" else game.hand_results
    shown = page.locator("#results details")
    assert shown.count() == len(results) >= 1
    newest = page.locator("#results details").first.locator(".scores-after").get_attribute("data-scores")
    assert newest == ",".join(map(str, game.scores))
    assert "Match over" in page.locator("#felt").inner_text()
    summary = page.locator("#felt .hand-summary").inner_text()  # the last hand in brief, on the felt
    assert all(f"→ {score}" in summary for score in game.scores), summary
    if final["preset"] != "bohemian_schneider":
        for number, result in enumerate(game.hand_results):
            assert shown_breakdown(page, number) == engine_breakdown(result), f"hand {number + 1}"
    return game


def shown_breakdown(page: Any, number: int) -> dict[str, Any]:
    """What the page's results say of a hand: the seats of the side that took each category, each side's change."""
    box = page.locator(f"#results details[data-hand='{number}']")
    taken = box.locator("tr[data-category]").evaluate_all("rs => rs.map(r => [r.dataset.category, r.dataset.seats])")
    sides = box.locator("tr[data-seats]:not([data-category])").evaluate_all(
        "rows => rows.map(r => [r.dataset.seats, r.lastElementChild.textContent])"
    )
    return {"taken": dict(taken), "sides": dict(sides)}


def engine_breakdown(result: Any) -> dict[str, Any]:
    """The same from the engine's HandResult (a category nobody took: no seats)."""

    def seats(side: int) -> str:
        return ",".join(str(seat) for seat, owner in enumerate(result.side_of_seat) if owner == side)

    taken = {key: seats(result.awards[key]) if key in result.awards else "" for key in result.values}
    sides = {seats(side): f"+{change}" if change > 0 else str(change) for side, change in result.deltas.items()}
    return {"taken": taken, "sides": sides}


# ---------------------------------------------------------------------- whole matches by clicking
@pytest.mark.parametrize(
    ("preset", "options", "seed"),
    [
        ("ten_point", "target_score=6", 11),
        ("minnesota", "target_score=4", 12),
        ("pitch_smudge", "target_score=3", 13),
        ("ten_point_5p", "target_score=6", 15),  # five alone, the bidder calls a partner by a card
        ("schmier", "target_score=4", 16),  # six players in two teams of three
        ("bohemian_schneider", "", 14),
    ],
)
def test_whole_hands_by_clicking_show_only_legal_moves_and_the_engines_scores(
    page: Any, http: httpx.Client, preset: str, options: str, seed: int
) -> None:
    table = start_game(page, preset, options, seed=seed)
    final = play_to_the_end(page, http, table, seed, eager=preset == "ten_point_5p")
    game = check_against_record(page, http, table, final)
    if preset != "bohemian_schneider":  # every hand's breakdown names each category's taker and the bid's fate
        first = page.locator("#results details").last.text_content()
        assert "High (1)" in first and "Game (1)" in first and ("made it" in first or "was set" in first)
        bidder = game.hand_results[0].bidder
        assert first.startswith("Hand 1") and f"{'You' if bidder == 0 else f'Seat {bidder}'} bid" in first
    if preset == "ten_point_5p":  # bidding high, the person wins an auction and so calls a partner by a card
        assert any(result.bidder == 0 for result in game.hand_results)  # every bidder calls: here, by a click


def test_the_table_record_opens_in_the_replay_viewer_after_the_match(page: Any, http: httpx.Client) -> None:
    assert page.get_by_role("button", name="Replay this match").is_hidden()
    table = start_game(page, "pitch_smudge", "target_score=2", seed=21)
    assert page.locator("#replay-current").is_disabled()  # the record shows every hand: not before the end
    play_to_the_end(page, http, table, 21)
    record = record_of(http, table)
    page.get_by_role("button", name="Replay this match").click()
    page.wait_for_function("document.getElementById('replay').dataset.step === '0'")
    assert page.locator("#replay-view").is_visible() and page.locator("#table-view").is_hidden()
    assert page.locator("#replay").get_attribute("data-steps") == str(len(record["moves"]))
    bots = [s["bot"] for s in api_state(http, table)["seats"]]
    assert f"Seat 1 ({bots[1]})" in page.locator("#replay-hands").inner_text()  # the table's players, named
    assert "You" in page.locator("#replay-hands").inner_text()  # and the person as at the table
    assert "Seat 0" not in page.locator("#replay-hands").inner_text()
    page.keyboard.press("t")
    page.get_by_role("button", name="Play again").click()  # a new table with the same choices
    page.wait_for_function(f"JSON.parse(sessionStorage.getItem('smear.table')).id !== '{table['id']}'")
    again = json.loads(page.evaluate("sessionStorage.getItem('smear.table')"))
    finished = http.get(f"/v1/tables/{table['id']}")  # closed: it no longer counts against this browser's tables
    assert finished.status_code == 404
    state = api_state(http, again)
    assert state["preset"] == "pitch_smudge" and state["rules"]["target_score"] == 2
    assert state["seed"] is None  # the seed would show every hand: a seat never sees it before the end
    admin = http.get(f"/v1/tables/{again['id']}", headers={"Authorization": f"Bearer {again['adminToken']}"})
    assert admin.json()["seed"] == 21  # the page that opened the table holds its admin token
    wait_for_turn(page)
    assert page.get_by_role("button", name="Play again").is_hidden()


def test_bots_moves_arrive_one_at_a_time_at_the_chosen_pace_by_server_events(page: Any, http: httpx.Client) -> None:
    """Each bot move is its own state on the page and its own announcement, at least the pace apart, pushed by the
    server: the page opens one event stream and asks for no table state in a loop.

    The first move's pace runs from the table's creation, which the page sees only after its request returns, so the
    first gap is measured from the form's submission (just before the table exists), not from state 0 on screen."""
    pace_ms = 300
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.evaluate(
        """() => {
        window.seen = [];
        const note = () => window.seen.push([document.getElementById('table').dataset.version, performance.now(),
                                             document.getElementById('announcer').textContent]);
        new MutationObserver(note).observe(document.getElementById('table'), {attributeFilter: ['data-version']});
        document.addEventListener('submit', () => { window.asked = performance.now(); }, {capture: true});
        }"""
    )
    page.get_by_label("Preset").select_option("minnesota")
    page.get_by_label("More options").fill("")
    page.get_by_label("Your seat").select_option("3")  # the dealer is seat 0: seats 1 and 2 bid before seat 3
    # a fixed deal: on about 1 deal in 400 a minnesota seat may call a misdeal and then bids again (two moves);
    # on this one neither seat 1 nor seat 2 may
    page.get_by_label("Seed").fill("1")
    set_range(page, "#pace", pace_ms)
    assert page.locator("#pace-value").inner_text() == "0.3 s"
    page.wait_for_function("document.querySelectorAll('#bot-seats select option').length > 0")
    page.get_by_role("button", name="New game").click()
    wait_for_turn(page)
    table = json.loads(page.evaluate("sessionStorage.getItem('smear.table')"))
    state = api_state(http, table)
    bot_moves = [entry for entry in state["log"] if "move" in entry]
    assert [entry["seat"] for entry in bot_moves] == [1, 2] and state["version"] == 2
    noted = page.evaluate("window.seen")  # the stream's first state redraws version 0: count each version once
    seen = [note for index, note in enumerate(noted) if index == 0 or note[0] != noted[index - 1][0]]
    assert [int(version) for version, _, _ in seen] == [0, 1, 2]  # every state shown, in order, none skipped
    shown_at = [page.evaluate("window.asked")] + [at for _, at, _ in seen[1:]]
    gaps = [later - earlier for earlier, later in zip(shown_at, shown_at[1:])]
    assert len(gaps) == 2 and min(gaps) >= pace_ms * 0.9, gaps
    for (_, _, said), entry in zip(seen[1:], bot_moves):  # each move announced as it came
        assert said.startswith(f"Seat {entry['seat']} "), said
    assert "Your turn" in seen[-1][2]
    table_calls = [url for url in requests if f"/v1/tables/{table['id']}" in url]
    assert len([url for url in table_calls if "/events" in url]) == 1 and len(table_calls) == 1, table_calls


def test_watching_the_bots_shows_their_match_to_the_end_with_no_moves_offered(page: Any, http: httpx.Client) -> None:
    table = start_game(page, "ten_point", "target_score=3", seat="watch", seed=6)
    assert table["seat"] is None and table["token"] is None
    page.wait_for_function("document.getElementById('table').dataset.matchOver === 'true'")
    final = api_state(http, table)
    assert shown_scores(page) == final["scores"] and page.locator("#moves button").count() == 0
    assert "you are watching" not in page.locator("#turn-status").inner_text()  # the end is said instead
    assert "match over" in page.locator("#turn-status").inner_text()
    check_against_record(page, http, table, final)


# ---------------------------------------------------------------------- reload
def test_a_reloaded_tab_shows_the_table_it_was_playing(page: Any) -> None:
    table = start_game(page, "ten_point", "target_score=5")
    version = page_version(page)
    page.reload()
    page.wait_for_function(f"Number(document.getElementById('table').dataset.version) >= {version}")
    assert json.loads(page.evaluate("sessionStorage.getItem('smear.table')"))["id"] == table["id"]


def test_new_game_waits_for_the_form_to_load_its_seats(page: Any) -> None:
    """Pressed before the seats are shown, it would open a table of bots that the tab takes for the person's."""
    held: list[Any] = []
    page.route("**/v1/bots?*", lambda route: held.append(route))
    page.reload()
    page.wait_for_function("document.querySelectorAll('#preset option').length > 0")
    assert page.get_by_role("button", name="New game").is_disabled()
    for route in held:
        route.continue_()
    page.unroute("**/v1/bots?*")
    page.wait_for_function("!document.getElementById('new-game').disabled")
    assert page.locator("#my-seat option").count() > 0


def test_a_new_game_begun_while_the_old_table_is_asked_for_stays_the_tabs_table(page: Any) -> None:
    """After a reload the old table is asked for; a game begun before the answer is the one the tab keeps."""
    old = start_game(page, "ten_point", "target_score=5")
    held: list[Any] = []
    page.route(f"**/v1/tables/{old['id']}?*", lambda route: held.append(route))  # resume's call waits
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.reload()
    page.get_by_role("button", name="New game").click()  # once the form has loaded: then resume asks
    page.wait_for_function(f"JSON.parse(sessionStorage.getItem('smear.table')).id !== '{old['id']}'")
    new = json.loads(page.evaluate("sessionStorage.getItem('smear.table')"))
    new_version = page_version(page)
    assert held, "the reloaded page asked for its old table"
    for route in held:
        route.continue_()
    page.unroute(f"**/v1/tables/{old['id']}?*")
    page.wait_for_timeout(300)  # what the old table's answer would do, it has done by now
    assert json.loads(page.evaluate("sessionStorage.getItem('smear.table')"))["id"] == new["id"]
    assert page_version(page) >= new_version and page.locator("#table").get_attribute("data-phase") is not None
    assert not [url for url in asked if f"/v1/tables/{old['id']}/events" in url]


# ---------------------------------------------------------------------- keyboard
def test_the_keyboard_alone_plays_digits_arrows_enter_space_and_typed_moves(page: Any, http: httpx.Client) -> None:
    page.get_by_label("Preset").select_option("ten_point")
    page.get_by_label("More options").fill("target_score=5")
    set_range(page, "#pace", 0)
    page.wait_for_function("!document.getElementById('new-game').disabled")  # the form has loaded its seats
    page.get_by_role("button", name="New game").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('table').dataset.version !== '-1'")
    table = json.loads(page.evaluate("sessionStorage.getItem('smear.table')"))
    rng, ways = random.Random(5), {"digit": 0, "arrows+Enter": 0, "Space": 0, "typed": 0}
    for turn in range(MAX_TURNS):
        wait_for_turn(page)
        if page.locator("#table").get_attribute("data-match-over") == "true":
            break
        state = checked_turn(page, http, table)
        shown = enabled_moves(page)
        # the turn's first legal move has the focus: Enter or Space alone would make it
        assert page.evaluate("document.activeElement.getAttribute('aria-label')") == shown[0]
        way = list(ways)[turn % len(ways)]
        index = rng.randrange(min(len(shown), 10))
        if way == "digit":
            page.keyboard.press(str((index + 1) % 10))
        elif way == "arrows+Enter":
            for _ in range(index):
                page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
        elif way == "Space":
            page.keyboard.press("End")
            index = len(shown) - 1
            page.keyboard.press(" ")
        else:
            page.keyboard.press("/")
            move = shown[index]
            page.keyboard.type(move.split(" ")[1] if move.startswith(("play", "discard")) else move)
            page.keyboard.press("Enter")
            page.keyboard.press("Escape")  # back from the text box to the moves
        ways[way] += 1
        try:
            wait_past(page, state["version"])
        except Exception as err:  # say which key and what the page showed, not a bare timeout
            shown_now = page.evaluate(
                "[document.activeElement.outerHTML.slice(0, 200), document.getElementById('move-error').textContent,"
                " document.getElementById('table').dataset.version]"
            )
            raise AssertionError(
                f"turn {turn}: {way} for {shown[index]!r} of {shown} made no move: {shown_now}"
            ) from err
        after = api_state(http, table)
        mine = [e["move"] for e in after["log"] if e["seat"] == 0 and "move" in e]
        assert mine[-1] == shown[index], way
    else:
        raise AssertionError("the match did not end")
    assert min(ways.values()) >= 1, ways
    check_against_record(page, http, table, api_state(http, table))


def test_a_typed_bid_of_10_is_that_bid_and_a_typed_10_of_a_suit_is_that_card(page: Any) -> None:
    """Every "10" was read as a ten's card letter, so "bid 10" (ten_point's top bid) or "10" meant no legal move,
    and a person typing it saw a refusal: the keyboard test's turns that chose that bid waited for a move."""
    cases = [("bid 10", ["pass", "bid 10"]), ("10", ["pass", "bid 10"]), ("10s", ["play TS", "play 2S"]),
             ("play 10h", ["play TH"]), ("TH", ["discard TH"]), ("4", ["bid 4", "play 4S"])]  # fmt: skip
    script = (
        "async cases => { const m = await import('./js/moves.js'); return cases.map(([t, l]) => m.typedMove(t, l)); }"
    )
    assert page.evaluate(script, cases) == ["bid 10", "bid 10", "play TS", "play TH", "discard TH", "bid 4"]


def test_a_state_that_arrives_twice_draws_the_moves_once(page: Any, http: httpx.Client) -> None:
    """A move's answer and the event stream both carry the next state. Drawing it twice replaced the move buttons
    under the person's keys: a Space pressed on a discard as the second copy came was lost (its keyup landed on a
    new button), and the table waited for a move it never got. In ten_point each seat discards down to six in a
    row, so after the person's discard it is still their turn."""
    table = start_game(page, "ten_point", "target_score=5", seed=3)
    count_draws = "window.handDrawn = 0; new MutationObserver(() => { window.handDrawn += 1; })"
    page.evaluate(f"() => {{ {count_draws}.observe(document.getElementById('hand'), {{childList: true}}); }}")
    for _ in range(MAX_TURNS):
        wait_for_turn(page)
        state = checked_turn(page, http, table)
        if state["view"]["phase"] == "discard":
            break
        page.get_by_role("button", name="pass" if "pass" in state["legal_moves"] else state["legal_moves"][0]).click()
        wait_past(page, state["version"])
    else:
        raise AssertionError("the person never discarded")
    drawn = page.evaluate("window.handDrawn")
    page.get_by_role("button", name=state["legal_moves"][0], exact=True).click()
    wait_past(page, state["version"])
    page.wait_for_timeout(1000)  # time for the second copy (answer or event) to arrive: it must change nothing
    assert page_version(page) == state["version"] + 1 == api_state(http, table)["version"]
    assert page.evaluate("window.handDrawn") - drawn == 1


def test_the_help_panel_lists_the_keys_and_closes_with_escape(page: Any) -> None:
    page.keyboard.press("?")
    help_panel = page.get_by_role("dialog", name="Keyboard")
    assert help_panel.is_visible()
    text = help_panel.inner_text()
    for words in ("make the legal move with that number", "move between your legal moves", "type a move", "PageUp"):
        assert words in text
    page.keyboard.press("Escape")
    assert not help_panel.is_visible()


# ---------------------------------------------------------------------- replay viewer
def bots_record(http: httpx.Client, rules: Any) -> dict[str, Any]:
    """The record of a match among rule bots, played by the server."""
    count = 2 if rules == "bohemian_schneider" else 4
    body = {"rules": rules, "seats": ["rule"] * count, "seed": 3, "bot_delay_ms": 0}
    created = http.post("/v1/tables", json=body).json()
    state = created["state"]
    while not state["match_over"]:
        params = {"after": state["version"], "wait": 10}
        state = http.get(f"/v1/tables/{created['id']}", params=params).json()
    return http.get(f"/v1/tables/{created['id']}/record").json()


def replay_step(page: Any) -> int:
    return int(page.locator("#replay").get_attribute("data-step"))


def hands_shown(page: Any, seat: int) -> list[str]:
    selector = f"#replay-hands .replay-hand[data-seat='{seat}'] > .hand .card-face"  # not its discards
    return page.eval_on_selector_all(selector, "ns => ns.map(n => n.dataset.card)")


def test_the_replay_viewer_steps_through_a_record_file_with_every_hand_face_up(
    page: Any, http: httpx.Client, tmp_path: Path
) -> None:
    record = bots_record(http, {"preset": "minnesota", "target_score": 5})
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    page.keyboard.press("r")
    page.get_by_label("Open a record file (JSON)").set_input_files(str(path))
    page.wait_for_function("document.getElementById('replay').dataset.step === '0'")
    first_deal = record["deals"][0]["hands"]
    for seat in range(4):
        assert sorted(hands_shown(page, seat)) == sorted(first_deal[seat].split())
    moves = record["moves"]
    page.get_by_role("button", name="Forward ▶").click()
    page.wait_for_function("document.getElementById('replay').dataset.step === '1'")
    assert "Move 1: Seat 1 " in page.locator("#replay-move").inner_text()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.getElementById('replay').dataset.step === '3'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.getElementById('replay').dataset.step === '2'")
    # step to the first card played: that seat holds one card fewer, and the card is on the felt
    first_play = next(i for i, m in enumerate(moves) if m.startswith("play"))
    game = smear_env.replay(record | {"moves": moves[: first_play + 1]})
    page.locator("#replay-step").evaluate(
        f"e => {{ e.value = '{first_play + 1}'; e.dispatchEvent(new Event('input')); }}"
    )
    page.wait_for_function(f"document.getElementById('replay').dataset.step === '{first_play + 1}'")
    played = moves[first_play].split()[1]
    assert page.locator(f"#replay-felt .trick .card-face[data-card='{played}']").count() == 1
    for seat in range(4):
        assert sorted(hands_shown(page, seat)) == sorted(smear_env.format_card(c) for c in game.hand(seat))
    page.keyboard.press("PageDown")  # the next deal
    page.wait_for_function(f"Number(document.getElementById('replay').dataset.step) > {first_play + 1}")
    page.keyboard.press("End")
    page.wait_for_function(f"document.getElementById('replay').dataset.step === '{len(moves)}'")
    final = smear_env.replay(record)
    assert shown_scores(page, "#replay-scoreboard") == list(final.scores)
    assert page.locator("#replay-results details").count() == len(final.hand_results)
    assert page.get_by_role("button", name="Forward ▶").is_disabled()
    page.keyboard.press("Home")
    page.wait_for_function("document.getElementById('replay').dataset.step === '0'")


def test_the_replay_viewer_plays_back_bohemian_schneider_and_refuses_a_broken_record(
    page: Any, http: httpx.Client, tmp_path: Path
) -> None:
    record = bots_record(http, "bohemian_schneider")
    good, broken = tmp_path / "schneider.json", tmp_path / "broken.json"
    good.write_text(json.dumps(record))
    broken.write_text(json.dumps(record | {"moves": record["moves"][:3] + ["play ZZ"]}))
    page.get_by_role("button", name="Replay viewer").click()
    chooser = page.get_by_label("Open a record file (JSON)")
    chooser.set_input_files(str(good))
    page.wait_for_function("document.getElementById('replay').dataset.step === '0'")
    pile = record["deals"][0]["pile"].split()
    shown_pile = page.eval_on_selector_all("#replay-hands .undealt .card-face", "ns => ns.map(n => n.dataset.card)")
    assert shown_pile == pile
    page.keyboard.press("End")
    page.wait_for_function(f"document.getElementById('replay').dataset.step === '{len(record['moves'])}'")
    assert shown_scores(page, "#replay-scoreboard") == list(smear_env.replay(record).scores)
    chooser.set_input_files(str(broken))
    page.wait_for_function("document.getElementById('replay-error').textContent.includes('record move 4')")
    assert replay_step(page) == len(record["moves"])  # the record on show stays


# ---------------------------------------------------------------------- the form, accessibility, the screenshot
def test_bad_house_rules_show_the_servers_refusal_and_open_no_table(page: Any, http: httpx.Client) -> None:
    tables = http.get("/v1/health").json()["tables"]
    page.get_by_label("Preset").select_option("ten_point")
    page.get_by_label("More options").fill("target_score=0")
    page.get_by_role("button", name="New game").click()
    alert = page.locator("#setup-error")
    page.wait_for_function("document.getElementById('setup-error').textContent.includes('target_score')")
    assert alert.get_attribute("role") == "alert"
    page.get_by_label("More options").fill("no_such_option=3")
    page.get_by_role("button", name="New game").click()
    page.wait_for_function("document.getElementById('setup-error').textContent.includes('no_such_option')")
    page.get_by_label("More options").fill("target score 3")
    page.get_by_role("button", name="New game").click()
    assert "expected option=value" in alert.inner_text()
    assert http.get("/v1/health").json()["tables"] == tables
    assert page.locator("#table").get_attribute("data-version") == "-1"


def test_landmarks_headings_and_the_live_region_announcing_bots_moves(page: Any, http: httpx.Client) -> None:
    for role in ("banner", "main", "complementary", "navigation"):
        assert page.get_by_role(role).count() >= 1, role
    assert page.get_by_role("heading", level=1).inner_text() == "Smear table"
    assert page.get_by_role("combobox", name="Preset").is_visible()
    live = page.locator("[aria-live='polite']#announcer")
    table = start_game(page, "minnesota", "target_score=3", seat="3", seed=8)  # seat 3 bids last: bots go first
    page.wait_for_function("document.getElementById('announcer').textContent.includes('Your turn')")
    state = api_state(http, table)
    # the live region holds the moves since the previous state: however the bots' states were batched, the
    # newest bot move is among them
    newest = [entry for entry in state["log"] if entry["seat"] != 3][-1]
    assert f"Seat {newest['seat']}" in live.inner_text() and "Your turn" in live.inner_text()
    assert page.get_by_role("button", name="pass", exact=True).is_enabled()
    # every card: its suit by symbol in the picture, and by word for a screen reader
    for card in page.locator("#hand .card").all():
        assert re.search(r" of (spades|hearts|diamonds|clubs)$|joker$", card.get_attribute("aria-label"))
        assert re.search("[♠♥♦♣★]", card.inner_text())


def test_a_screenshot_of_a_hand_in_play(page: Any, http: httpx.Client, tmp_path: Path) -> None:
    """The picture docs/web.md shows: a minnesota hand in trick play, a scored hand beside it."""
    table = start_game(page, "minnesota", "", seed=4)
    rng = random.Random(4)
    for _ in range(MAX_TURNS):
        wait_for_turn(page)
        state = checked_turn(page, http, table)
        if state["hand_results"] and state["view"]["phase"] == "play" and len(state["view"]["trick"]) >= 2:
            break
        move = choose(rng, state["legal_moves"])
        page.get_by_role("button", name=move, exact=True).click()
        wait_past(page, state["version"])
    else:
        raise AssertionError("no turn with two cards on the table after a scored hand")
    page.evaluate("window.scrollTo(0, 0)")
    target = Path(os.environ.get("SMEAR_WEB_SCREENSHOT") or tmp_path / "web_table.png")
    page.screenshot(path=str(target))
    header = target.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", header[16:24]) == (VIEWPORT["width"], VIEWPORT["height"])
