//! Finds or builds metatensor-go's libmetatensor and links it:
//!
//! - `METATENSOR_LIB_DIR`: a directory holding `libmetatensor.so` (or `libmetatensor.a` with
//!   the `static` feature), used as it is;
//! - otherwise, when `METATENSOR_USE_PKG_CONFIG` is set, the `libdir` of the `metatensor`
//!   pkg-config package;
//! - otherwise the library is built from the Go sources of the repository this crate lives
//!   in, with `go build` (`GO` names the go command, `go` by default).
//!
//! The library is copied into `OUT_DIR/lib` in the first two cases too: cargo puts the search
//! paths under `OUT_DIR` on the library path of `cargo test` and `cargo run`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for var in [
        "METATENSOR_LIB_DIR",
        "METATENSOR_USE_PKG_CONFIG",
        "PKG_CONFIG_PATH",
        "PKG_CONFIG_LIBDIR",
        "GO",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }

    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let lib_dir = out_dir.join("lib");
    std::fs::create_dir_all(&lib_dir).expect("can not create OUT_DIR/lib");
    let file = library_file();
    let target = lib_dir.join(file);

    match given_lib_dir() {
        Some(dir) => {
            let source = dir.join(file);
            println!("cargo:rerun-if-changed={}", source.display());
            if let Err(e) = std::fs::copy(&source, &target) {
                panic!("can not copy {}: {e}", source.display());
            }
        }
        None => build_from_source(&target),
    }

    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    // the directory, for the crates depending on this one (DEP_METATENSOR_LIB_DIR)
    println!("cargo:lib_dir={}", lib_dir.display());
    if cfg!(feature = "static") {
        // what the Go runtime inside the archive needs from the C library
        println!("cargo:rustc-link-lib=dylib=pthread");
        println!("cargo:rustc-link-lib=dylib=dl");
        println!("cargo:rustc-link-lib=dylib=m");
    }
}

fn library_file() -> &'static str {
    if cfg!(feature = "static") {
        "libmetatensor.a"
    } else {
        "libmetatensor.so"
    }
}

/// The directory the user names, directly or through pkg-config.
fn given_lib_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("METATENSOR_LIB_DIR") {
        return Some(PathBuf::from(dir));
    }
    std::env::var_os("METATENSOR_USE_PKG_CONFIG")?;
    let output = Command::new("pkg-config")
        .args(["--variable=libdir", "metatensor"])
        .output()
        .unwrap_or_else(|e| {
            panic!("METATENSOR_USE_PKG_CONFIG is set, but pkg-config can not run: {e}")
        });
    if !output.status.success() {
        panic!(
            "pkg-config does not know the metatensor package: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let dir = String::from_utf8(output.stdout).expect("pkg-config printed a non UTF-8 path");
    Some(PathBuf::from(dir.trim()))
}

/// Builds the library with `go build` from the repository holding this crate:
/// bindings/rust/metatensor-sys is three levels below its root.
fn build_from_source(target: &Path) {
    let manifest = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let root = manifest.join("../../..");
    let package = root.join("bindings/c");
    if !package.join("main.go").is_file() || !root.join("go.mod").is_file() {
        panic!(
            "metatensor-sys: the Go sources of libmetatensor are not at {}; set METATENSOR_LIB_DIR to a \
             directory holding {} (or METATENSOR_USE_PKG_CONFIG to find it with pkg-config)",
            root.display(),
            library_file()
        );
    }
    let root = root
        .canonicalize()
        .expect("the repository root is readable");
    for dir in ["bindings/c", "internal"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }
    println!("cargo:rerun-if-changed={}", root.join("go.mod").display());

    let go = std::env::var_os("GO").unwrap_or_else(|| "go".into());
    let mode = if cfg!(feature = "static") {
        "c-archive"
    } else {
        "c-shared"
    };
    let mut command = Command::new(&go);
    command
        .current_dir(&root)
        .arg("build")
        .arg(format!("-buildmode={mode}"));
    if !cfg!(feature = "static") {
        // the soname of the reference's library, as the Makefile builds it
        command.args(["-ldflags", "-extldflags -Wl,-soname,libmetatensor.so"]);
    }
    command.arg("-o").arg(target).arg("./bindings/c");
    let status = command.status().unwrap_or_else(|e| {
        panic!(
            "metatensor-sys builds libmetatensor with Go, but `{}` can not run ({e}): install Go \
             (https://go.dev/dl), name it with GO=..., or set METATENSOR_LIB_DIR to a directory \
             holding {}",
            Path::new(&go).display(),
            library_file()
        )
    });
    if !status.success() {
        panic!(
            "`go build -buildmode={mode} ./bindings/c` failed in {}",
            root.display()
        );
    }
}
