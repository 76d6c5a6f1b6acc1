//! The engine behind the exported functions: settings, game history, the search state,
//! and the answers to `enginecommand`, `getmove` and `islegal` in safe Rust.

use std::path::PathBuf;
use std::sync::Arc;

use damiera_engine::board::Variant;
use damiera_engine::book::Book;

use damiera_engine::game::Game;
use damiera_engine::movegen::{legal_moves, sort_moves_in};
use damiera_engine::search::eval::embedded_weights_for;
use damiera_engine::search::{EvalStyle, evaluate};
use parking_lot::Mutex;

use crate::board8::{
    Board8x8, CbMove, cb_move, cb_numbering, movelist_entry, read_board, read_cb_fen, write_board,
};
use crate::history;
use crate::settings::{self, Settings, clip};
use crate::think::{self, CB_LOSS, CB_UNKNOWN, Request, SearchState};

/// `get gametype` by default: Italian draughts. `set gametype N` (or the settings file's
/// `gametype=`) chooses any game Damiera plays by its PDN `GameType` (21 English, 22
/// Italian, 23 Pool, 24 Spanish, 25 Russian, 26 Brazilian, 29 Czech, 31 Thai, 42 Damka; CheckerBoard
/// itself names 24 and 29 but has no Thai).
pub const GAMETYPE: i32 = 22;
/// `get protocolversion`.
pub const PROTOCOL_VERSION: i32 = 2;
/// The help page CheckerBoard opens (it looks for it in its `engines` folder).
pub const HELP_FILE: &str = "damiera_cb.htm";
/// Replies are kept below this many bytes (CheckerBoard passes 256-byte buffers for
/// some commands although the API says 1024), except `get movelist`.
pub const SHORT_REPLY: usize = 256;
/// The API's reply buffer.
pub const REPLY_SIZE: usize = 1024;

/// Settings and what was said about them.
struct Config {
    settings: Settings,
    file: Option<PathBuf>,
    dll_dir: Option<PathBuf>,
    problems: Vec<String>,
    gamehist: Option<Game>,
    /// The book last opened: its `bookfile`, the game, and the book (`None`: none).
    book: Option<(String, Variant, Option<Arc<Book>>)>,
}

/// The engine: one per loaded DLL.
pub struct Engine {
    config: Mutex<Config>,
    searcher: Mutex<SearchState>,
}

/// An answer to `enginecommand`: handled (1) or not (0), and the reply text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// 1 when the command was understood and carried out.
    pub handled: bool,
    /// The reply string.
    pub text: String,
}

fn handled(text: impl Into<String>) -> Reply {
    Reply {
        handled: true,
        text: text.into(),
    }
}

fn refused(text: impl Into<String>) -> Reply {
    Reply {
        handled: false,
        text: text.into(),
    }
}

/// Commands of the API that this engine does not implement (no solve mode, no second
/// database kind, no piece limit for the databases): answered `?` with 0, as the API
/// asks.
const UNSUPPORTED: [&str; 5] = [
    "solve",
    "enable_mtc",
    "mtcpath",
    "check_mtc_dir",
    "max_dbpieces",
];

impl Engine {
    /// Reads the settings file beside the library.
    pub fn load() -> Engine {
        let dll_dir = crate::module_dir::dll_dir();
        let file = settings::file_path(dll_dir.as_deref());
        let (settings, problems) = settings::load(file.as_deref());
        Engine::with(settings, file, dll_dir, problems)
    }

    fn with(
        settings: Settings,
        file: Option<PathBuf>,
        dll_dir: Option<PathBuf>,
        problems: Vec<String>,
    ) -> Engine {
        Engine {
            config: Mutex::new(Config {
                settings,
                file,
                dll_dir,
                problems,
                gamehist: None,
                book: None,
            }),
            searcher: Mutex::new(SearchState::default()),
        }
    }

    /// The current settings.
    pub fn settings(&self) -> Settings {
        self.config.lock().settings.clone()
    }

    /// The game played (the `gametype` setting).
    fn variant(&self) -> Variant {
        self.config.lock().settings.variant
    }

