"""What each caller is shown over HTTP: seat and spectator views, private log lines, listings."""

from __future__ import annotations

import httpx

from tests.api.players import open_match, seated_match

# Face-down, two face-up, Ash (the opener), Bryn, then Ash's draw and the rest of the pile.
LOOKING_ROUND = ["lamp_warden", "lamp_warden", "lamp_warden", "gale", "sootsweep", "lensmaker",
                 "lamp_warden", "lensmaker", "lensmaker", "gale", "veilkeeper", "veilkeeper",
                 "sootsweep", "ferrywoman", "moth_duchess", "hearthflame"]


async def looked(server: str):
    """A practice match in which Ash's Lensmaker has just looked at Bryn's Sootsweep."""
    created, (ash, bryn) = await seated_match(
        server, ["Ash", "Bryn"], practice=True, options={"deal": [LOOKING_ROUND], "opener": 0})
    answer = await ash.send({"type": "play", "card": "lensmaker", "target": 1})
    assert answer.status_code == 200, answer.text
    return created, ash, bryn


async def test_a_lensmaker_note_is_only_in_the_lookers_view_and_log(server):
    """Given Ash's Lensmaker looked at Bryn's card, then only Ash's view and log name it; Bryn,
    the spectator and the public log only see that Ash looked."""
    created, ash, bryn = await looked(server)
    ash_view = await ash.get("/view")
    assert [note["text"] for note in ash_view["board"]["notes"]] == [
        "You saw Bryn's card: Sootsweep"]
    ash_log = (await ash.get("/log"))["entries"]
    private = [line["text"] for line in ash_log if line["private"]]
    assert any("Sootsweep" in text for text in private)
    bryn_log = (await bryn.get("/log"))["entries"]
    assert not any("saw" in line["text"] for line in bryn_log)
    assert not any("Sootsweep" in line["text"] for line in bryn_log if not line["private"])
    async with httpx.AsyncClient(base_url=server) as client:
        public = (await client.get(f"/matches/{created['match_id']}/log")).json()["entries"]
        spectator = (await client.get(f"/matches/{created['match_id']}/view")).json()
    assert public and not any(line["private"] for line in public)
    assert any("Lensmaker" in line["text"] for line in public)
    assert not any("Sootsweep" in line["text"] for line in public)
    assert spectator["seat"] is None
    assert spectator["board"]["hand"] == [] and spectator["board"]["notes"] == []
    assert spectator["board"]["legal_actions"] == []


async def test_each_seat_sees_its_own_hand_and_only_its_turn_has_actions(server):
    """Given Bryn to act after Ash's Lensmaker, then Bryn sees two cards and actions, Ash sees
    one card and none, and every other seat shows only a count of cards."""
    _created, ash, bryn = await looked(server)
    bryn_view, ash_view = await bryn.get("/view"), await ash.get("/view")
    assert sorted(bryn_view["board"]["hand"]) == ["lamp_warden", "sootsweep"]
    assert ash_view["board"]["hand"] == ["gale"]
    assert (await ash.get("/legal-actions"))["actions"] == []
    assert (await bryn.get("/legal-actions"))["actions"]
    assert [s["cards_in_hand"] for s in ash_view["board"]["seats"]] == [1, 2]
    assert [s["you"] for s in ash_view["board"]["seats"]] == [True, False]


async def test_the_log_pages_by_version(server):
    """Given a log, when asked for entries after a version, then only later ones come back."""
    _created, ash, _bryn = await looked(server)
    everything = await ash.get("/log")
    later = await ash.get("/log", after=everything["version"] - 1)
    assert later["entries"] == [e for e in everything["entries"]
                                if e["version"] == everything["version"]]
    assert (await ash.get("/log", after=everything["version"]))["entries"] == []


async def test_the_catalogue_and_match_listings_filter_and_page(server):
    """Given matches in a tournament, then listings filter by tournament, game and status, and
    page with next_offset; the catalogue describes Wick & Ember's seats and options."""
    for _ in range(3):
        await open_match(server, 3, tournament="spring-cup", label="table")
    async with httpx.AsyncClient(base_url=server) as client:
        games = (await client.get("/games")).json()["games"]
        cup = (await client.get("/matches", params={"tournament": "spring-cup"})).json()
        page = (await client.get("/matches", params={"tournament": "spring-cup",
                                                     "limit": 2})).json()
        rest = (await client.get("/matches", params={"tournament": "spring-cup", "limit": 2,
                                                     "offset": page["next_offset"]})).json()
        lobby = (await client.get("/matches", params={"tournament": "spring-cup",
                                                      "status": "lobby",
                                                      "game": "wick-and-ember"})).json()
        finished = (await client.get("/matches", params={"tournament": "spring-cup",
                                                         "status": "finished"})).json()
        bad = await client.get("/matches", params={"status": "sleeping"})
    wick = next(game for game in games if game["id"] == "wick-and-ember")
    assert (wick["min_seats"], wick["max_seats"]) == (2, 6)
    options = wick["options"]["$defs"]["Options"]["properties"]
    assert {"deck", "match_length", "ember_target", "deal", "opener"} <= set(options)
    assert len(cup["matches"]) == 3 and cup["next_offset"] is None
    assert len(page["matches"]) == 2 and page["next_offset"] == 2
    assert len(rest["matches"]) == 1
    assert len(lobby["matches"]) == 3 and finished["matches"] == []
    assert bad.status_code == 400
    assert all(m["seed_commitment"] and m["server_seed"] is None for m in cup["matches"])


async def test_each_legal_action_comes_with_a_label_naming_it_for_the_seat(server):
    """Given Bryn to act holding a Lamp Warden and a Sootsweep, then each legal action carries a
    label in words (cards by title, seats by name), one label per action."""
    _created, _ash, bryn = await looked(server)
    actions = (await bryn.get("/legal-actions"))["actions"]
    labels = {action["label"]: action["command"] for action in actions}
    assert len(labels) == len(actions)
    assert labels["Play Sootsweep on Ash"] == {
        "type": "play", "card": "sootsweep", "target": 0, "guess": None}
    assert labels["Play Lamp Warden on Ash, guessing Gale"] == {
        "type": "play", "card": "lamp_warden", "target": 0, "guess": "gale"}
    assert all(label.startswith(("Play Lamp Warden", "Play Sootsweep")) for label in labels)


async def test_a_game_of_the_catalogue_carries_its_commands_view_and_rules_versions(server):
    """Given GET /games/{game}, then it answers the JSON Schemas of the game's commands (a union
    tagged by type) and view, and the rules versions this server replays."""
    async with httpx.AsyncClient(base_url=server) as client:
        wick = (await client.get("/games/wick-and-ember")).json()
        road = (await client.get("/games/whiteout-road")).json()
    assert wick["rules_versions"][-1] == wick["rules_version"]
    assert set(wick["commands"]["discriminator"]["mapping"]) == {"play", "concede"}
    assert set(road["commands"]["discriminator"]["mapping"]) == {"commit", "concede"}
    assert "WickEmberView" in wick["view"]["$defs"] and "WhiteoutView" in road["view"]["$defs"]
