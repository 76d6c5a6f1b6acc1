//! Probing: the databases found in a directory, opened lazily, with a block cache shared
//! by the search threads.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;

use super::index::{Canonical, Material};
use super::store::{BLOCK_POSITIONS, TableFile, TableSource, header_variant, peek_variant};
use super::value::{Code, Outcome};
use crate::board::{Position, Variant};

/// `Egdb::class_index` entry of a material without a file.
const NO_CLASS: u16 = u16::MAX;

/// Cache size when none is given, MiB.
pub const DEFAULT_CACHE_MIB: usize = 128;

/// One class file: opened on first use; a file found bad is reported once and never
/// probed again.
struct ClassSlot {
    id: u64,
    path: PathBuf,
    /// The file's bytes, when the databases were given in memory.
    memory: Option<Arc<[u8]>>,
    file: OnceLock<Option<TableFile<TableSource>>>,
    broken: AtomicBool,
}

/// A direct-mapped cache of decompressed blocks; each slot has its own lock, so threads
/// probing different blocks rarely wait for one another.
struct BlockCache {
    slots: Vec<CacheSlot>,
}

/// A cached block: its key (class id and block number) and its values.
type CacheSlot = Mutex<Option<(u64, Arc<[Code]>)>>;

impl BlockCache {
    fn new(mib: usize) -> BlockCache {
        let n = (mib.max(1) << 20) / (BLOCK_POSITIONS * std::mem::size_of::<Code>());
        BlockCache {
            slots: (0..n.max(16)).map(|_| Mutex::new(None)).collect(),
        }
    }

    fn slot(&self, key: u64) -> &CacheSlot {
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
        &self.slots[h as usize % self.slots.len()]
    }
}

/// The endgame databases of one directory, all of one variant: they answer only for
/// positions of that variant.
pub struct Egdb {
    dir: PathBuf,
    /// The variant of the files (`None` when there are none).
    variant: Option<Variant>,
    /// The class files found.
    classes: Vec<ClassSlot>,
    /// Index into `classes` by [`Material::slot`] ([`NO_CLASS`]: none), so that a probe
    /// hashes nothing and an open does not build a slot for each of the 28,561
    /// materials (4 MB to write and free each time a directory is set).
    class_index: Box<[u16]>,
    materials: Vec<Material>,
    max_pieces: u32,
    cache: BlockCache,
}

impl std::fmt::Debug for Egdb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Egdb({}, {}, {} classes)",
            self.dir.display(),
            self.variant.map_or("no variant", Variant::name),
            self.materials.len()
        )
    }
}