    /// Answers one `enginecommand`.
    pub fn command(&self, text: &str) -> Reply {
        let mut words = text.split_whitespace();
        let verb = words.next().unwrap_or("");
        let key = words.next().unwrap_or("");
        let rest = rest_after(text, 2);
        match (verb, key) {
            ("name", "") => handled(name()),
            ("about", "") => handled(self.about()),
            ("help", "") => handled(HELP_FILE),
            ("get", "protocolversion") => handled(PROTOCOL_VERSION.to_string()),
            ("get", "gametype") => handled(self.variant().game_type().to_string()),
            ("get", "movelist") => movelist(rest, self.variant()),
            ("set", "gamehist") => self.set_gamehist(rest),
            ("set", "check_wld_dir") => handled(describe_dir(&PathBuf::from(rest.trim()))),
            ("staticevaluation", _) => static_evaluation(rest_after(text, 1), self.variant()),
            ("get", k) if UNSUPPORTED.contains(&k) => refused("?"),
            ("set", k) if UNSUPPORTED.contains(&k) => refused("?"),
            ("get", k) => self.get(k),
            ("set", k) => self.set(k, rest),
            _ => refused("?"),
        }
    }

    fn about(&self) -> String {
        let config = self.config.lock();
        let db = match config.settings.db_dir(config.dll_dir.as_deref()) {
            Some(dir) => describe_dir(&dir),
            None => "none".into(),
        };
        let book = describe_book(&config.settings, config.dll_dir.as_deref());
        let mut text = format!(
            "{}\n{} (game type {}), CheckerBoard protocol 2\n\nEndgame databases: {db}\nOpening book: {book}",
            name(),
            config.settings.variant.title(),
            config.settings.variant.game_type()
        );
        if !config.problems.is_empty() {
            text.push_str(&format!("\nSettings file: {}", config.problems.join("; ")));
        }
        text
    }

    fn get(&self, key: &str) -> Reply {
        let config = self.config.lock();
        let s = &config.settings;
        match key {
            "dbpath" => handled(
                s.db_dir(config.dll_dir.as_deref())
                    .or_else(|| s.db_path.clone())
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
            ),
            _ => match s.get(key) {
                Some(value) => handled(value),
                None => refused("?"),
            },
        }
    }

    fn set(&self, key: &str, value: &str) -> Reply {
        let mut config = self.config.lock();
        let mut next = config.settings.clone();
        if let Err(e) = next.apply(key, value) {
            return if e.starts_with("unknown setting") {
                refused("?")
            } else {
                refused(format!("error: {e}"))
            };
        }
        if key == "bookfile"
            && let Err(e) = open_book(&next, config.dll_dir.as_deref())
        {
            return refused(format!("error: {e}"));
        }
        config.settings = next;
        let shown = match key {
            "bookfile" | "book" => describe_book(&config.settings, config.dll_dir.as_deref()),
            "dbpath" => match &config.settings.db_path {
                Some(dir) => describe_dir(dir),
                None => match config.settings.db_dir(config.dll_dir.as_deref()) {
                    Some(dir) => format!("the default, {}", describe_dir(&dir)),
                    None => "the default (no databases found)".into(),
                },
            },
            _ => value.trim().to_string(),
        };
        let saved = match settings::save(config.file.as_deref(), &config.settings) {
            Ok(()) => String::new(),
            Err(e) => format!(" (not saved: {e})"),
        };
        handled(format!("{key} set to {shown}{saved}"))
    }

    fn set_gamehist(&self, text: &str) -> Reply {
        match history::parse(text, self.variant()) {
            Ok(game) => {
                let n = game.reversible_plies();
                self.config.lock().gamehist = Some(game);
                handled(format!("gamehist: {n} reversible moves"))
            }
            Err(e) => {
                self.config.lock().gamehist = None;
                refused(format!("error: {e}"))
            }
        }
    }

