//! The layer rule as a test: every `crate::…` path in `src/` goes down the layers that
//! docs/architecture.md lists ("Checking the rule"), never up, never across, never into a
//! forbidden layer; no module outside the table; and no two files using each other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The lines of docs/architecture.md's fenced block whose info string is `info`.
fn block(doc: &str, info: &str) -> Vec<String> {
    let fence = format!("```{info}\n");
    let start = doc
        .find(&fence)
        .unwrap_or_else(|| panic!("docs/architecture.md has no ```{info} block"))
        + fence.len();
    let end = start + doc[start..].find("```").expect("the block ends");
    doc[start..end]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

/// Each module's layer, from the top (0).
fn layers(doc: &str) -> BTreeMap<String, usize> {
    let mut at = BTreeMap::new();
    for (i, line) in block(doc, "layers").iter().enumerate() {
        for module in line.split_whitespace() {
            assert!(
                at.insert(module.to_owned(), i).is_none(),
                "{module} is in two layers"
            );
        }
    }
    at
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file's module path under `src/` (`relay::state`, `journal`), or `None` for the binary.
fn module_of(file: &Path) -> Option<Vec<String>> {
    let rel = file.strip_prefix(root().join("src")).expect("under src");
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    Some(parts)
}

/// Test code, outside the rule: `tests.rs` files and the link's test harnesses.
fn is_test_file(module: &[String]) -> bool {
    let path = module.join("::");
    module
        .last()
        .is_some_and(|m| m == "tests" || m == "proptests")
        || path == "transport::link::badline"
        || path.starts_with("transport::link::simulation")
}

/// The code of a file without its `#[cfg(test)]` module and its comments.
fn code(text: &str) -> String {
    let end = text
        .match_indices("#[cfg(test)]")
        .find(|(at, _)| text[at + 12..].trim_start().starts_with("mod "))
        .map_or(text.len(), |(at, _)| at);
    text[..end]
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::a::b::…` path in `code`, as its segments; a group (`crate::a::{b, c::d}`)
/// gives one path for each of its items.
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    paths_after(code, "crate::")
}

/// Every path that follows `prefix` in `code` (not inside a longer name), groups expanded.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().last();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `$crate::`, `my_crate::`
        }
        out.extend(expand(rest));
    }
    out
}

/// The paths written at the start of `text`: `a::b`, or `a::{b, c::{d, e}}` as `a::b`,
/// `a::c::d`, `a::c::e` (`self` in a group names the path before it).
fn expand(text: &str) -> Vec<Vec<String>> {
    let head: String = text
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
        .collect();
    let segments: Vec<String> = head
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    let after = &text[head.len()..];
    if !((head.is_empty() || head.ends_with("::")) && after.starts_with('{')) {
        return vec![segments];
    }
    let mut depth = 0;
    let mut items = Vec::new();
    let mut start = 1;
    for (i, c) in after.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    items.push(&after[start..i]);
                    break;
                }
            }
            ',' if depth == 1 => {
                items.push(&after[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for item in items {
        for tail in expand(item.trim_start()) {
            let mut path = segments.clone();
            path.extend(tail.into_iter().filter(|s| s != "self"));
            out.push(path);
        }
    }
    out
}

#[test]
fn imports_only_go_down_the_layers_and_no_two_files_use_each_other() {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).expect("doc");
    let at = layers(&doc);
    let forbidden: BTreeSet<(String, String)> = block(&doc, "layers-forbidden")
        .iter()
        .map(|l| {
            let mut words = l.split_whitespace();
            (
                words.next().expect("from").to_owned(),
                words.next().expect("to").to_owned(),
            )
        })
        .collect();
    let mut files = Vec::new();
    sources(&root().join("src"), &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().filter_map(|f| module_of(f)).collect();
    let mut problems = Vec::new();
    // Which file uses which, for the pairs check.
    let mut uses: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for file in &files {
        let Some(module) = module_of(file) else {
            continue;
        };
        let Some(top) = module.first().cloned() else {
            continue; // lib.rs declares the modules
        };
        let Some(&layer) = at.get(&top) else {
            problems.push(format!(
                "src/{top}: a module in no layer of docs/architecture.md"
            ));
            continue;
        };
        if is_test_file(&module) {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("source");
        for path in crate_paths(&code(&text)) {
            let Some(target) = path.first() else {
                continue;
            };
            // The longest module the path names is what this file uses.
            let used = (1..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|p| modules.contains(p));
            if let Some(used) = used
                && used != module
            {
                uses.entry(module.clone()).or_default().insert(used);
            }
            if *target == top {
                continue;
            }
            let name = module.join("::");
            match at.get(target) {
                None => problems.push(format!("{name} uses crate::{target}, in no layer")),
                Some(&to) if to <= layer => problems.push(format!(
                    "{name} uses crate::{} ({target} is not below {top})",
                    path.join("::")
                )),
                Some(_) if forbidden.contains(&(top.clone(), target.clone())) => {
                    problems.push(format!(
                        "{name} uses crate::{} ({top} may not use {target})",
                        path.join("::")
                    ))
                }
                Some(_) => {}
            }
        }
        // `super::x` names the sibling module x: the module's parent, then x (the parent of
        // `relay::state` is `relay`; of `relay`, from its `mod.rs`, the crate).
        let parent = &module[..module.len() - 1];
        for path in paths_after(&code(&text), "super::") {
            let Some(name) = path.first() else { continue };
            let mut sibling = parent.to_vec();
            sibling.push(name.clone());
            if modules.contains(&sibling) && sibling != module {
                uses.entry(module.clone()).or_default().insert(sibling);
            }
        }
    }
    for (a, used) in &uses {
        for b in used {
            // A module's own children are its business (mod.rs declares them).
            if b.starts_with(a) || a.starts_with(b) {
                continue;
            }
            if a < b && uses.get(b).is_some_and(|u| u.contains(a)) {
                problems.push(format!(
                    "{} and {} use each other",
                    a.join("::"),
                    b.join("::")
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "the layer rule (docs/architecture.md):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_rule_sees_an_import_that_runs_up() {
    let code = code(
        "use crate::relay::Mailbox;\n// use crate::server;\nfn f() { crate::journal::x(); }\n#[cfg(test)]\nmod tests { use crate::server; }\n",
    );
    let paths = crate_paths(&code);
    assert_eq!(
        paths,
        [
            vec!["relay".to_owned(), "Mailbox".to_owned()],
            vec!["journal".to_owned(), "x".to_owned()],
        ]
    );
}

/// A group of imports (`use super::{Entry, store};`) hid the modules inside it, so
/// journal::chain and journal::store used each other unseen.
#[test]
fn regression_a_group_of_imports_hid_the_modules_in_it() {
    let words = |paths: Vec<Vec<String>>| -> Vec<String> {
        paths.into_iter().map(|p| p.join("::")).collect()
    };
    assert_eq!(
        words(paths_after(
            "use super::{Entry, EntryKind, store};",
            "super::"
        )),
        ["Entry", "EntryKind", "store"]
    );
    assert_eq!(
        words(crate_paths(
            "use crate::journal::{self, store::{tail, entry}, chain};\nfn f() { crate::game::x(); }"
        )),
        [
            "journal",
            "journal::store::tail",
            "journal::store::entry",
            "journal::chain",
            "game::x"
        ]
    );
}
