//! The fuzz corpora, replayed on stable Rust: every input kept in `fuzz/corpus/<target>`
//! and every failure ever found in `fuzz/regressions/<target>` runs through the same
//! check as the fuzz target (`damiera_checks`), and must pass.
//!
//! `cargo test -p damiera-checks --test fuzz_corpus -- --ignored write_seed_corpora`
//! writes the seed inputs the corpora were grown from (see fuzz/README.md).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use std::path::{Path, PathBuf};

use damiera_checks::{self as checks, Checked};

type Check = fn(&[u8]) -> Checked;

const TARGETS: [(&str, Check); 8] = [
    ("hub_session", checks::hub::check),
    ("position", checks::position::check),
    ("pdn", checks::pdn::check),
    ("egdb", checks::egdb::check),
    ("book", checks::book::check),
    ("weights", checks::weights::check),
    ("network", checks::network::check),
    ("web_api", checks::web::check),
];

/// The workspace root (this crate is `checks/` in it).
fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn fuzz_dir() -> PathBuf {
    root().join("fuzz")
}

/// The files of a corpus directory, sorted (none when it does not exist).
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Runs `check` over every input of `dirs`; returns how many ran.
fn replay(target: &str, check: Check, dirs: &[PathBuf]) -> usize {
    let mut count = 0;
    for dir in dirs {
        for path in inputs(dir) {
            let data = std::fs::read(&path).unwrap();
            if let Err(failure) = check(&data) {
                panic!("{target}: {}: {failure}", path.display());
            }
            count += 1;
        }
    }
    count
}

#[test]
fn every_corpus_input_passes_its_check() {
    for (target, check) in TARGETS {
        let dirs = [
            fuzz_dir().join("corpus").join(target),
            fuzz_dir().join("regressions").join(target),
        ];
        let count = replay(target, check, &dirs);
        // The corpora are part of the repository: an empty one is a packaging mistake.
        assert!(count >= 5, "{target}: only {count} corpus inputs");
        eprintln!("{target}: {count} inputs");
    }
}

