//! How much memory tiao may ask for: the machine's available memory, read once per request, and
//! the check every large allocation (transposition tables, one per engine) goes through first.
//!
//! A request that the machine cannot meet is refused up front with the figures ([`MemoryError`]),
//! instead of an allocation that aborts the process (a failed `alloc` calls the global
//! allocation error handler) or, with Linux's overcommit, one that succeeds and lets the kernel
//! kill the process when the pages are first written.
//!
//! Available memory (Linux): `MemAvailable` of `/proc/meminfo`, lowered to what the cgroup v2
//! memory limits leave (`memory.max - memory.current` of the process's cgroup and of each cgroup
//! above it: a limit set on a parent binds too). Elsewhere it is unknown and only the allocation
//! itself can fail. Each request is compared alone with that figure, read at the request.
//!
//! [`LIMIT_ENV`] (`TIAO_MEMORY_MIB`), a number of MiB, is a test knob: an upper bound on the
//! available memory tiao believes in, so that tests can see a refusal without a machine that is
//! short of memory. It is not a cap on tiao's total use: like the machine's figure, it is
//! compared with each request alone, not lowered by the tables tiao already holds.

use std::fmt;

/// The environment variable that bounds the memory tiao believes available, in MiB (a test knob:
/// see the module documentation).
pub const LIMIT_ENV: &str = "TIAO_MEMORY_MIB";

/// Bytes in one MiB.
pub const MIB: u64 = 1 << 20;

/// A memory request that was refused or failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryError {
    /// More than the machine has available (both in MiB).
    Unavailable {
        what: String,
        requested_mib: u64,
        available_mib: u64,
    },
    /// The allocation itself failed (or its size does not fit the address space).
    AllocFailed { what: String, requested_mib: u64 },
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryError::Unavailable {
                what,
                requested_mib,
                available_mib,
            } => write!(
                f,
                "{what}: {requested_mib} MiB requested, but only {available_mib} MiB of memory is \
                 available (give a smaller size)"
            ),
            MemoryError::AllocFailed {
                what,
                requested_mib,
            } => write!(
                f,
                "{what}: {requested_mib} MiB requested, and the system refused it (give a smaller \
                 size)"
            ),
        }
    }
}

impl std::error::Error for MemoryError {}

/// The memory available now, in MiB, if it can be known (see the module documentation).
pub fn available_mib() -> Option<u64> {
    let machine = system_available_bytes().map(|b| b / MIB);
    let cap = std::env::var(LIMIT_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok());
    match (machine, cap) {
        (Some(m), Some(c)) => Some(m.min(c)),
        (m, c) => m.or(c),
    }
}

/// Refuses a request of `requested_mib` MiB for `what` (named in the message: `hash`, `--jobs 4
/// x --hash 512`) when it is more than the available memory.
pub fn check(what: &str, requested_mib: u64) -> Result<(), MemoryError> {
    match available_mib() {
        Some(available_mib) if requested_mib > available_mib => Err(MemoryError::Unavailable {
            what: what.to_string(),
            requested_mib,
            available_mib,
        }),
        _ => Ok(()),
    }
}

#[cfg(target_os = "linux")]
fn system_available_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib = meminfo.lines().find_map(|l| {
        let rest = l.strip_prefix("MemAvailable:")?;
        rest.trim()
            .trim_end_matches("kB")
            .trim()
            .parse::<u64>()
            .ok()
    })?;
    let mut bytes = kib.saturating_mul(1024);
    if let Some(left) = cgroup_left_bytes() {
        bytes = bytes.min(left);
    }
    Some(bytes)
}

#[cfg(not(target_os = "linux"))]
fn system_available_bytes() -> Option<u64> {
    None
}

/// What the cgroup v2 memory limits of the process leave, if any: the least left by its cgroup
/// and the cgroups above it.
#[cfg(target_os = "linux")]
fn cgroup_left_bytes() -> Option<u64> {
    let cgroup = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    cgroup_left_in(std::path::Path::new("/sys/fs/cgroup"), &cgroup)
}

/// [`cgroup_left_bytes`] for the cgroup v2 hierarchy mounted at `root` and the process's
/// `/proc/self/cgroup` text.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn cgroup_left_in(root: &std::path::Path, cgroup: &str) -> Option<u64> {
    // `0::/some/path` is the cgroup v2 line.
    let path = cgroup.lines().find_map(|l| l.strip_prefix("0::"))?;
    let leaf = root.join(path.trim().trim_start_matches('/'));
    leaf.ancestors()
        .take_while(|dir| dir.starts_with(root) && *dir != root)
        .filter_map(|dir| {
            let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
            let max: u64 = read("memory.max")?.trim().parse().ok()?; // "max": no limit
            let current: u64 = read("memory.current")?.trim().parse().ok()?;
            Some(max.saturating_sub(current))
        })
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_requests_are_refused_with_the_figures() {
        // No machine this runs on has an exbibyte available.
        if available_mib().is_none() {
            return;
        }
        let e = check("hash", 1 << 40).unwrap_err();
        let text = e.to_string();
        assert!(
            text.starts_with("hash: 1099511627776 MiB requested"),
            "{text}"
        );
        assert!(text.contains("available"), "{text}");
        assert!(check("a small table", 1).is_ok());
    }

    #[test]
    fn a_parent_cgroup_s_limit_binds_too() {
        let root = std::env::temp_dir().join(format!("tiao-cgroup-{}", std::process::id()));
        let leaf = root.join("a/b");
        std::fs::create_dir_all(&leaf).unwrap();
        let set = |dir: &std::path::Path, max: &str, current: &str| {
            std::fs::write(dir.join("memory.max"), max).unwrap();
            std::fs::write(dir.join("memory.current"), current).unwrap();
        };
        set(&root.join("a"), "1000\n", "100\n");
        set(&leaf, "max\n", "50\n");
        assert_eq!(cgroup_left_in(&root, "1:cpu:/\n0::/a/b\n"), Some(900));
        // A tighter limit below wins.
        set(&leaf, "500\n", "50\n");
        assert_eq!(cgroup_left_in(&root, "0::/a/b\n"), Some(450));
        // No limit anywhere, or no cgroup v2 line.
        set(&root.join("a"), "max\n", "100\n");
        set(&leaf, "max\n", "50\n");
        assert_eq!(cgroup_left_in(&root, "0::/a/b\n"), None);
        assert_eq!(cgroup_left_in(&root, "4:memory:/x\n"), None);
        let _ = std::fs::remove_dir_all(&root);
    }
}
