use super::*;

/// A game at a small fixed depth, begun, with its opening output.
fn game(fen: &str, human: Color) -> (ConsoleGame, String) {
    let pos = Position::parse(fen).expect("test position");
    let mut game = ConsoleGame::new(
        pos,
        Some(human),
        Think::Depth(3),
        ConsoleGame::default_engine().unwrap(),
    );
    let mut out = Vec::new();
    game.begin(&mut out).expect("write to a Vec");
    (game, String::from_utf8_lossy(&out).into_owned())
}

/// Feeds lines, returning the output and whether the last line quit.
fn feed(game: &mut ConsoleGame, lines: &[&str]) -> (String, Flow) {
    let mut out = Vec::new();
    let mut flow = Flow::Continue;
    for line in lines {
        flow = game.handle(line, &mut out).expect("write to a Vec");
    }
    (String::from_utf8_lossy(&out).into_owned(), flow)
}

const START: &str = "W:W21-32:B1-12";

#[test]
fn begins_with_board_and_prompt() {
    let (g, text) = game(START, Color::White);
    assert!(text.contains("You play White"), "{text}");
    assert!(
        text.contains("|  b       b       b       b     |"),
        "{text}"
    );
    assert!(text.contains("White to move. Legal moves:"), "{text}");
    assert!(
        text.contains("21-17 21-18 22-18 22-19 23-19 23-20 24-20"),
        "{text}"
    );
    assert!(text.ends_with("Your move> "), "{text}");
    assert_eq!(g.position(), Position::start());
}

#[test]
fn move_gets_a_reply_with_analysis() {
    let (mut g, _) = game(START, Color::White);
    let (text, flow) = feed(&mut g, &["22-19"]);
    assert_eq!(flow, Flow::Continue);
    assert_eq!(g.move_texts().len(), 2, "{text}");
    assert_eq!(g.move_texts()[0], "22-19");
    assert!(text.contains("Thinking for Black"), "{text}");
    assert!(text.contains("depth  3"), "{text}");
    assert!(text.lines().all(|l| l.len() <= 80), "{text}");
    assert!(text.contains("Damiera plays "), "{text}");
    assert!(text.contains("Last move: White 22-19"), "{text}");
    assert!(text.ends_with("Your move> "), "{text}");
}

#[test]
fn illegal_and_malformed_moves_keep_the_game() {
    let (mut g, _) = game(START, Color::White);
    let (text, _) = feed(&mut g, &["1-5", "22-99", "22x"]);
    assert!(
        text.contains("Illegal move \"1-5\"; legal moves: 21-17"),
        "{text}"
    );
    assert!(text.contains("\"99\" is not a square"), "{text}");
    assert!(text.contains("Bad move \"22x\""), "{text}");
    assert!(g.move_texts().is_empty());
    assert_eq!(g.position(), Position::start());
}

#[test]
fn undo_takes_back_the_pair() {
    let (mut g, _) = game(START, Color::White);
    let (text, _) = feed(&mut g, &["undo"]);
    assert!(text.contains("Nothing to take back"), "{text}");
    let (text, _) = feed(&mut g, &["22-19", "undo"]);
    assert!(text.contains("Took back 2 move(s)"), "{text}");
    assert_eq!(g.position(), Position::start());
}

#[test]
fn flip_turns_the_board() {
    let (mut g, _) = game(START, Color::White);
    let (text, _) = feed(&mut g, &["flip"]);
    let board: Vec<&str> = text.lines().filter(|l| l.starts_with("    |")).collect();
    assert!(board[0].contains("  w "), "{text}");
    assert!(board[7].contains("  b "), "{text}");
    assert!(text.contains("White (you, 12 pieces)"), "{text}");
    let (text, _) = feed(&mut g, &["flip"]);
    let board: Vec<&str> = text.lines().filter(|l| l.starts_with("    |")).collect();
    assert!(board[0].contains("  b "), "{text}");
}

#[test]
fn playing_black_the_engine_starts_and_the_board_is_turned() {
    let (g, text) = game(START, Color::Black);
    assert_eq!(g.position().side_to_move(), Color::Black, "{text}");
    assert!(text.contains("Damiera plays "), "{text}");
    let board: Vec<&str> = text.lines().filter(|l| l.starts_with("    |")).collect();
    let last = board.last().copied().unwrap_or_default();
    assert!(last.contains("  b "), "{text}");
}

#[test]
fn fen_sets_shows_and_rejects() {
    let (mut g, _) = game(START, Color::White);
    let (text, _) = feed(&mut g, &["fen W:W22:B18", "fen", "fen W:W33:B1"]);
    assert!(text.contains("Position set"), "{text}");
    assert!(text.contains("Position: W:W22:B18"), "{text}");
    assert!(
        text.contains("Cannot set the position: square 33"),
        "{text}"
    );
    assert_eq!(g.position().to_fen(), "W:W22:B18");
    let (_, _) = feed(&mut g, &["fen Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"]);
    assert_eq!(g.position(), Position::start());
}