    /// Answers `getmove`: on success the board holds the position after the move and
    /// the `CBmove` describes it. A bad board or colour is left untouched, with the
    /// reason in the status line and `CB_UNKNOWN`.
    pub fn get_move(
        &self,
        board: &mut Board8x8,
        args: MoveArgs,
        playnow: &dyn Fn() -> bool,
        status: &mut dyn FnMut(&str),
    ) -> (i32, Option<CbMove>) {
        let pos = match read_board(board, args.color, self.variant()) {
            Ok(p) => p,
            Err(e) => {
                status(&format!("Damiera: {e}"));
                return (CB_UNKNOWN, None);
            }
        };
        if legal_moves(&pos).is_empty() {
            status("Damiera: no legal move, the game is lost");
            return (CB_LOSS, None);
        }
        let (settings, game, dll_dir, book) = {
            let mut c = self.config.lock();
            let book = c.book_in_use();
            (
                c.settings.clone(),
                c.gamehist.take(),
                c.dll_dir.clone(),
                book,
            )
        };
        let book = book.unwrap_or_else(|e| {
            status(&format!("Damiera: {e}; playing without a book"));
            None
        });
        let engine_settings = with_book(&settings, book);
        let mut searcher = self.searcher.lock();
        if let Err(e) = searcher.resize_table(settings.engine.tt_mib) {
            status(&format!("Damiera: {e}"));
            return (CB_UNKNOWN, None);
        }
        let db_dir = settings.db_dir(dll_dir.as_deref());
        if let Err(e) = searcher.databases(db_dir.as_deref(), settings.db_mib) {
            status(&format!("Damiera: {e}; playing without databases"));
        }
        let request = Request {
            game: history::game_for(game, &pos),
            limits: think::limits(args.maxtime, args.info, args.moreinfo),
            settings: &engine_settings,
            allscores: settings.allscores,
            playnow,
            status,
        };
        let result = match think::think(&mut searcher, request) {
            Ok(r) => r,
            Err(e) => {
                status(&format!("Damiera: {e}"));
                return (CB_UNKNOWN, None);
            }
        };
        let Some(best) = result.best else {
            return (CB_LOSS, None);
        };
        status(&think::final_text(&pos, &result, settings.allscores));
        let mv = cb_move(&pos, best);
        write_board(&pos.play(best), board);
        (think::verdict(&pos, &result, searcher.egdb()), Some(mv))
    }

    /// Answers `islegal`: whether `color` can move from `from` to `to` (square numbers),
    /// and the move. Where several captures join the same squares, the first is taken
    /// (CheckerBoard asks `get movelist` for those).
    pub fn is_legal(&self, board: &Board8x8, color: i32, from: i32, to: i32) -> Option<CbMove> {
        let variant = self.variant();
        let pos = read_board(board, color, variant).ok()?;
        let numbering = cb_numbering(variant);
        let square = |n: i32| {
            u8::try_from(n)
                .ok()
                .and_then(|n| numbering.square_numbered(n))
        };
        let (from, to) = (square(from)?, square(to)?);
        let mut moves = legal_moves(&pos).to_vec();
        sort_moves_in(numbering, &mut moves);
        let mv = moves
            .into_iter()
            .find(|m| m.from() == from && m.to() == to)?;
        Some(cb_move(&pos, mv))
    }
}

/// The arguments of `getmove` besides the board and the pointers.
#[derive(Clone, Copy, Debug)]
pub struct MoveArgs {
    /// `CB_WHITE` or `CB_BLACK`.
    pub color: i32,
    /// Seconds to think.
    pub maxtime: f64,
    /// Flags (exact time, incremental clock).
    pub info: i32,
    /// The incremental clock, packed.
    pub moreinfo: i32,
}

impl Config {
    /// The book to play from under the settings (`None`: none), opened once for each
    /// `bookfile` and game; the error is one line.
    fn book_in_use(&mut self) -> Result<Option<Arc<Book>>, String> {
        let s = &self.settings;
        if s.book_mode().is_none() {
            return Ok(None);
        }
        if let Some((file, game, book)) = &self.book
            && *file == s.book_file
            && *game == s.variant
        {
            return Ok(book.clone());
        }
        let book = open_book(s, self.dll_dir.as_deref())?.map(Arc::new);
        self.book = Some((s.book_file.clone(), s.variant, book.clone()));
        Ok(book)
    }
}

/// The book `bookfile` names for the game played: `None` when off, or when no book is
/// shipped for the game; a file that is not a sound book of that game is an error.
fn open_book(s: &Settings, dll_dir: Option<&std::path::Path>) -> Result<Option<Book>, String> {
    match s.book_file.as_str() {
        settings::BOOK_OFF => Ok(None),
        settings::BOOK_EMBEDDED => Ok(damiera_engine::book::embedded(s.variant)),
        _ => Book::open_for(&s.book_path(dll_dir), s.variant)
            .map(Some)
            .map_err(|e| e.to_string()),
    }
}

/// The engine's settings for one search: the book and how its move is chosen.
fn with_book(s: &Settings, book: Option<Arc<Book>>) -> damiera_engine::engine::EngineOptions {
    let mut engine = s.engine.clone();
    engine.book = None;
    if let Some(mode) = s.book_mode() {
        engine.book = book;
        if let damiera_engine::book::BookMode::Varied { margin } = mode {
            engine.book_varied = true;
            engine.book_margin = margin;
        }
    }
    engine
}

