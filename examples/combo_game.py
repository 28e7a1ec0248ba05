"""Play a whole Castle Combo game with the invented sample deck through the referee: three
players who each buy the dearest card they can afford (else take one face down), then the
exact end scores and the winner. Every action goes through `models.combo.apply`, as
`castell combo play` does."""

from __future__ import annotations

from models.combo import Take, apply, final_scores, legal_actions, load_deck, new_game, price


def main() -> None:
    deck = load_deck()
    state = new_game(deck, ["Ana", "Ben", "Cem"], seed=7)
    while not state.now.game_over:
        player = state.now.player
        takes = [a for a in legal_actions(state) if isinstance(a, Take)]
        bought = [a for a in takes if not a.face_down]
        if bought:
            pick = max(bought, key=lambda a: price(player, deck, deck.card(a.card)))
        else:
            pick = takes[0]
        state = apply(state, pick)
        print(f"{player.name:>4}: {pick}")
    scores, winners = final_scores(state)
    for score in scores:
        player = next(p for p in state.now.players if p.name == score.player)
        print(f"{score.player}: {player.grid()}  {score.sheet.total} points "
              f"(keys {score.sheet.keys}, purses {score.sheet.purses}, "
              f"gold left {score.sheet.gold_left})")
    print("winner:", ", ".join(winners))


if __name__ == "__main__":
    main()
