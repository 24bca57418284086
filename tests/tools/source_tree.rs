//! The source tree's shape: imports run from the top floor down, so the modules at the top of
//! `src/` import one another without a circle (a module reaching a higher floor shows up as
//! one, as `time.rs` and the search did).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level module a file under `src/` belongs to (`search` for `src/search/tt.rs`).
fn top_module(rel: &Path) -> String {
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// Every `crate::name` a file's code (comments left out) refers to.
fn crate_refs(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let after = &rest[i + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
            rest = after;
        }
    }
    out
}

fn walk(dir: &Path, root: &Path, edges: &mut BTreeMap<String, BTreeSet<String>>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, root, edges);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap();
            let top = top_module(rel);
            // The binary (main.rs, cli/) and the crate root sit above every floor.
            if matches!(top.as_str(), "main" | "cli" | "lib") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let set = edges.entry(top.clone()).or_default();
            set.extend(crate_refs(&text).into_iter().filter(|m| *m != top));
        }
    }
}

/// A circle of the graph, if any (depth-first search with the path on a stack).
fn find_circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        v: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == v) {
            let mut circle = path[i..].to_vec();
            circle.push(v.to_string());
            return Some(circle);
        }
        if done.contains(v) {
            return None;
        }
        path.push(v.to_string());
        for w in edges.get(v).into_iter().flatten() {
            if let Some(c) = visit(w, edges, done, path) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(v.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for v in edges.keys() {
        if let Some(c) = visit(v, edges, &mut done, &mut Vec::new()) {
            return Some(c);
        }
    }
    None
}

#[test]
fn the_top_level_modules_import_one_another_without_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut edges = BTreeMap::new();
    walk(&root, &root, &mut edges);
    assert!(edges.len() > 10, "read the tree: {edges:?}");
    if let Some(circle) = find_circle(&edges) {
        panic!(
            "import circle between top-level modules: {}",
            circle.join(" -> ")
        );
    }
}

#[test]
fn the_circle_finder_finds_one() {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    edges.entry("a".into()).or_default().insert("b".into());
    edges.entry("b".into()).or_default().insert("c".into());
    assert_eq!(find_circle(&edges), None);
    edges.entry("c".into()).or_default().insert("a".into());
    assert_eq!(find_circle(&edges).unwrap(), ["a", "b", "c", "a"]);
    let refs = crate_refs("use crate::game::Game; // crate::search\nlet x = crate::tt_like;");
    assert_eq!(refs.into_iter().collect::<Vec<_>>(), ["game", "tt_like"]);
}

/// What the repository's top level holds (the guide's layout, with the embedded data files, the
/// interop clients' Python and the tool settings); anything else there is a stray file (a log
/// or a run's output written into the checkout), which no other test would notice.
const TOP_LEVEL: [&str; 14] = [
    ".cargo",
    ".ci",
    ".gitignore",
    "Cargo.lock",
    "Cargo.toml",
    "README.md",
    "benches",
    "books",
    "docs",
    "protocol.md",
    "python",
    "src",
    "tests",
    "weights",
];

/// The top-level entries of the checkout: what git tracks and would add (untracked files not
/// ignored), or, without git, the directory's entries but those `.gitignore` and git keep out.
fn top_level_entries(root: &Path) -> BTreeSet<String> {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
    };
    let first = |path: &str| path.split('/').next().unwrap_or(path).to_string();
    match (
        git(&["ls-files"]),
        git(&["ls-files", "--others", "--exclude-standard"]),
    ) {
        (Some(tracked), Some(untracked)) if !tracked.is_empty() => tracked
            .lines()
            .chain(untracked.lines())
            .map(first)
            .collect(),
        _ => std::fs::read_dir(root)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| ![".git", "target", ".venv"].contains(&n.as_str()))
            .collect(),
    }
}

#[test]
fn the_top_level_holds_only_the_project_s_entries() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = top_level_entries(root);
    for needed in ["Cargo.toml", "src", "tests", "README.md", "protocol.md"] {
        assert!(found.contains(needed), "{needed} not found in {found:?}");
    }
    let stray: Vec<&String> = found
        .iter()
        .filter(|n| !TOP_LEVEL.contains(&n.as_str()))
        .collect();
    assert!(
        stray.is_empty(),
        "files at the repository's top level that are not the project's (move them out, or \
         add them to TOP_LEVEL in tests/tools/source_tree.rs if they belong): {stray:?}"
    );
}