#[test]
fn capturing_the_last_piece_wins() {
    let (mut g, _) = game("W:W22:B18", Color::White);
    let (text, _) = feed(&mut g, &["22x13"]);
    assert!(
        text.contains("Black has no legal move, White wins. You win!"),
        "{text}"
    );
    assert!(
        text.ends_with("Game over - new, undo, fen, help or quit> "),
        "{text}"
    );
    let (text, _) = feed(&mut g, &["13-9", "hint", "go"]);
    assert_eq!(text.matches("Game over").count(), 6, "{text}");
    assert!(!text.contains("Thinking"), "{text}");
    let (text, _) = feed(&mut g, &["undo"]);
    assert!(text.contains("Took back 1 move(s)"), "{text}");
    assert_eq!(g.position().to_fen(), "W:W22:B18");
}

#[test]
fn repetition_is_a_draw() {
    let (mut g, _) = game("W:WK29:BK4", Color::White);
    for _ in 0..2 {
        for text in ["29-25", "4-8", "25-29", "8-4"] {
            let mv = parse_move(&g.position(), text).expect("legal in the test");
            g.play(mv);
        }
    }
    assert_eq!(
        g.game().verdict(),
        Verdict::Draw(crate::game::DrawReason::Repetition { times: 3 })
    );
    let (text, _) = feed(&mut g, &["board"]);
    assert!(text.contains("draw by repetition (3 times)"), "{text}");
    assert_eq!(g.game().history_keys().len(), 8);
}

#[test]
fn go_swaps_sides() {
    let (mut g, _) = game(START, Color::White);
    let (text, _) = feed(&mut g, &["go"]);
    assert!(text.contains("you now play Black"), "{text}");
    assert_eq!(g.human(), Some(Color::Black));
    assert_eq!(g.move_texts().len(), 1);
    assert!(text.ends_with("Your move> "), "{text}");
}

#[test]
fn hint_time_and_other_commands() {
    let (mut g, _) = game("W:W22:B18", Color::White);
    let (text, _) = feed(&mut g, &["hint", "moves", "help", "board"]);
    assert!(text.contains("Hint: 22x13 (win in 1)."), "{text}");
    assert!(text.contains("Legal moves:\n  22x13"), "{text}");
    assert!(text.contains("take back your last move"), "{text}");
    let unprompted = |l: &str| l.split_once("> ").map_or(l, |(_, r)| r).len();
    assert!(text.lines().all(|l| unprompted(l) <= 80), "{text}");
    assert!(text.contains("White (you, 1 piece)"), "{text}");
    let (text, _) = feed(
        &mut g,
        &["time 0", "time abc", "time 0.5", "time", "dance", ""],
    );
    assert!(
        text.contains("time \"0\" is not a number of seconds"),
        "{text}"
    );
    assert!(text.contains("time \"abc\" is not"), "{text}");
    assert!(
        text.contains("The engine now thinks 0.5 s a move."),
        "{text}"
    );
    assert!(text.contains("Unknown command \"dance\""), "{text}");
    assert_eq!(g.think, Think::Time(0.5));
    let (text, flow) = feed(&mut g, &["QUIT"]);
    assert_eq!(flow, Flow::Quit);
    assert!(text.contains("Goodbye"), "{text}");
}

#[test]
fn new_restarts() {
    let (mut g, _) = game("W:W22:B18", Color::White);
    let (text, _) = feed(&mut g, &["new"]);
    assert!(text.contains("New game"), "{text}");
    assert_eq!(g.position(), Position::start());
}

#[test]
fn input_lines_end_cleanly() {
    let (mut g, _) = game(START, Color::White);
    let input: &[u8] = b"\xff\xfe\nmoves\n";
    let mut out = Vec::new();
    play_lines(&mut g, input, &mut out).expect("write to a Vec");
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("Unknown command"), "{text}");
    assert!(text.ends_with("End of input. Goodbye.\n"), "{text}");
}

#[test]
fn scores_and_variations_read_well() {
    use crate::search::score::WIN;
    assert_eq!(score::text(25), "+0.25");
    assert_eq!(score::text(-100), "-1.00");
    assert_eq!(score::text(WIN - 7), "win in 7");
    assert_eq!(score::text(-(WIN - 4)), "loss in 4");
    let pos = Position::start();
    let a = parse_move(&pos, "22-19").expect("legal");
    let b = parse_move(&pos.play(a), "11-15").expect("legal");
    assert_eq!(
        crate::movegen::line_words(&pos, &[a, b, a], 9),
        ["22-19", "11-15"]
    );
    assert_eq!(parse_seconds("2"), Ok(2.0));
    assert!(parse_seconds("-1").is_err() && parse_seconds("inf").is_err());
}