/// The book in use, for `about` and the replies to `set book`/`set bookfile`.
fn describe_book(s: &Settings, dll_dir: Option<&std::path::Path>) -> String {
    let strength = ["none", "all kinds of moves", "good moves", "best moves"];
    let how = strength.get(usize::from(s.book_strength)).unwrap_or(&"?");
    let which = match s.book_file.as_str() {
        settings::BOOK_OFF => return "off".into(),
        settings::BOOK_EMBEDDED => match damiera_engine::book::embedded(s.variant) {
            Some(_) => format!("the shipped {} book", s.variant.title()),
            None => format!("none shipped for {}", s.variant.title()),
        },
        _ => s.book_path(dll_dir).display().to_string(),
    };
    format!("{which} ({how})")
}

/// `Damiera <version>`.
pub fn name() -> String {
    format!("Damiera {}", env!("CARGO_PKG_VERSION"))
}

/// The text after the first `n` words, trimmed at the start.
fn rest_after(text: &str, n: usize) -> &str {
    let mut rest = text.trim_start();
    for _ in 0..n {
        rest = rest
            .find(char::is_whitespace)
            .map_or("", |i| rest[i..].trim_start());
    }
    rest
}

/// `get movelist <fen>`: `movelist N,` then one entry per legal move, `movelist 0` when
/// there is none (also for a position the rules do not allow, such as CheckerBoard's
/// probe `B:W1:B`). A FEN that cannot be read is not handled.
fn movelist(fen: &str, variant: damiera_engine::board::Variant) -> Reply {
    let pos = match read_cb_fen(variant, fen.trim()) {
        Ok(p) => p,
        Err(e) => {
            use damiera_engine::board::PositionError::{ManOnCrowningRow, TooManyPieces};
            return match e {
                ManOnCrowningRow { .. } | TooManyPieces { .. } => handled("movelist 0"),
                other => refused(format!("error: bad FEN {:?}: {other}", clip(fen))),
            };
        }
    };
    let mut moves = legal_moves(&pos).to_vec();
    if moves.is_empty() {
        return handled("movelist 0");
    }
    sort_moves_in(cb_numbering(variant), &mut moves);
    let mut text = format!("movelist {},", moves.len());
    for mv in moves {
        text.push_str(&movelist_entry(&pos, mv));
    }
    if text.len() >= REPLY_SIZE {
        return refused("error: the move list does not fit the reply");
    }
    handled(text)
}

/// `staticevaluation <fen>` (sent by CheckerBoard's Engine > Evaluation menu).
fn static_evaluation(fen: &str, variant: damiera_engine::board::Variant) -> Reply {
    match read_cb_fen(variant, fen.trim()) {
        Ok(pos) => handled(format!(
            "Static evaluation: {} for the side to move",
            damiera_engine::search::score::text(evaluate(
                &pos,
                EvalStyle::Pattern,
                embedded_weights_for(variant)
            ))
        )),
        Err(e) => refused(format!("error: bad FEN {:?}: {e}", clip(fen))),
    }
}