/// Seed inputs, written once into the corpus directories.
#[test]
#[ignore = "writes the seed corpora into fuzz/corpus (run by hand, see fuzz/README.md)"]
fn write_seed_corpora() {
    let mut seeds: Vec<(&str, String, Vec<u8>)> = Vec::new();
    let mut add = |target: &'static str, name: &str, data: Vec<u8>| {
        seeds.push((target, name.to_string(), data));
    };
    let rules = std::fs::read_to_string(root().join("tests/data/rules.txt")).unwrap();
    for (i, line) in rules.lines().filter(|l| !l.starts_with('#')).enumerate() {
        let mut parts = line.split('|');
        let fen = parts.next().unwrap_or("").trim();
        let moves: Vec<&str> = parts.next().unwrap_or("").split_whitespace().collect();
        add(
            "position",
            &format!("rules-{i:02}"),
            format!("{fen}\n{}", moves.join("\n")).into_bytes(),
        );
    }
    for (i, text) in [
        "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww\n22-19\n21x14",
        "W:W21-32:B1-12.\n22-18\n24-20\n21-17",
        "\"B:WK27,K28,17:BK19,4\"\n19-23\n19x10x14",
        "W:B1-12:W21-32\n23-19\n22x13x18",
        "w:wk5,k9:bk28,29\n5-1\n9x...",
        "Bbeeeeeeeeeeeebeeeeweeeeeeeeeeeeee\n",
    ]
    .iter()
    .enumerate()
    {
        add("position", &format!("text-{i}"), text.as_bytes().to_vec());
    }
    let pdn = [
        "[Event \"Campionato \\\"Assoluto\\\"\"]\n[White \"Rossi\"]\n[Black \"Bianchi \\\\ jr\"]\n\
         [Result \"1-0\"]\n[GameType \"22\"]\n\n; a line comment\n{Opening comment}\n\
         1. 22-19 11-15 2. 19x10! 6x15 $1 (2... 7x14 {a (tricky) comment} (3. 21-18?))\n\
         3. 24-20 {quiet\n   move} 3... 15-19?! 4. 23x14x5 1-0\n\n[Event \"Second\"]\n1.21-17 12-16 2.17x8x1 *\n",
        "[FEN \"W:W10:B6\"]\n1. 10x3 *\n",
        "[FEN \"B:W18,19:B14\"]\n1... 14x23 *\n",
        "[GameType \"21\"]\n1. 22-18 *\n",
        "[Event \"Citt\u{e0}\"]\r\n[GameType \"22,W,8,8,A0,0\"]\r\n\r\n1. 22-18 11-14 2-0\r\n",
        "W:W21-32:B1-12\nW:W24,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,11,10,9,15\n",
        "1. 22-18 {unterminated\n",
        "%escape line\n1. 21-17 (9-13 (10-14) 12-16) 1/2-1/2",
    ];
    for (i, text) in pdn.iter().enumerate() {
        add("pdn", &format!("game-{i}"), text.as_bytes().to_vec());
    }
    add(
        "pdn",
        "latin1",
        b"[White \"Citt\xe0 \x80\"]\n1. 22-18 *\n".to_vec(),
    );
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            "[White \"a\"]\n1. 22-18 *\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    add("pdn", "utf16", utf16);
    let sessions = [
        "hub\ninit\nping\n",
        "pos start moves=\"22-19 11-15\"\nlevel depth=3\ngo\n\x01\n\x02\nquit\n",
        "level move-time=0.2\ngo ponder\n\x03\x10\nponder-hit\n\x01\n\x02\ngo\n\x02\n",
        "go analyze\n\x01\nping\nlevel depth=bad\nstop\n\x02\nquit\n",
        "set-param name=tt-size value=4\nset-param name=threads value=99\nset-param name=multipv value=3\n\
         set-param name=style value=hce\nset-param name=draw-moves value=0\nhub\n",
        "set-param name=eval-file value=x.dmw\nset-param name=eval-file value=embedded\n\
         set-param name=egdb-path value=dir\ninit\nset-param name=egdb-path value=other\n",
        "pos pos=Wbeeeeeeeeeeeebeeeeweeeeeeeeeeeee\nlevel nodes=100\ngo think\n\x02\n",
        "pos start moves=\"22-19 22-19\"\npos pos=Wxyz\nlevel\ngo think ponder\nset-param name=x\n",
        "level time=10 inc=0.1 moves=20\ngo\nquit\n\x02\n",
        "go ponder\nstop\ngo\nstop\n\x02\n\x02\nset-param name=tt-size value=1048576\n",
        "new-game\nlevel infinite\ngo\n\x01\n\x01\nstop\n\x02\n",
    ];
    for (i, text) in sessions.iter().enumerate() {
        add(
            "hub_session",
            &format!("session-{i:02}"),
            text.as_bytes().to_vec(),
        );
    }
    for (i, original) in checks::egdb::originals().iter().enumerate() {
        let mut file = vec![i as u8];
        file.extend_from_slice(&original.bytes);
        add("egdb", &format!("original-{}", original.name), file);
        let at = original.bytes.len() - 5;
        for mode in [2u8, 4] {
            add(
                "egdb",
                &format!("edit-{}-{mode}", original.name),
                vec![mode | i as u8, at as u8, (at >> 8) as u8, 0x42, 30, 0, 7],
            );
        }
        add(
            "egdb",
            &format!("cut-{}", original.name),
            vec![2 | i as u8, 0xFF, 0xFF, 128],
        );
    }
    for (i, original) in checks::book::originals().iter().enumerate() {
        let mut file = vec![i as u8];
        file.extend_from_slice(&original.bytes);
        add("book", &format!("original-{i}"), file);
        // An entry's from square, its flags, and a header field; the file cut.
        for (mode, at, byte) in [(2u8, 40u16, 33u8), (4, 42, 0x80), (4, 40, 5), (2, 10, 21)] {
            let [lo, hi] = at.to_le_bytes();
            add(
                "book",
                &format!("edit-{i}-{mode}-{at}"),
                vec![mode | i as u8, lo, hi, byte],
            );
        }
        add(
            "book",
            &format!("cut-{i}"),
            vec![2 | i as u8, 0xFF, 0xFF, 9],
        );
    }
    let header = damiera::search::eval::EMBEDDED_FILE[..24].to_vec();
    let mut raw = vec![0u8];
    raw.extend_from_slice(&header);
    add("weights", "raw-header", raw);
    add("weights", "raw-empty", vec![0]);
    add(
        "weights",
        "edit-payload",
        vec![1, 40, 0, 0, 9, 200, 1, 0, 0x80],
    );
    add(
        "weights",
        "edit-fixed",
        vec![3, 40, 0, 0, 9, 0xFF, 0x8F, 0x03, 0x7F],
    );
    add("weights", "edit-header", vec![1, 8, 0, 0, 2, 12, 0, 0, 5]);
    add(
        "weights",
        "edit-fixed-man",
        vec![3, 0xB0, 0x99, 0x03, 0xFF, 0xB1, 0x99, 0x03, 0x7F],
    );
    let mut raw = vec![0u8];
    raw.extend_from_slice(&checks::network::ORIGINAL[..36]);
    add("network", "raw-header", raw);
    add("network", "raw-empty", vec![0]);
    let mut whole = vec![0u8];
    whole.extend_from_slice(checks::network::ORIGINAL);
    add("network", "raw-whole", whole);
    add(
        "network",
        "edit-payload",
        vec![1, 40, 0, 0, 9, 200, 1, 0, 0x80],
    );
    add(
        "network",
        "edit-fixed-ft",
        vec![3, 40, 0, 0, 9, 0xFF, 0x8F, 0, 0x7F],
    );
    add("network", "edit-header", vec![1, 8, 0, 0, 2, 28, 0, 0, 5]);
    // The dense biases and the output weights, checksum recomputed.
    add(
        "network",
        "edit-fixed-dense",
        vec![
            3, 0x26, 0x81, 0, 0x7F, 0x29, 0x81, 0, 0x7F, 0x90, 0xA1, 0, 0x80,
        ],
    );
    let requests: [&[(u8, &str)]; 6] = [
        &[
            (0, r#"{"move":"22-19"}"#),
            (0, r#"{"move":"11-15"}"#),
            (1, r#"{"ply":1}"#),
            (5, "{}"),
            (16, ""),
        ],
        &[
            (9, r#"{"mode":"analyse","engine_side":"none","movetime":2}"#),
            (0, r#"{"move":"22-19"}"#),
            (1, r#"{"ply":0}"#),
            (0, r#"{"move":"21-17"}"#),
            (2, r#"{"path":[1]}"#),
            (3, r#"{"path":[1]}"#),
            (4, r#"{"path":[0]}"#),
        ],
        &[
            (7, r#"{"fen":"W:W10:B6"}"#),
            (0, r#"{"move":"10x3"}"#),
            (6, "{}"),
            (8, r#"{"pdn":"1. 22-18 11-14 *\n\n1. 21-17 *","game":2}"#),
        ],
        &[
            (18, "\u{9}1. 22-18 11-14 *\n\n1. 21-17 *"),
            (19, "\u{0}1. 22-18 *\n\n1. 24-20 *"),
            (9, r#"{"clock":{"time":60,"inc":1},"review_seconds":1}"#),
            (0, r#"{"move":"22-19"}"#),
            (10, r#"{"resume":false}"#),
        ],
        &[
            (13, r#"{"name":"tt-size","value":1}"#),
            (11, r#"{"run":true}"#),
            (14, "{}"),
            (15, r#"{"ply":0}"#),
            (12, "{}"),
        ],
        &[
            (0, "not json"),
            (1, "[1]"),
            (22, "xyzw"),
            (20, "\u{3}"),
            (9, r#"{"movetime":1e300,"clock":{"time":-1}}"#),
            (2, r#"{"path":[18446744073709551615]}"#),
        ],
    ];
    for (i, session) in requests.iter().enumerate() {
        let mut data = Vec::new();
        for (j, (pick, body)) in session.iter().enumerate() {
            if j > 0 {
                data.push(0xFE);
            }
            data.push(*pick);
            data.extend_from_slice(body.as_bytes());
        }
        add("web_api", &format!("requests-{i}"), data);
    }
    for (target, name, data) in seeds {
        let dir = fuzz_dir().join("corpus").join(target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("seed-{name}")), data).unwrap();
    }
}
