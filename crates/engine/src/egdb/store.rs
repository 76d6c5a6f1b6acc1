//! Table files: compressed blocks with an index, a header with format version and
//! checksums, read lazily one block at a time.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "DAMIEGDB"
//!      8     4  format version (2), little-endian like every field
//!     12     4  class: white men, white kings, black men, black kings (White to move)
//!     16     8  positions
//!     24     4  positions per block
//!     28     4  blocks (n)
//!     32    24  wins, losses, draws (u64 each)
//!     56     4  longest win, longest loss (plies, u16 each)
//!     60     1  bytes per value: 1 when every value of the class fits a byte, else 2
//!     61     1  variant: 0 Italian, 1 English, 2 Russian, 3 Brazilian
//!     62     2  zero
//!     64  8n+8  block offsets from the start of the data (the last one is the data size)
//!          8n   FNV-1a 64 checksum of each compressed block
//!           8   FNV-1a 64 checksum of all bytes before it
//!             then the zstd-compressed blocks of values (see `super::value`).
//! ```
//!
//! Version 1 (the Italian tables of earlier builds) is the same with bytes 60–63 one
//! little-endian `u32` of the bytes per value: its variant byte is zero, Italian, so such
//! files are read as they are. A file of another variant is refused by earlier builds
//! (its version is 2).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::build::{SolvedTable, TableStats};
use super::index::{ClassIndex, Material};
use super::value::{Code, from_byte, to_byte};
use crate::board::Variant;

/// File magic.
pub const MAGIC: &[u8; 8] = b"DAMIEGDB";
/// Format version written (version 1, Italian only, is read too).
pub const VERSION: u32 = 2;
/// Positions per compressed block when writing (readers take the size from the header):
/// small enough that a probe missing the cache decompresses little, large enough to
/// compress well.
pub const BLOCK_POSITIONS: usize = 4_096;
const HEADER_LEN: usize = 64;
/// zstd level for writing (a balance of build time and size).
const LEVEL: i32 = 9;

#[cfg(feature = "native")]
thread_local! {
    /// One decompression context per thread, reused by every block it reads.
    static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        std::cell::RefCell::new(zstd::bulk::Decompressor::new().ok());
}

/// One block compressed (zstd, the C library: native builds only).
#[cfg(feature = "native")]
fn compress(block: &[u8]) -> Result<Vec<u8>, String> {
    zstd::bulk::compress(block, LEVEL).map_err(|e| e.to_string())
}

/// Without the C library (the browser build) tables are read, never written.
#[cfg(not(feature = "native"))]
fn compress(_block: &[u8]) -> Result<Vec<u8>, String> {
    let _ = LEVEL;
    Err("this build reads endgame tables but cannot write them".into())
}

/// One block decompressed to `len` bytes at most, by the C library.
#[cfg(feature = "native")]
fn decompress(raw: &[u8], len: usize) -> Result<Vec<u8>, String> {
    DECOMPRESSOR
        .with(|d| match d.borrow_mut().as_mut() {
            Some(d) => d.decompress(raw, len),
            None => zstd::bulk::decompress(raw, len),
        })
        .map_err(|e| e.to_string())
}

/// One block decompressed to `len` bytes at most, by the pure-Rust decoder (`ruzstd`:
/// the browser build, where the C library does not compile).
#[cfg(all(not(feature = "native"), feature = "pure-zstd"))]
fn decompress(raw: &[u8], len: usize) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let decoder = ruzstd::decoding::StreamingDecoder::new(raw).map_err(|e| format!("zstd: {e}"))?;
    let mut out = Vec::with_capacity(len);
    decoder
        .take(len as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("zstd: {e}"))?;
    Ok(out)
}

/// A build with neither decoder cannot read tables.
#[cfg(all(not(feature = "native"), not(feature = "pure-zstd")))]
fn decompress(_raw: &[u8], _len: usize) -> Result<Vec<u8>, String> {
    Err("this build has no zstd decoder".into())
}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The file of a class in `dir`.
pub fn table_path(dir: &Path, material: Material) -> PathBuf {
    dir.join(format!("{}.egdb", material.name()))
}

/// Writes a table (to a temporary name, then renamed into place); returns its size.
pub fn write_table(dir: &Path, table: &SolvedTable, stats: &TableStats) -> Result<u64, String> {
    let (head, blocks) = encode_table(table, stats, BLOCK_POSITIONS)?;
    let path = table_path(dir, table.index.material);
    let tmp = path.with_extension("egdb.tmp");
    let write = || -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(&head)?;
        for b in &blocks {
            f.write_all(b)?;
        }
        f.sync_all()?;
        std::fs::rename(&tmp, &path)
    };
    write().map_err(|e| format!("writing {}: {e}", path.display()))?;
    Ok(head.len() as u64 + blocks.iter().map(|b| b.len() as u64).sum::<u64>())
}