#[test]
fn hint_shows_the_top_three_moves() {
    let (mut g, _) = game(START, Color::White);
    let (text, _) = feed(&mut g, &["hint"]);
    let hint = text
        .lines()
        .find_map(|l| l.strip_prefix("Hint: "))
        .unwrap_or_else(|| panic!("{text}"));
    let best = hint.split(' ').next().unwrap_or("");
    let ranked: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "Best moves:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert_eq!(ranked.len(), 3, "{text}");
    let firsts: Vec<&str> = ranked
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap_or(""))
        .collect();
    assert_eq!(firsts[0], best, "{text}");
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert!(ranked.iter().all(|l| l.len() <= 80), "{text}");
    // With one legal move there is one line: no list.
    let (mut g, _) = game("W:W22:B18", Color::White);
    let (text, _) = feed(&mut g, &["hint"]);
    assert!(!text.contains("Best moves:"), "{text}");
}

#[test]
fn resign_ends_the_game_until_undo_or_new() {
    let (mut g, _) = game(START, Color::White);
    let (text, _) = feed(&mut g, &["resign"]);
    assert!(
        text.contains("Game over: White resigns, Black wins. Damiera wins."),
        "{text}"
    );
    assert_eq!(g.agreed(), Some(Agreed::Resigned(Color::White)));
    let (text, _) = feed(&mut g, &["22-19"]);
    assert!(text.contains("Game over"), "{text}");
    assert_eq!(g.game().plies(), 0, "no move after a resignation");
    let (_, _) = feed(&mut g, &["new"]);
    assert_eq!(g.agreed(), None);
}

#[test]
fn draw_offers_follow_the_engines_score() {
    // White (the person) has a lone king against three black kings: Black (Damiera)
    // wins and declines.
    let (mut g, _) = game("W:WK29:BK1,K2,K3", Color::White);
    let (text, _) = feed(&mut g, &["draw"]);
    assert!(text.contains("Damiera declines the draw"), "{text}");
    assert_eq!(g.agreed(), None);
    // The person has three kings against one: Damiera accepts at once.
    let (mut g, _) = game("W:WK29,K30,K31:BK1", Color::White);
    let (text, _) = feed(&mut g, &["draw"]);
    assert!(text.contains("Damiera accepts the draw"), "{text}");
    assert!(text.contains("Game over: draw agreed."), "{text}");
    assert_eq!(g.agreed(), Some(Agreed::Draw));
    assert!(crate::engine::accepts_draw(0) && crate::engine::accepts_draw(-300));
    assert!(!crate::engine::accepts_draw(
        crate::engine::DRAW_ACCEPT_MAX + 1
    ));
}

#[test]
fn russian_game_takes_algebraic_moves() {
    let start = Position::start_of(Variant::Russian);
    let mut g = ConsoleGame::new(
        start,
        Some(Color::White),
        Think::Depth(2),
        ConsoleGame::default_engine().unwrap(),
    );
    let mut out = Vec::new();
    g.begin(&mut out).expect("write to a Vec");
    let text = String::from_utf8_lossy(&out).into_owned();
    assert!(text.contains("Russian draughts"), "{text}");
    assert!(text.contains("c3-d4") && text.contains("g3-h4"), "{text}");
    let (text, _) = feed(&mut g, &["c3-d4"]);
    assert_eq!(g.move_texts()[0], "c3-d4", "{text}");
    assert_eq!(g.game().plies(), 2, "{text}");
}

/// Damka under house rules: a declined capture huffs the piece, `count` gives the
/// counted result, and `new` keeps the rules.
#[test]
fn damka_house_rules_in_the_console() {
    use crate::board::HouseRules;
    let house = HouseRules::parse("huffing,count-pieces").unwrap();
    let start = Position::parse_in(Variant::Damka, "W:Wc3,g1,a1:Bd4,b8")
        .unwrap()
        .with_house_rules(house);
    let mut g = ConsoleGame::new(
        start,
        None,
        Think::Depth(2),
        ConsoleGame::default_engine().unwrap(),
    );
    let mut out = Vec::new();
    g.begin(&mut out).expect("write to a Vec");
    let (text, _) = feed(&mut g, &["count"]);
    assert!(text.contains("If the game stopped here: 1-0"), "{text}");
    let (text, _) = feed(&mut g, &["g1-h2"]);
    assert_eq!(g.position().to_fen(), "B:Wa1,h2:Bb8,d4", "{text}");
    let (text, _) = feed(&mut g, &["count"]);
    assert!(text.contains("If the game stopped here: 1/2-1/2"), "{text}");
    feed(&mut g, &["new"]);
    assert_eq!(g.position().house_rules(), house);
    let (mut plain, _) = game(START, Color::White);
    let (text, _) = feed(&mut plain, &["count"]);
    assert!(text.contains("Pieces are not counted"), "{text}");
}
