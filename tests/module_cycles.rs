//! No two modules of `src/` need each other: the modules (one a file) and the paths each
//! names (`crate::…`, `super::…`, `self::…`, in `use` lists and in code) form a graph
//! without a cycle. A module naming its own ancestors or descendants is not counted: a
//! parent declares its children, and a child takes its parent's shared items.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every module of `src/` with its file's text, comments left out.
fn modules() -> BTreeMap<Module, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .iter()
        .filter(|f| !f.ends_with("main.rs"))
        .map(|file| {
            let relative = file.strip_prefix(&src).unwrap().with_extension("");
            let mut module: Module = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                module.pop();
            }
            let text = std::fs::read_to_string(file).unwrap();
            let code: Vec<&str> = text
                .lines()
                .map(|l| l.split("//").next().unwrap())
                .collect();
            (module, code.join("\n"))
        })
        .collect()
}

/// The paths `code` names from `crate`, `super` or `self`: each `use` list spread into its
/// paths, and every such path written in the code.
fn paths(code: &str) -> Vec<String> {
    fn spread(prefix: &str, list: &str, out: &mut Vec<String>) {
        let Some(open) = list.find('{') else {
            out.push(format!("{prefix}{list}"));
            return;
        };
        let head = format!("{prefix}{}", &list[..open]);
        let inner = &list[open + 1..list.rfind('}').unwrap_or(list.len())];
        let (mut depth, mut start) = (0, 0);
        for (at, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    spread(&head, &inner[start..at], out);
                    start = at + 1;
                }
                _ => {}
            }
        }
        spread(&head, &inner[start..], out);
    }
    let mut out = Vec::new();
    let squeezed: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    let word = |c: char| c.is_alphanumeric() || c == '_';
    for (at, _) in squeezed.match_indices("use") {
        let before = &squeezed[..at];
        let list = &squeezed[at + 3..];
        let starts = before.ends_with("pub") || !before.ends_with(word);
        if starts
            && ["crate::", "super::", "self::"]
                .iter()
                .any(|p| list.starts_with(p))
        {
            spread("", &list[..list.find(';').unwrap_or(list.len())], &mut out);
        }
    }
    for root in ["crate::", "super::", "self::"] {
        for (at, _) in squeezed.match_indices(root) {
            if squeezed[..at].ends_with(word) {
                continue;
            }
            let end = squeezed[at..]
                .find(|c: char| !(word(c) || c == ':'))
                .map_or(squeezed.len(), |n| at + n);
            out.push(squeezed[at..end].to_owned());
        }
    }
    out
}

/// The module `path`, named in `from`, lies in: its longest prefix that is a module.
fn target(path: &str, from: &Module, known: &BTreeSet<Module>) -> Option<Module> {
    let mut parts = path.split("::").filter(|p| !p.is_empty() && *p != "*");
    let mut module = match parts.next()? {
        "crate" => Vec::new(),
        "super" => from[..from.len().saturating_sub(1)].to_vec(),
        "self" => from.clone(),
        _ => return None,
    };
    let mut rest: Vec<&str> = parts.collect();
    while rest.first() == Some(&"super") {
        module.pop();
        rest.remove(0);
    }
    module.extend(rest.iter().map(|s| s.to_string()));
    while !module.is_empty() && !known.contains(&module) {
        module.pop();
    }
    Some(module)
}

/// The modules that lie on a cycle, each cycle once (Tarjan's strongly connected
/// components of more than one module).
fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        found: Vec<Vec<Module>>,
    }
    impl Walk<'_> {
        fn visit(&mut self, v: &Module) {
            let n = self.index.len();
            self.index.insert(v.clone(), n);
            self.low.insert(v.clone(), n);
            self.stack.push(v.clone());
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v.clone(), low);
                } else if self.stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v.clone(), low);
                }
            }
            if self.low[v] == self.index[v] {
                let at = self.stack.iter().rposition(|m| m == v).unwrap();
                let component = self.stack.split_off(at);
                if component.len() > 1 {
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

fn edges(modules: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let known: BTreeSet<Module> = modules.keys().cloned().collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (from, code) in modules {
        for path in paths(code) {
            let Some(to) = target(&path, from, &known) else {
                continue;
            };
            if to.starts_with(from) || from.starts_with(&to) {
                continue;
            }
            edges.entry(from.clone()).or_default().insert(to);
        }
    }
    edges
}

#[test]
fn no_two_modules_need_each_other() {
    let modules = modules();
    assert!(modules.len() > 200, "{} modules", modules.len());
    let edges = edges(&modules);
    let found: Vec<String> = cycles(&edges)
        .iter()
        .map(|c| {
            c.iter()
                .map(|m| m.join("::"))
                .collect::<Vec<_>>()
                .join(" <-> ")
        })
        .collect();
    assert!(found.is_empty(), "modules that need each other: {found:#?}");
}

#[test]
fn the_check_sees_a_cycle_where_there_is_one() {
    let modules: BTreeMap<Module, String> = [
        (vec![], "mod a; mod b;".to_owned()),
        (vec!["a".into()], "use super::b::Thing;".to_owned()),
        (vec!["b".into()], "fn f() { crate::a::g() }".to_owned()),
        (
            vec!["c".into()],
            "use crate::{a, b::{Thing, Other}};".to_owned(),
        ),
    ]
    .into_iter()
    .collect();
    let edges = edges(&modules);
    assert_eq!(edges[&vec!["c".to_owned()]].len(), 2, "{edges:?}");
    let found = cycles(&edges);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].len(), 2);
}