/// The bytes of a table file in memory, `block_positions` values a block (a power of
/// two, 1,024 to 1,048,576): what [`write_table`] writes with [`BLOCK_POSITIONS`].
pub fn table_bytes(
    table: &SolvedTable,
    stats: &TableStats,
    block_positions: usize,
) -> Result<Vec<u8>, String> {
    let (mut head, blocks) = encode_table(table, stats, block_positions)?;
    head.extend(blocks.concat());
    Ok(head)
}

/// The header with its index, and the compressed blocks.
fn encode_table(
    table: &SolvedTable,
    stats: &TableStats,
    block_positions: usize,
) -> Result<(Vec<u8>, Vec<Vec<u8>>), String> {
    let m = table.index.material;
    let narrow: Option<Vec<u8>> = table.values.iter().map(|&c| to_byte(c)).collect();
    let value_bytes: u8 = if narrow.is_some() { 1 } else { 2 };
    let raw: Vec<u8> =
        narrow.unwrap_or_else(|| table.values.iter().flat_map(|c| c.to_le_bytes()).collect());
    let blocks: Vec<Vec<u8>> = raw
        .chunks(block_positions * value_bytes as usize)
        .map(compress)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("compressing class {m}: {e}"))?;
    let mut head = Vec::with_capacity(HEADER_LEN + blocks.len() * 16 + 16);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    head.extend_from_slice(&[m.white_men, m.white_kings, m.black_men, m.black_kings]);
    head.extend_from_slice(&table.index.size.to_le_bytes());
    head.extend_from_slice(&(block_positions as u32).to_le_bytes());
    head.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    for n in [stats.wins, stats.losses, stats.draws] {
        head.extend_from_slice(&n.to_le_bytes());
    }
    head.extend_from_slice(&stats.longest_win.to_le_bytes());
    head.extend_from_slice(&stats.longest_loss.to_le_bytes());
    head.extend_from_slice(&[value_bytes, variant_code(table.variant), 0, 0]);
    let mut offset = 0u64;
    head.extend_from_slice(&offset.to_le_bytes());
    for b in &blocks {
        offset += b.len() as u64;
        head.extend_from_slice(&offset.to_le_bytes());
    }
    for b in &blocks {
        head.extend_from_slice(&fnv1a(b).to_le_bytes());
    }
    let sum = fnv1a(&head);
    head.extend_from_slice(&sum.to_le_bytes());
    Ok((head, blocks))
}

/// Where a table's bytes are read from: its file, or bytes in memory (checks, fuzzing).
pub trait ReadAt {
    /// Fills `buf` with the bytes at `offset`; an error if the source ends first.
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()>;
    /// The number of bytes.
    fn size(&self) -> std::io::Result<u64>;
}

impl ReadAt for File {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        read_exact_at(self, buf, offset)
    }

    fn size(&self) -> std::io::Result<u64> {
        Ok(self.metadata()?.len())
    }
}

impl ReadAt for [u8] {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        let bytes = usize::try_from(offset)
            .ok()
            .and_then(|start| self.get(start..start.checked_add(buf.len())?))
            .ok_or(std::io::ErrorKind::UnexpectedEof)?;
        buf.copy_from_slice(bytes);
        Ok(())
    }

    fn size(&self) -> std::io::Result<u64> {
        Ok(self.len() as u64)
    }
}

/// A table's bytes as the probing code holds them: its file, or the whole file in memory
/// (the browser build, which has no file system, gets the files over the network).
pub enum TableSource {
    /// An open file.
    File(File),
    /// The file's bytes.
    Memory(std::sync::Arc<[u8]>),
}

impl ReadAt for TableSource {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        match self {
            TableSource::File(f) => f.read_exact_at(buf, offset),
            TableSource::Memory(m) => (**m).read_exact_at(buf, offset),
        }
    }

    fn size(&self) -> std::io::Result<u64> {
        match self {
            TableSource::File(f) => f.size(),
            TableSource::Memory(m) => (**m).size(),
        }
    }
}

impl<T: ReadAt + ?Sized> ReadAt for &T {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        (**self).read_exact_at(buf, offset)
    }

    fn size(&self) -> std::io::Result<u64> {
        (**self).size()
    }
}

/// No files on this target (WebAssembly in a browser): tables come in memory.
#[cfg(not(any(unix, windows)))]
fn read_exact_at(_file: &File, _buf: &mut [u8], _offset: u64) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

/// Reads exactly `buf.len()` bytes at `offset` without a shared cursor, so the search
/// threads read blocks of one file at the same time.
#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

