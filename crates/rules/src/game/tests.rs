use super::*;
use crate::board::Color;

fn pos(fen: &str) -> Position {
    Position::parse(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn game_of<S: AsRef<str>>(fen: &str, rules: DrawRules, moves: &[S]) -> Game {
    Game::from_texts(pos(fen), rules, moves).unwrap_or_else(|e| panic!("{e}"))
}

/// A white king on 18 and a black king on 3, far apart.
const KINGS: &str = "W:WK18:BK3";

#[test]
fn history_keys_follow_the_last_irreversible_move() {
    let game = game_of(
        "W:W22,K29:B11,K4",
        DrawRules::default(),
        &["29-25", "4-8", "22-18"],
    );
    assert_eq!(game.reversible_plies(), 0, "a man's move resets the run");
    assert!(game.history_keys().is_empty());
    let game = game_of(
        "W:W22,K29:B11,K4",
        DrawRules::default(),
        &["22-18", "4-8", "29-25"],
    );
    assert_eq!(game.reversible_plies(), 2);
    let keys = game.history_keys();
    assert_eq!(
        keys,
        vec![game.positions()[1].key(), game.positions()[2].key()]
    );
}

#[test]
fn repetition_draws_at_the_third_occurrence() {
    let shuffle = ["29-25", "4-8", "25-29", "8-4"];
    let mut game = game_of::<&str>("W:WK29:BK4", DrawRules::default(), &[]);
    for (i, text) in shuffle.iter().cycle().take(8).enumerate() {
        assert_eq!(game.verdict(), Verdict::Ongoing, "before ply {}", i + 1);
        game.play_text(text).unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(
        game.verdict(),
        Verdict::Draw(DrawReason::Repetition { times: 3 })
    );
    assert_eq!(game.verdict_at(4), Verdict::Ongoing, "twice is not enough");
    let twice = DrawRules {
        repetitions: Some(2),
        ..DrawRules::default()
    };
    game.set_rules(twice);
    assert_eq!(
        game.verdict_at(4),
        Verdict::Draw(DrawReason::Repetition { times: 2 })
    );
    game.set_rules(DrawRules::OFF);
    assert_eq!(game.verdict(), Verdict::Ongoing);
}

/// `plies` king moves from [`KINGS`] with no position occurring three times within 96
/// plies: White's king goes round a 6-square loop and Black's round an 8-square loop,
/// never near each other, so a position comes back only every 24 moves of each side.
fn quiet_walk(plies: usize) -> Vec<String> {
    let white = [18, 22, 26, 29, 25, 21];
    let black = [3, 7, 12, 16, 20, 15, 11, 6];
    let step =
        |lap: &[u8], i: usize| format!("{}-{}", lap[i % lap.len()], lap[(i + 1) % lap.len()]);
    (0..plies)
        .map(|i| {
            if i % 2 == 0 {
                step(&white, i / 2)
            } else {
                step(&black, i / 2)
            }
        })
        .collect()
}

#[test]
fn forty_moves_each_draw_at_ply_eighty() {
    let game = game_of(KINGS, DrawRules::default(), &quiet_walk(80));
    for ply in 0..80 {
        assert_eq!(game.verdict_at(ply), Verdict::Ongoing, "ply {ply}");
    }
    assert_eq!(
        game.verdict(),
        Verdict::Draw(DrawReason::QuietMoves { moves: 40 })
    );
    assert_eq!(game.reversible_plies(), 80);
    let off = game_of(KINGS, DrawRules::OFF, &quiet_walk(80));
    assert_eq!(off.verdict(), Verdict::Ongoing);
    let short = DrawRules::OFF.with_quiet_moves(3);
    let game = game_of(KINGS, short, &quiet_walk(6));
    assert_eq!(game.verdict_at(5), Verdict::Ongoing);
    assert_eq!(
        game.verdict(),
        Verdict::Draw(DrawReason::QuietMoves { moves: 3 })
    );
}

#[test]
fn no_legal_move_loses_before_any_draw() {
    // White takes Black's last piece.
    let game = game_of("W:W10:B6", DrawRules::default(), &["10x3"]);
    assert_eq!(
        game.verdict(),
        Verdict::Win(Color::White, WinReason::NoLegalMove)
    );
    // A blocked Black man on 1 (White men on 5 and 10, Black to move).
    let blocked = game_of::<&str>("B:W5,10,K32:B1", DrawRules::OFF.with_quiet_moves(1), &[]);
    assert_eq!(
        blocked.verdict(),
        Verdict::Win(Color::White, WinReason::NoLegalMove)
    );
}

#[test]
fn undo_truncate_and_bad_moves() {
    let mut game = game_of(KINGS, DrawRules::default(), &quiet_walk(5));
    assert_eq!(game.undo().map(|m| m.to().number()), Some(29));
    game.truncate(2);
    assert_eq!(game.plies(), 2);
    assert_eq!(game.positions().len(), 3);
    game.truncate(10);
    assert_eq!(game.plies(), 2);
    let err = Game::from_texts(Position::start(), DrawRules::default(), &["22-19", "22-19"]);
    let err = err.err().unwrap_or_default();
    assert!(err.starts_with("move 2: illegal move"), "{err}");
    assert!(Game::new(Position::start()).play_text("1-5").is_err());
}

/// A Russian or Brazilian game from `fen` through `moves` under its variant's rules.
fn variant_game(variant: crate::board::Variant, fen: &str, moves: &[&str]) -> Game {
    let start = Position::parse_in(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut game = Game::new(start);
    for text in moves {
        game.play_text(text)
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", game.position().to_fen()));
    }
    game
}

/// `n` quiet moves each shuffling a strong king between two squares and the lone king
/// between two others (every position new enough: the repetition rule is off below).
fn shuffle(strong: [&'static str; 2], lone: [&'static str; 2], n: usize) -> Vec<&'static str> {
    let texts = [strong[0], lone[0], strong[1], lone[1]];
    texts.iter().copied().cycle().take(2 * n).collect()
}

#[test]
fn each_variant_plays_under_its_federations_rules() {
    use crate::board::Variant;
    assert_eq!(Game::new(Position::start()).rules(), DrawRules::default());
    let english = Game::new(Position::start_of(Variant::English)).rules();
    assert_eq!(english.quiet_moves, Some(40));
    let russian = DrawRules::for_variant(Variant::Russian);
    assert_eq!(
        (russian.quiet_moves, russian.endings),
        (Some(15), Endings::Russian)
    );
    let brazilian = DrawRules::for_variant(Variant::Brazilian);
    assert_eq!(
        (brazilian.quiet_moves, brazilian.endings),
        (Some(25), Endings::Fmjd)
    );
}

#[test]
fn russian_three_kings_against_one_draw_after_fifteen_moves_each() {
    use crate::board::Variant;
    // White kings a1, c1, e1 against the black king g1 (on the edge, out of reach).
    let fen = "W:WKa1,Kc1,Ke1:BKg1";
    let moves = shuffle(["a1-b2", "b2-a1"], ["g1-h2", "h2-g1"], 15);
    let mut game = variant_game(Variant::Russian, fen, &moves[..29]);
    let rules = DrawRules {
        repetitions: None,
        quiet_moves: None,
        ..game.rules()
    };
    game.set_rules(rules);
    assert_eq!(game.verdict(), Verdict::Ongoing, "29 plies");
    game.play_text(moves[29]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        game.verdict(),
        Verdict::Draw(DrawReason::Ending {
            rule: "three kings against one",
            moves: 15
        })
    );
    assert!(
        game.verdict()
            .to_string()
            .starts_with("15-move rule of the ending")
    );
}

#[test]
fn russian_kings_only_moves_draw_after_fifteen_each() {
    use crate::board::Variant;
    let fen = "W:WKa1,a3:BKg1,h8";
    let moves = shuffle(["a1-b2", "b2-a1"], ["g1-h2", "h2-g1"], 15);
    let mut game = variant_game(Variant::Russian, fen, &moves[..29]);
    game.set_rules(DrawRules {
        repetitions: None,
        ..game.rules()
    });
    assert_eq!(game.verdict(), Verdict::Ongoing);
    game.play_text(moves[29]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        game.verdict(),
        Verdict::Draw(DrawReason::QuietMoves { moves: 15 })
    );
}

#[test]
fn brazilian_small_endings_draw_after_five_and_sixteen_moves() {
    use crate::board::Variant;
    let quiet_off = |game: &mut Game| {
        game.set_rules(DrawRules {
            repetitions: None,
            quiet_moves: None,
            ..game.rules()
        })
    };
    let two = shuffle(["a1-b2", "b2-a1"], ["g1-h2", "h2-g1"], 5);
    let mut game = variant_game(Variant::Brazilian, "W:WKa1,Kc1:BKg1", &two[..9]);
    quiet_off(&mut game);
    assert_eq!(game.verdict(), Verdict::Ongoing);
    game.play_text(two[9]).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(
        game.verdict(),
        Verdict::Draw(DrawReason::Ending { moves: 5, .. })
    ));
    let three = shuffle(["a1-b2", "b2-a1"], ["g1-h2", "h2-g1"], 16);
    let mut game = variant_game(Variant::Brazilian, "W:WKa1,Kc1,Ke1:BKg1", &three[..31]);
    quiet_off(&mut game);
    assert_eq!(game.verdict(), Verdict::Ongoing);
    game.play_text(three[31]).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(
        game.verdict(),
        Verdict::Draw(DrawReason::Ending { moves: 16, .. })
    ));
    // Italian has no such rule: the same material shuffles on.
    let italian = game_of(
        "W:WK29,K30,K31:BK4",
        DrawRules::OFF,
        &shuffle(["29-25", "25-29"], ["4-8", "8-4"], 16),
    );
    assert_eq!(italian.verdict(), Verdict::Ongoing);
}

/// Damka: one or two kings against a lone king cannot be won and is drawn as it stands,
/// but not while a capture is to be made (a king left en prise is lost); three kings,
/// or a king and a man, play on.
#[test]
fn damka_two_kings_against_one_is_drawn_at_once() {
    use crate::board::Variant;
    let rule = DrawReason::Ending {
        rule: "one or two kings against a lone king",
        moves: 0,
    };
    for fen in ["W:WKa1,Kc1:BKg1", "B:WKa1:BKg1", "B:WKa1:BKh2,Kb8"] {
        let game = variant_game(Variant::Damka, fen, &[]);
        assert_eq!(game.verdict(), Verdict::Draw(rule), "{fen}");
    }
    assert_eq!(
        Verdict::Draw(rule).to_string(),
        "drawn ending (one or two kings against a lone king)"
    );
    for fen in [
        "W:WKa1,Kc1,Ke1:BKg1",
        "W:WKa1,c1:BKg1",
        "W:WKa1,Kc1:BKg1,h8",
    ] {
        assert_eq!(
            variant_game(Variant::Damka, fen, &[]).verdict(),
            Verdict::Ongoing,
            "{fen}"
        );
    }
    // The king on c1 can take e3: the ending is not drawn, and the capture wins.
    let game = variant_game(Variant::Damka, "W:WKa1,Kc1:BKe3", &[]);
    assert_eq!(game.verdict(), Verdict::Ongoing);
    let game = variant_game(Variant::Damka, "W:WKa1,Kc1:BKe3", &["c1:f4"]);
    assert!(matches!(game.verdict(), Verdict::Win(Color::White, _)));
    // Taking the last man makes the ending: drawn if the lone king cannot take back.
    let game = variant_game(Variant::Damka, "W:WKa1,Kc1:BKg1,d2", &["c1:h6"]);
    assert_eq!(game.verdict(), Verdict::Draw(rule));
    let game = variant_game(Variant::Damka, "W:WKa1,Kc1:BKg1,d2", &["c1:e3"]);
    assert_eq!(game.verdict(), Verdict::Ongoing, "g1 takes e3");
    // Russian and Brazilian draughts give such endings moves to play.
    let russian = variant_game(Variant::Russian, "W:WKa1,Kc1:BKg1", &[]);
    assert_eq!(russian.verdict(), Verdict::Ongoing);
}

/// Damka: 50 moves each without a capture draw (Russian draughts: 15 of kings only), men's
/// moves included.
#[test]
fn damka_fifty_moves_each_without_a_capture_draw() {
    use crate::board::Variant;
    let rules = DrawRules::for_variant(Variant::Damka);
    assert_eq!(
        (rules.repetitions, rules.quiet_moves, rules.endings),
        (Some(3), Some(50), Endings::Damka)
    );
    let fen = "W:WKa1,a3:BKg1,h8";
    let moves = shuffle(["a1-b2", "b2-a1"], ["g1-h2", "h2-g1"], 50);
    let mut game = variant_game(Variant::Damka, fen, &moves[..30]);
    game.set_rules(DrawRules {
        repetitions: None,
        ..game.rules()
    });
    assert_eq!(game.verdict(), Verdict::Ongoing, "15 moves each");
    for text in &moves[30..99] {
        game.play_text(text).unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(game.verdict(), Verdict::Ongoing, "99 plies");
    game.play_text(moves[99]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        game.verdict(),
        Verdict::Draw(DrawReason::QuietMoves { moves: 50 })
    );
    // A man's move in the middle restarts the kings' count but not the capture count.
    let mut texts = Vec::new();
    let (mut white_king, mut black_king) = ("a1", "g1");
    for ply in 0..100 {
        if ply % 2 == 1 {
            let to = if black_king == "g1" { "h2" } else { "g1" };
            texts.push(format!("{black_king}-{to}"));
            black_king = to;
        } else if ply == 40 {
            texts.push("a3-b4".to_string());
        } else {
            let to = if white_king == "a1" { "b2" } else { "a1" };
            texts.push(format!("{white_king}-{to}"));
            white_king = to;
        }
    }
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let mut game = variant_game(Variant::Damka, fen, &texts[..1]);
    game.set_rules(DrawRules {
        repetitions: None,
        ..game.rules()
    });
    for text in &texts[1..99] {
        game.play_text(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(game.verdict(), Verdict::Ongoing, "{}", game.moves().len());
    }
    game.play_text(texts[99]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        game.verdict(),
        Verdict::Draw(DrawReason::Ending {
            rule: "any material, no capture",
            moves: 50
        })
    );
    assert_eq!(game.reversible_plies(), 59);
}

/// Damka's `count-pieces` house rule: a game stopped unfinished is counted (more pieces
/// win, kings one each; as many each draw); without the rule it stays unfinished, and a
/// finished game keeps its own verdict.
#[test]
fn count_pieces_decides_an_unfinished_damka_game() {
    use crate::board::{HouseRule, HouseRules, Variant};
    let counted = HouseRules::of(&[HouseRule::CountPieces]);
    let start = |fen: &str, house: HouseRules| {
        Game::new(
            Position::parse_in(Variant::Damka, fen)
                .unwrap_or_else(|e| panic!("{e}"))
                .with_house_rules(house),
        )
    };
    // White has a king and a man, Black two kings and a man: Black wins the count.
    let fen = "W:WKa1,c3:BKh8,Kf8,b8";
    assert_eq!(start(fen, HouseRules::NONE).adjudicated(), Verdict::Ongoing);
    let verdict = start(fen, counted).adjudicated();
    assert_eq!(verdict, Verdict::Win(Color::Black, WinReason::MorePieces));
    assert_eq!(verdict.result(), "0-1");
    assert_eq!(verdict.to_string(), "pieces counted, Black has more");
    let even = start("W:WKa1,c3:BKh8,b8", counted).adjudicated();
    assert_eq!(even, Verdict::Draw(DrawReason::EqualPieces));
    // A game already over keeps its verdict: Black, with more pieces, has no move.
    let over = start("B:Wa1,c1,e1,g1:Bb2,d2,f2,h2,a3", counted);
    assert!(crate::movegen::legal_moves(&over.position()).is_empty());
    assert_eq!(
        over.adjudicated(),
        Verdict::Win(Color::White, WinReason::NoLegalMove)
    );
}
