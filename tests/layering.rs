//! The layering that `src/lib.rs` writes down is the code's: every `crate::<room>` a
//! room's code names (outside comments) is one of the rooms its entry lists, and every
//! room listed comes before the rooms that use it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The rooms of lib.rs's list, in order, each with the rooms it says it uses (`None`:
/// all of them).
fn documented() -> Vec<(String, Option<BTreeSet<String>>)> {
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let mut rooms = Vec::new();
    for line in lib.lines() {
        let Some(rest) = line.strip_prefix("//! - [`") else {
            continue;
        };
        let (name, rest) = rest.split_once("`]").unwrap();
        let uses = match rest.trim_start().strip_prefix("(→ ") {
            Some(list) => {
                let list = list.split_once(')').unwrap().0;
                if list == "all" {
                    None
                } else {
                    Some(
                        list.split(", ")
                            .map(|r| r.split_whitespace().next().unwrap().to_string())
                            .collect(),
                    )
                }
            }
            None => Some(BTreeSet::new()),
        };
        rooms.push((name.to_string(), uses));
    }
    rooms
}

/// The rooms that the code of room `name` names as `crate::<room>`, outside comments.
fn used_by(name: &str) -> BTreeSet<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let file = src.join(format!("{name}.rs"));
    if file.exists() {
        files.push(file);
    }
    let mut dirs = vec![src.join(name)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    let mut used = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for (i, _) in line.match_indices("crate::") {
                let room: String = line[i + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !room.is_empty() && room != name {
                    used.insert(room);
                }
            }
        }
    }
    used
}

#[test]
fn every_room_uses_only_the_rooms_lib_rs_lists_before_it() {
    let rooms = documented();
    assert!(rooms.len() >= 15, "{rooms:?}");
    let position: BTreeMap<&str, usize> = rooms
        .iter()
        .enumerate()
        .map(|(i, (n, _))| (n.as_str(), i))
        .collect();
    for (i, (name, listed)) in rooms.iter().enumerate() {
        for used in used_by(name) {
            let Some(&at) = position.get(used.as_str()) else {
                panic!("{name} uses crate::{used}, which lib.rs does not list");
            };
            assert!(at < i, "{name} uses {used}, listed after it");
            if let Some(listed) = listed {
                assert!(
                    listed.contains(&used),
                    "{name} uses {used}, not in its list {listed:?}"
                );
            }
        }
        for dep in listed.iter().flatten() {
            let at = position.get(dep.as_str());
            assert!(
                at.is_some_and(|&at| at < i),
                "{name} lists {dep}, not a room before it"
            );
        }
    }
}

#[test]
fn every_module_of_the_library_is_in_the_list() {
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let listed: BTreeSet<String> = documented().into_iter().map(|(n, _)| n).collect();
    let modules: BTreeSet<String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';').to_string())
        .collect();
    assert_eq!(listed, modules);
}