/// Reads exactly `buf.len()` bytes at `offset` (Windows: `seek_read` may read less than
/// asked, so it loops; each call names its offset, so threads can share the handle).
#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    use std::io::ErrorKind;
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset) {
            Ok(0) => return Err(ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The variant's byte in a header: its place in [`Variant::ALL`].
fn variant_code(v: Variant) -> u8 {
    v.index() as u8
}

/// The variant of a header's byte.
fn variant_of_code(code: u8) -> Option<Variant> {
    Variant::ALL.into_iter().find(|&v| variant_code(v) == code)
}

/// The variant a table file is for, from its first 64 bytes, without checking the rest
/// (`None` when they are not the start of a table file this build reads).
pub fn peek_variant(path: &Path) -> Option<Variant> {
    use std::io::Read;
    let mut file = File::open(path).ok()?;
    let mut head = [0u8; HEADER_LEN];
    file.read_exact(&mut head).ok()?;
    header_variant(&head).ok()
}

/// The variant of a header (at least 64 bytes) whose magic and version are right.
pub(crate) fn header_variant(head: &[u8]) -> Result<Variant, String> {
    if head.len() < 64 || &head[..8] != MAGIC {
        return Err("not a Damiera endgame table".into());
    }
    let version = le_u32(head, 8);
    if version != 1 && version != VERSION {
        return Err(format!(
            "format version {version}, this build reads 1 and {VERSION}"
        ));
    }
    if head[62..64] != [0, 0] || (version == 1 && head[61] != 0) {
        return Err("bad value width in header".into());
    }
    variant_of_code(head[61]).ok_or_else(|| format!("unknown variant {} in header", head[61]))
}

/// The header of a table file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The rules the table was solved under.
    pub variant: Variant,
    /// The class.
    pub material: Material,
    /// Positions.
    pub positions: u64,
    /// Counts and longest distances.
    pub stats: TableStats,
}

/// An open table file whose header and index have been checked (read from a file, or
/// from any [`ReadAt`] source).
#[derive(Debug)]
pub struct TableFile<S: ReadAt = File> {
    file: S,
    path: PathBuf,
    /// The header.
    pub header: Header,
    /// Index arithmetic of the class.
    pub index: ClassIndex,
    offsets: Vec<u64>,
    sums: Vec<u64>,
    data_start: u64,
    value_bytes: usize,
    /// Positions per block.
    pub block_positions: usize,
}

fn le_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

fn le_u32(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

fn le_u16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

impl TableFile {
    /// Opens and checks a table file: magic, version, class, sizes, header checksum, and
    /// that the file is exactly as long as its index says. Errors name the file.
    pub fn open(path: &Path) -> Result<TableFile, String> {
        let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        TableFile::from_source(file, path)
    }
}

impl<S: ReadAt> TableFile<S> {
    /// Checks a table read from `file` as [`TableFile::open`] does; `path` names it in
    /// errors and its stem must be the class's name.
    pub fn from_source(file: S, path: &Path) -> Result<TableFile<S>, String> {
        let name = path.display();
        let bad = |what: &str| format!("{name}: {what}");
        let len = file.size().map_err(|e| bad(&e.to_string()))?;
        let mut head = vec![0u8; HEADER_LEN];
        file.read_exact_at(&mut head, 0)
            .map_err(|_| bad("truncated header"))?;
        let variant = header_variant(&head).map_err(|e| bad(&e))?;
        let material = Material {
            white_men: head[12],
            white_kings: head[13],
            black_men: head[14],
            black_kings: head[15],
        };
        if !material.is_valid() {
            return Err(bad("invalid class in header"));
        }
        // Before the class's index is built: a large class's index takes seconds, and a
        // file named for a small class must not make the reader build it.
        if material.name() != path.file_stem().and_then(|s| s.to_str()).unwrap_or("") {
            return Err(bad(&format!("holds class {}", material.name())));
        }
        let positions = le_u64(&head, 16);
        let index = ClassIndex::new(material);
        let block = le_u32(&head, 24) as usize;
        let blocks = le_u32(&head, 28) as usize;
        if positions != index.size
            || !block.is_power_of_two()
            || !(1024..=1 << 20).contains(&block)
            || blocks != (positions as usize).div_ceil(block)
        {
            return Err(bad("header sizes do not match the class"));
        }
        let stats = TableStats {
            wins: le_u64(&head, 32),
            losses: le_u64(&head, 40),
            draws: le_u64(&head, 48),
            longest_win: le_u16(&head, 56),
            longest_loss: le_u16(&head, 58),
        };
        let value_bytes = head[60] as usize;
        if value_bytes != 1 && value_bytes != 2 {
            return Err(bad("bad value width in header"));
        }
        let table_len = blocks * 16 + 16;
        if len < (HEADER_LEN + table_len) as u64 {
            return Err(bad("truncated index"));
        }
        let mut table = vec![0u8; table_len];
        file.read_exact_at(&mut table, HEADER_LEN as u64)
            .map_err(|_| bad("truncated index"))?;
        head.extend_from_slice(&table[..table_len - 8]);
        if fnv1a(&head) != le_u64(&table, table_len - 8) {
            return Err(bad("header checksum mismatch"));
        }
        let offsets: Vec<u64> = (0..=blocks).map(|i| le_u64(&table, 8 * i)).collect();
        let sums: Vec<u64> = (0..blocks)
            .map(|i| le_u64(&table, 8 * (blocks + 1 + i)))
            .collect();
        let data_start = (HEADER_LEN + table_len) as u64;
        // Checked: the offsets are any bytes the file holds.
        let end = data_start.checked_add(offsets[blocks]);
        if offsets.windows(2).any(|w| w[0] > w[1]) || end != Some(len) {
            return Err(bad(&format!(
                "file is {len} bytes, its index says {}",
                end.map_or("more".to_string(), |e| e.to_string())
            )));
        }
        Ok(TableFile {
            file,
            path: path.to_path_buf(),
            header: Header {
                variant,
                material,
                positions,
                stats,
            },
            index,
            offsets,
            sums,
            data_start,
            value_bytes,
            block_positions: block,
        })
    }

    /// Number of blocks.
    pub fn blocks(&self) -> usize {
        self.sums.len()
    }

    /// Size of the file in bytes.
    pub fn file_size(&self) -> u64 {
        self.data_start + self.offsets[self.blocks()]
    }

    /// Reads, checks and decompresses block `b`.
    pub fn read_block(&self, b: usize) -> Result<Vec<Code>, String> {
        let name = self.path.display();
        let (start, end) = (self.offsets[b], self.offsets[b + 1]);
        let mut raw = vec![0u8; (end - start) as usize];
        self.file
            .read_exact_at(&mut raw, self.data_start + start)
            .map_err(|e| format!("{name}: block {b}: {e}"))?;
        if fnv1a(&raw) != self.sums[b] {
            return Err(format!("{name}: block {b}: checksum mismatch"));
        }
        let size = self.block_positions;
        let want = size.min(self.header.positions as usize - b * size);
        let bytes = decompress(&raw, want * self.value_bytes)
            .map_err(|e| format!("{name}: block {b}: {e}"))?;
        if bytes.len() != want * self.value_bytes {
            return Err(format!("{name}: block {b}: wrong length"));
        }
        Ok(if self.value_bytes == 1 {
            bytes.into_iter().map(from_byte).collect()
        } else {
            bytes
                .chunks_exact(2)
                .map(|p| Code::from_le_bytes([p[0], p[1]]))
                .collect()
        })
    }

    /// Reads the whole table.
    pub fn read_all(&self) -> Result<SolvedTable, String> {
        let mut values = Vec::with_capacity(self.header.positions as usize);
        for b in 0..self.blocks() {
            values.extend_from_slice(&self.read_block(b)?);
        }
        Ok(SolvedTable {
            variant: self.header.variant,
            index: self.index.clone(),
            values,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_distances_are_stored_in_two_bytes() {
        use super::super::value::Outcome;
        let m = Material::from_name("0101").unwrap();
        let index = ClassIndex::new(m);
        let values: Vec<Code> = (0..index.size)
            .map(|i| Outcome::Win(1 + 2 * (i as u16 % 400)).encode())
            .collect();
        let table = SolvedTable {
            variant: Variant::Russian,
            index,
            values,
        };
        let dir = std::env::temp_dir().join(format!("damiera-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let stats = table.stats();
        assert_eq!(stats.longest_win, 799);
        write_table(&dir, &table, &stats).unwrap();
        let file = TableFile::open(&table_path(&dir, m)).unwrap();
        assert_eq!(file.value_bytes, 2);
        assert_eq!(file.header.variant, Variant::Russian);
        assert_eq!(file.header.stats, stats);
        assert_eq!(file.read_all().unwrap().values, table.values);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Found by fuzzing (fuzz/regressions/egdb/timeout-*): a file named for a small
    /// class whose header names a large one made the reader build the large class's
    /// index (seconds of work) before it compared the class with the name.
    #[test]
    fn a_header_naming_another_class_is_refused_before_its_index_is_built() {
        let m = Material::from_name("0101").unwrap();
        let index = ClassIndex::new(m);
        use super::super::value::Outcome;
        let values = vec![Outcome::Draw.encode(); index.size as usize];
        let table = SolvedTable {
            variant: Variant::Italian,
            index,
            values,
        };
        let mut bytes = table_bytes(&table, &table.stats(), 1024).unwrap();
        bytes[12..16].copy_from_slice(&[11, 0, 11, 0]);
        let err = TableFile::from_source(&bytes[..], Path::new("0101.egdb"))
            .err()
            .unwrap();
        assert!(err.ends_with("holds class 110110"), "{err}");
    }

    #[test]
    fn fnv_matches_the_reference() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