impl Egdb {
    /// Finds the table files in `dir` and reads the variant from their headers (the rest
    /// of each file is checked when first probed). A missing or unreadable directory,
    /// or files of more than one variant, are errors.
    pub fn open(dir: &Path, cache_mib: usize) -> Result<Egdb, String> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| format!("endgame databases: {}: {e}", dir.display()))?;
        let files = entries.flatten().map(|e| (e.path(), None)).collect();
        Egdb::from_files(dir, files, cache_mib)
    }

    /// Databases given as table files in memory, each with its file name
    /// (`<class>.egdb`); the same checks as [`Egdb::open`]'s when first probed. For the
    /// browser build, which fetches the files.
    pub fn from_memory(files: Vec<(String, Vec<u8>)>, cache_mib: usize) -> Result<Egdb, String> {
        let files = files
            .into_iter()
            .map(|(name, bytes)| (PathBuf::from(name), Some(Arc::from(bytes))))
            .collect();
        Egdb::from_files(Path::new("(memory)"), files, cache_mib)
    }

    fn from_files(
        dir: &Path,
        files: Vec<(PathBuf, Option<Arc<[u8]>>)>,
        cache_mib: usize,
    ) -> Result<Egdb, String> {
        let mut classes: Vec<ClassSlot> = Vec::new();
        let mut class_index = vec![NO_CLASS; Material::SLOTS].into_boxed_slice();
        let mut materials = Vec::new();
        let mut variant: Option<(Variant, PathBuf)> = None;
        for (path, memory) in files {
            if path.extension().and_then(|e| e.to_str()) != Some("egdb") {
                continue;
            }
            let Some(m) = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(Material::from_name)
            else {
                continue;
            };
            let peeked = match &memory {
                Some(bytes) => bytes.get(..64).and_then(|head| header_variant(head).ok()),
                None => peek_variant(&path),
            };
            if let Some(v) = peeked {
                match &variant {
                    Some((known, first)) if *known != v => {
                        return Err(format!(
                            "endgame databases: {} mixes variants: {} is for {}, {} for {}",
                            dir.display(),
                            first.display(),
                            known.title(),
                            path.display(),
                            v.title()
                        ));
                    }
                    Some(_) => {}
                    None => variant = Some((v, path.clone())),
                }
            }
            let id = materials.len() as u64;
            materials.push(m);
            let slot = ClassSlot {
                id,
                path,
                memory,
                file: OnceLock::new(),
                broken: AtomicBool::new(false),
            };
            match class_index
                .get(m.slot())
                .and_then(|&i| classes.get_mut(usize::from(i)))
            {
                Some(known) => *known = slot,
                None => {
                    // Fewer classes than slots, and every slot below NO_CLASS.
                    class_index[m.slot()] = classes.len() as u16;
                    classes.push(slot);
                }
            }
        }
        materials.sort_by_key(|m| (m.pieces(), m.men(), *m));
        let max_pieces = materials.iter().map(|m| m.pieces()).max().unwrap_or(0);
        // No class, nothing to cache: the smallest cache (1 MiB of blocks).
        let cache = BlockCache::new(if classes.is_empty() { 0 } else { cache_mib });
        Ok(Egdb {
            dir: dir.to_path_buf(),
            variant: variant.map(|(v, _)| v),
            classes,
            class_index,
            materials,
            max_pieces,
            cache,
        })
    }

    /// [`Egdb::open`], refusing files of another variant than `variant` with an error
    /// that names both (a directory without table files opens, and answers nothing).
    pub fn open_for(dir: &Path, variant: Variant, cache_mib: usize) -> Result<Egdb, String> {
        let db = Egdb::open(dir, cache_mib)?;
        match db.variant {
            Some(v) if v != variant => Err(format!(
                "endgame databases: {} holds {} tables, not {}",
                dir.display(),
                v.title(),
                variant.title()
            )),
            _ => Ok(db),
        }
    }

    /// The variant of the files (`None` when there are none).
    pub fn variant(&self) -> Option<Variant> {
        self.variant
    }

    /// The class file of `m`, if there is one.
    fn class(&self, m: Material) -> Option<&ClassSlot> {
        let &i = self.class_index.get(m.slot())?;
        self.classes.get(usize::from(i))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Number of class files found.
    pub fn class_count(&self) -> usize {
        self.materials.len()
    }

    /// The most pieces of any class found (0 when none).
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The classes found, in build order.
    pub fn materials(&self) -> Vec<Material> {
        self.materials.clone()
    }

    /// Opens (once) and returns the file of a class; `None` if absent or bad.
    pub fn table(&self, material: Material) -> Option<&TableFile<TableSource>> {
        let slot = self.class(material)?;
        if slot.broken.load(Ordering::Relaxed) {
            return None;
        }
        let open = || match &slot.memory {
            Some(bytes) => {
                TableFile::from_source(TableSource::Memory(Arc::clone(bytes)), &slot.path)
            }
            None => std::fs::File::open(&slot.path)
                .map_err(|e| format!("{}: {e}", slot.path.display()))
                .and_then(|f| TableFile::from_source(TableSource::File(f), &slot.path)),
        };
        let file = slot.file.get_or_init(|| match open() {
            Ok(f) if Some(f.header.variant) == self.variant => Some(f),
            Ok(f) => {
                eprintln!(
                    "endgame databases: {}: a {} table among {} ones; this class is not used",
                    slot.path.display(),
                    f.header.variant.title(),
                    self.variant.map_or("no", Variant::title)
                );
                None
            }
            Err(e) => {
                eprintln!("endgame databases: {e}; this class is not used");
                None
            }
        });
        file.as_ref()
    }

    /// The value of `pos` for the side to move, when its class is present and sound and
    /// `pos` is of the databases' variant under its own rules. A side to move without
    /// pieces has lost. Never a wrong answer: a bad block is reported once and its class
    /// is dropped; a position of another variant, or under Damka house rules that change
    /// the moves (the tables hold the rulebook's moves), is never looked up.
    pub fn probe(&self, pos: &Position) -> Option<Outcome> {
        if self.variant != Some(pos.variant()) || pos.house_rules().changes_moves() {
            return None;
        }
        let c = Canonical::of(pos);
        let m = c.material();
        if m.white_men + m.white_kings == 0 {
            return Some(Outcome::Loss(0));
        }
        let slot = self.class(m)?;
        let file = self.table(m)?;
        let index = file.index.index(&c) as usize;
        let size = file.block_positions;
        let block = index / size;
        let key = (slot.id << 32) | block as u64;
        let cell = self.cache.slot(key);
        if let Some((k, values)) = &*cell.lock()
            && *k == key
        {
            return Outcome::decode(values[index % size]);
        }
        match file.read_block(block) {
            Ok(values) => {
                let values: Arc<[Code]> = values.into();
                let o = Outcome::decode(values[index % size]);
                *cell.lock() = Some((key, values));
                o
            }
            Err(e) => {
                if !slot.broken.swap(true, Ordering::Relaxed) {
                    eprintln!("endgame databases: {e}; this class is not used");
                }
                None
            }
        }
    }
}
