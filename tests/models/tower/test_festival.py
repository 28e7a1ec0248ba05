from models.tower import STANDARD, VARIANTS, Festival, Tower


def test_score_is_height_plus_matching_castellers() -> None:
    tower = Tower.parse("9,9,9,9/7,7,7/6,6/3")
    festival = Festival.parse("6,3")
    # 4 levels + two 6s + one 3
    assert festival.matches(tower) == 3
    assert festival.score(tower) == 7
    assert festival.eligible(tower)


def test_a_casteller_counts_once_even_if_two_tokens_share_its_size() -> None:
    tower = Tower.parse("9,9,9,9/7,7,7/6,6/3")
    assert Festival.parse("6,6").score(tower) == 4 + 2


def test_eligibility_needs_height_and_every_token_size() -> None:
    short = Tower.parse("9,9,9/6,6/3")
    assert Festival.parse("6").shortfalls(short) == [
        f"the tower has 3 levels; festivals need {STANDARD.festival_min_levels}"
    ]
    tall = Tower.parse("9,9,9,9/7,7,7/6,6/3")
    assert not Festival.parse("5,6").eligible(tall)
    assert "size 5" in Festival.parse("5,6").shortfalls(tall)[0]


def test_festival_minimum_is_a_rules_field() -> None:
    from dataclasses import replace

    tower = Tower.parse("9,9,9/6,6/3")
    relaxed = replace(VARIANTS["standard"], festival_min_levels=3)
    assert Festival.parse("6").eligible(tower, relaxed)
    assert not Festival.parse("6").eligible(tower, STANDARD)
