"""Place hidden cards into slots with capacities, each card only where it may go: an exact transport solver.

Rebuilding a seat's information state means finding *some* deal of the cards the
seat has not seen that fits everything it saw: each card has the set of places it
may be (a seat's hand, a seat's discards, the cards nobody took), and each place
holds a known number of cards. That is a bipartite b-matching. Cards with the same
set of allowed places are interchangeable, so they are grouped (a few groups instead
of up to 54 cards, as bit masks), then a maximum flow from groups to places decides
it exactly: a placement exists if and only if the flow places every card (no random
retries, no guess).
"""

from __future__ import annotations

from collections import deque


def group_cards(cards: int, forbidden: list[int]) -> dict[int, int]:
    """Split the card mask ``cards`` by where each card may go: allowed-slot mask -> the cards sharing it.

    ``forbidden[j]`` is the mask of cards slot ``j`` may not take. Cards are split
    with one mask operation per slot and group, never one by one.
    """
    groups = {(1 << len(forbidden)) - 1: cards} if cards else {}
    for slot, banned in enumerate(forbidden):
        if not banned:
            continue
        split: dict[int, int] = {}
        for allowed, members in groups.items():
            inside, outside = members & banned, members & ~banned
            if inside:
                key = allowed & ~(1 << slot)
                split[key] = split.get(key, 0) | inside
            if outside:
                split[allowed] = split.get(allowed, 0) | outside
        groups = split
    return groups


def assign(groups: dict[int, int], capacities: list[int]) -> list[int] | None:
    """The cards of each slot (as masks), or None when no placement fills every slot exactly.

    ``groups`` maps an allowed-slot mask (bit ``j``: slot ``j``) to the cards that may go
    to those slots (a card mask); ``capacities[j]`` is how many cards slot ``j`` holds.
    Every card must be placed and the capacities must add up to the number of cards.
    Deterministic: each group's cards are dealt out in ascending order.
    """
    masks = list(groups)
    supply = [groups[m].bit_count() for m in masks]
    if sum(capacities) != sum(supply) or min(capacities, default=0) < 0:
        return None
    flow = transport(supply, masks, capacities)
    if flow is None:
        return None
    slots = [0] * len(capacities)
    for g, mask in enumerate(masks):
        cards = groups[mask]
        for slot, amount in enumerate(flow[g]):
            for _ in range(amount):
                low = cards & -cards
                slots[slot] |= low
                cards ^= low
    return slots


def transport(supply: list[int], allowed: list[int], capacities: list[int]) -> list[list[int]] | None:
    """Amounts ``flow[g][s]`` moving every group's supply to allowed slots within capacities, or None.

    A greedy start (most constrained groups first), then augmenting paths through
    the residual graph (group -> allowed slot, slot -> a group already using it)
    for whatever the greedy start could not place: the usual maximum-flow argument
    makes the answer exact.
    """
    num_slots = len(capacities)
    room = list(capacities)
    flow = [[0] * num_slots for _ in supply]
    left = list(supply)
    for g in sorted(range(len(supply)), key=lambda g: allowed[g].bit_count()):
        for s in range(num_slots):
            if left[g] and allowed[g] >> s & 1 and room[s]:
                amount = min(left[g], room[s])
                flow[g][s] += amount
                room[s] -= amount
                left[g] -= amount
    for g in range(len(supply)):
        while left[g]:
            path = _augmenting_path(g, allowed, flow, room)
            if path is None:
                return None
            _push(path, left, flow, room)
    return flow


def _augmenting_path(start: int, allowed: list[int], flow: list[list[int]], room: list[int]) -> list[int] | None:
    """Alternating path group, slot, group, slot, ... from ``start`` to a slot with room (BFS), as node ids.

    Groups are ids ``0..G-1``, slots ``G..G+S-1``.
    """
    num_groups, num_slots = len(allowed), len(room)
    parent: dict[int, int] = {start: -1}
    queue = deque([start])
    while queue:
        g = queue.popleft()
        for s in range(num_slots):
            node = num_groups + s
            if not allowed[g] >> s & 1 or node in parent:
                continue
            parent[node] = g
            if room[s]:
                path = [node]
                while parent[path[-1]] != -1:
                    path.append(parent[path[-1]])
                return path[::-1]
            for other in range(num_groups):  # a group already in this slot may move elsewhere
                if flow[other][s] and other not in parent:
                    parent[other] = node
                    queue.append(other)
    return None


def _push(path: list[int], left: list[int], flow: list[list[int]], room: list[int]) -> None:
    """Move as much as the path allows: the start group's surplus along group -> slot (forward) and back."""
    num_groups = len(flow)
    amount = min(left[path[0]], room[path[-1] - num_groups])
    for i in range(1, len(path) - 1, 2):  # slot path[i] is given up by group path[i + 1]
        amount = min(amount, flow[path[i + 1]][path[i] - num_groups])
    for i in range(0, len(path) - 1, 2):
        flow[path[i]][path[i + 1] - num_groups] += amount
        if i + 2 < len(path):
            flow[path[i + 2]][path[i + 1] - num_groups] -= amount
    left[path[0]] -= amount
    room[path[-1] - num_groups] -= amount