/// What a database directory holds, for `set check_wld_dir`, `set dbpath` and `about`.
fn describe_dir(dir: &std::path::Path) -> String {
    match damiera_engine::egdb::Egdb::open(dir, 1) {
        Ok(db) if db.class_count() > 0 => format!(
            "{}: {} classes, up to {} pieces",
            dir.display(),
            db.class_count(),
            db.max_pieces()
        ),
        Ok(_) => format!("{}: no endgame database files", dir.display()),
        Err(e) => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        Engine::with(Settings::default(), None, None, vec![])
    }

    #[test]
    fn identity_commands() {
        let e = engine();
        assert_eq!(e.command("get gametype"), handled(GAMETYPE.to_string()));
        assert_eq!(e.command("get protocolversion"), handled("2"));
        assert_eq!(e.command("help"), handled(HELP_FILE));
        assert!(e.command("name").text.starts_with("Damiera "));
        assert!(e.command("about").text.contains("Italian"));
        assert_eq!(e.command("fly me"), refused("?"));
        assert_eq!(e.command(""), refused("?"));
        assert_eq!(e.command("set solve 1"), refused("?"));
    }

    #[test]
    fn settings_commands_check_values() {
        let e = engine();
        let r = e.command("set hashsize 128");
        assert!(r.handled && r.text.contains("not saved"), "{r:?}");
        assert_eq!(e.command("get hashsize"), handled("128"));
        let r = e.command("set hashsize lots");
        assert!(!r.handled && r.text.contains("hashsize"), "{r:?}");
        assert_eq!(e.command("get hashsize"), handled("128"));
        assert!(e.command("set searchthreads 2").handled);
        assert!(!e.command("set searchthreads 0").handled);
        assert!(
            e.command("set dbpath /no where/x")
                .text
                .contains("/no where/x")
        );
        assert_eq!(e.command("get dbpath"), handled("/no where/x"));
        assert!(e.command("set enable_wld 0").handled);
        assert_eq!(e.command("get dbpath"), handled("/no where/x"));
        assert_eq!(e.command("get enable_wld"), handled("0"));
        assert_eq!(e.command("set whatever 1"), refused("?"));
    }

    #[test]
    fn movelist_probe_and_examples() {
        use damiera_engine::board::Variant::Italian;
        assert_eq!(movelist("B:W1:B", Italian), handled("movelist 0"));
        assert_eq!(
            movelist("B:W31:B3", Italian),
            handled("movelist 2,0,6,6,3,6;0,6,6,3,7;")
        );
        assert!(!movelist("X:garbage", Italian).handled);
        assert!(
            movelist("W:W21-32:B1-12", Italian)
                .text
                .starts_with("movelist 7,")
        );
    }

    /// The game types CheckerBoard knows: English (21), Italian (22), Spanish (24),
    /// Russian (25), Brazilian (26) and Czech (29), chosen by `set gametype`; the board
    /// keeps its coordinates.
    #[test]
    fn game_types_choose_the_rules() {
        use crate::board8::{CB_BLACK, CB_WHITE};
        use damiera_engine::board::{Position, Variant};
        let e = engine();
        assert!(!e.command("set gametype 30").handled);
        assert_eq!(e.command("get gametype"), handled("22"));
        assert!(e.command("set gametype 21").handled);
        assert_eq!(e.command("get gametype"), handled("21"));
        assert!(e.command("about").text.contains("English checkers"));
        // English: Black moves first from CheckerBoard's 1-12, seven moves, the PDN ones.
        let start = Position::start_of(Variant::English);
        let mut board = [[0; 8]; 8];
        write_board(&start, &mut board);
        assert_eq!(read_board(&board, CB_BLACK, Variant::English), Ok(start));
        assert!(e.is_legal(&board, CB_BLACK, 9, 14).is_some());
        assert!(e.is_legal(&board, CB_BLACK, 12, 16).is_some());
        assert!(e.is_legal(&board, CB_BLACK, 12, 15).is_none());
        let reply = e.command("get movelist B:W21-32:B1-12");
        assert!(reply.text.starts_with("movelist 7,"), "{reply:?}");
        // An English man takes a king, which an Italian man never does.
        let reply = e.command("get movelist B:WK14:B9,K1");
        assert!(reply.text.starts_with("movelist 1,"), "{reply:?}");
        // Russian: CheckerBoard numbers its squares as in English; a king flies.
        assert!(e.command("set gametype 25").handled);
        let reply = e.command("get movelist W:WK29:B1");
        assert!(reply.text.starts_with("movelist 7,"), "{reply:?}");
        let game = e.command("set gamehist W:W21-32:B1-12 22-18 11-15");
        assert!(game.handled, "{game:?}");
        let pos = Position::start_of(Variant::Russian);
        write_board(&pos, &mut board);
        assert_eq!(read_board(&board, CB_WHITE, Variant::Russian), Ok(pos));
        // Czech: CheckerBoard's English numbers again; where a king can capture, only a
        // king's captures are legal: the king on 29 (a1) takes 18 (d4) and lands on any of
        // four squares, the man on 23 (e3) could take it too.
        assert!(e.command("set gametype 29").handled);
        assert_eq!(e.command("get gametype"), handled("29"));
        assert!(e.command("about").text.contains("Czech draughts"));
        let reply = e.command("get movelist W:W21-32:B1-12");
        assert!(reply.text.starts_with("movelist 7,"), "{reply:?}");
        let reply = e.command("get movelist W:WK29,23:B18");
        assert!(reply.text.starts_with("movelist 4,"), "{reply:?}");
        // Spanish: on the Italian board, in FID numbers as CheckerBoard writes them.
        assert!(e.command("set gametype 24").handled);
        assert_eq!(e.command("get gametype"), handled("24"));
        let reply = e.command("get movelist W:W21-32:B1-12");
        assert!(reply.text.starts_with("movelist 7,"), "{reply:?}");
        let pos = Position::start_of(Variant::Spanish);
        write_board(&pos, &mut board);
        assert_eq!(read_board(&board, CB_WHITE, Variant::Spanish), Ok(pos));
    }

    /// The move `getmove` plays from `pos` (White to move) in a short search, and its
    /// final status line.
    fn engine_move(e: &Engine, pos: Position) -> Option<(Position, String)> {
        use crate::board8::{CB_BLACK, CB_WHITE};
        let mut board = [[0; 8]; 8];
        write_board(&pos, &mut board);
        let args = MoveArgs {
            color: CB_WHITE,
            maxtime: 0.05,
            info: 0,
            moreinfo: 0,
        };
        let mut last = String::new();
        let (_, mv) = e.get_move(&mut board, args, &|| false, &mut |s| last = s.to_string());
        mv?;
        Some((read_board(&board, CB_BLACK, pos.variant()).ok()?, last))
    }

    use damiera_engine::board::Position;

    /// CheckerBoard's `book` (strength 0..3) and `bookfile` (a file, `embedded` by
    /// default, `off`): the shipped book plays its best move at the start; a file's book
    /// is played from; a bad file is refused and the book kept.
    #[test]
    fn book_commands_choose_the_book_and_its_moves() {
        use damiera_engine::book::{BookMode, Entry, FLAG_VALUE, embedded, encode, key::book_key};
        let e = engine();
        assert_eq!(e.command("get book"), handled("3"));
        assert_eq!(e.command("get bookfile"), handled("embedded"));
        let about = e.command("about").text;
        assert!(
            about.contains("Opening book: the shipped Italian draughts book (best moves)"),
            "{about}"
        );
        let start = Position::start_of(Variant::Italian);
        let shipped = embedded(Variant::Italian).and_then(|b| {
            b.choose(
                &start,
                BookMode::Best,
                &mut damiera_engine::rng::Rng::new(1),
            )
        });
        if let Some(best) = shipped {
            let (after, status) = engine_move(&e, start).unwrap();
            assert_eq!(after, start.play(best.mv));
            assert!(status.contains("| book move |"), "{status}");
        }
        let r = e.command("set book 2");
        assert!(r.handled && r.text.contains("(good moves)"), "{r:?}");
        assert_eq!(e.command("get book-mode"), handled("varied"));
        assert!(!e.command("set book 7").handled);
        // A book file of one move, 21-17 (not the engine's choice by itself).
        let dir = std::env::temp_dir().join(format!("damiera-cb-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let legal = legal_moves(&start);
        let mv = legal
            .as_slice()
            .iter()
            .copied()
            .find(|&m| damiera_engine::movegen::path_text(&start, m) == "21-17")
            .unwrap();
        let (from, to, captured, flags) = encode(Variant::Italian, mv);
        let entry = Entry {
            key: book_key(&start),
            from,
            to,
            captured,
            flags: flags | FLAG_VALUE,
            depth: 1,
            value: 0,
            search: 0,
            count: 0,
            wins: 0,
            losses: 0,
        };
        let path = dir.join("one.book");
        Book::new(Variant::Italian, vec![entry])
            .save(&path)
            .unwrap();
        let r = e.command(&format!("set bookfile {}", path.display()));
        assert!(r.handled, "{r:?}");
        assert_eq!(engine_move(&e, start).map(|m| m.0), Some(start.play(mv)));
        // A damaged file is refused; the book stays.
        let bad = dir.join("bad.book");
        std::fs::write(&bad, b"DBOOK8x8 broken").unwrap();
        let r = e.command(&format!("set bookfile {}", bad.display()));
        assert!(!r.handled && r.text.starts_with("error: book "), "{r:?}");
        assert_eq!(
            e.command("get bookfile"),
            handled(path.display().to_string())
        );
        // Strength 0: no book; `off`: no book either.
        assert!(e.command("set book 0").handled);
        assert!(e.command("about").text.contains("(none)"));
        assert!(e.command("set bookfile off").handled);
        assert_eq!(e.command("get bookfile"), handled("off"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn rest_keeps_spaces_inside_values() {
        assert_eq!(
            rest_after("set dbpath  C:\\My DB\\egdb ", 2),
            "C:\\My DB\\egdb "
        );
        assert_eq!(rest_after("get", 2), "");
    }
}
