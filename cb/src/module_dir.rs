//! The folder the engine library was loaded from (CheckerBoard's `engines` folder), where
//! its settings file, help page and optionally its `egdb` folder are.
//!
//! This module opts in to `unsafe`: only the operating system (`dladdr`,
//! `GetModuleHandleExW`) can say which file an address belongs to; SAFETY comments at
//! each call.
#![allow(unsafe_code)]

use std::path::PathBuf;

/// The folder of the loaded library, if the system can tell.
pub fn dll_dir() -> Option<PathBuf> {
    let file = library_file()?;
    file.parent().map(PathBuf::from)
}

/// Any address inside this library.
fn marker() -> *const std::ffi::c_void {
    dll_dir as *const std::ffi::c_void
}

#[cfg(windows)]
fn library_file() -> Option<PathBuf> {
    use std::ffi::c_void;
    use std::os::windows::ffi::OsStringExt;
    const FROM_ADDRESS: u32 = 0x4;
    const UNCHANGED_REFCOUNT: u32 = 0x2;
    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn GetModuleHandleExW(flags: u32, name: *const c_void, module: *mut *mut c_void) -> i32;
        fn GetModuleFileNameW(module: *mut c_void, name: *mut u16, size: u32) -> u32;
    }
    let mut module = std::ptr::null_mut();
    // SAFETY: with FROM_ADDRESS the name argument is an address in this module, and
    // `module` is a valid out pointer.
    let ok =
        unsafe { GetModuleHandleExW(FROM_ADDRESS | UNCHANGED_REFCOUNT, marker(), &mut module) };
    if ok == 0 {
        return None;
    }
    let mut buf = vec![0u16; 32_768];
    // SAFETY: `buf` holds `buf.len()` u16s; the call writes at most that many.
    let n = unsafe { GetModuleFileNameW(module, buf.as_mut_ptr(), buf.len() as u32) } as usize;
    (n > 0 && n < buf.len()).then(|| PathBuf::from(std::ffi::OsString::from_wide(&buf[..n])))
}

#[cfg(unix)]
fn library_file() -> Option<PathBuf> {
    use std::ffi::{CStr, c_char, c_int, c_void};
    use std::os::unix::ffi::OsStrExt;
    #[repr(C)]
    struct DlInfo {
        fname: *const c_char,
        fbase: *mut c_void,
        sname: *const c_char,
        saddr: *mut c_void,
    }
    unsafe extern "C" {
        fn dladdr(addr: *const c_void, info: *mut DlInfo) -> c_int;
    }
    let mut info = DlInfo {
        fname: std::ptr::null(),
        fbase: std::ptr::null_mut(),
        sname: std::ptr::null(),
        saddr: std::ptr::null_mut(),
    };
    // SAFETY: `info` is a valid out pointer; the address is inside this library.
    if unsafe { dladdr(marker(), &mut info) } == 0 || info.fname.is_null() {
        return None;
    }
    // SAFETY: dladdr returned a NUL-terminated file name owned by the loader.
    let name = unsafe { CStr::from_ptr(info.fname) };
    Some(PathBuf::from(std::ffi::OsStr::from_bytes(name.to_bytes())))
}

#[cfg(not(any(unix, windows)))]
fn library_file() -> Option<PathBuf> {
    None
}
