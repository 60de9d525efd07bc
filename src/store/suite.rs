//! The store's behaviour above the engine, run once on sled and once in memory: a catalogue
//! imported into either answers alike, checks sound, and leaves nothing of a dry run.

use std::net::Ipv4Addr;

use super::{AuditEntry, Scope, Store, check};
use crate::import::{Quiet, Verdict};

/// A store on each engine, with the directory each uses for files.
fn stores() -> Vec<(&'static str, Store, tempfile::TempDir)> {
    let on_disk = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    vec![
        (
            "sled",
            Store::open(&on_disk.path().join("data")).unwrap(),
            on_disk,
        ),
        ("memory", Store::in_memory(scratch.path()).unwrap(), scratch),
    ]
}

fn load_demo(store: &Store) -> u64 {
    let report = crate::demo::load_demo_catalogue(store, &Quiet)
        .unwrap()
        .unwrap();
    match report.verdict {
        Verdict::Committed { data_version } => data_version,
        other => panic!("the demo catalogue was not committed: {other:?}"),
    }
}

#[test]
fn a_catalogue_reads_and_checks_the_same_on_every_engine() {
    let mut checksums = Vec::new();
    for (engine, store, _dir) in stores() {
        assert!(store.catalogue().is_empty(), "{engine}");
        assert_eq!(load_demo(&store), 1, "{engine}");
        let report = check::check(&store).unwrap();
        assert!(report.is_sound(), "{engine}: {:?}", report.problems);
        let c = store.catalogue();
        let first = c.articles_of_brand(1).next().unwrap().unwrap();
        assert_eq!(
            c.articles_by_reference(&first.reference).unwrap(),
            vec![first.key.clone()],
            "{engine}"
        );
        let links = c.links_of(&first.key).unwrap();
        assert!(!links.is_empty(), "{engine}");
        for link in links {
            assert!(
                c.articles_by_ktype(&link.ktype)
                    .unwrap()
                    .contains(&first.key),
                "{engine}"
            );
        }
        checksums.push((report.checksum, report.counts));
    }
    assert_eq!(
        checksums[0], checksums[1],
        "sled and memory hold the same catalogue"
    );
}

#[test]
fn a_dry_run_and_an_abandoned_change_leave_the_trees_as_they_were() {
    for (engine, store, _dir) in stores() {
        // Into an empty store, every reference is to a row the same dry run staged.
        let empty = store.trees_on_disk();
        let report =
            crate::import::import(&store, &crate::demo::demo_files(), true, &Quiet).unwrap();
        assert!(matches!(report.verdict, Verdict::DryRun), "{engine}");
        assert!(
            report.files.iter().all(|f| f.rejected == 0 && f.added > 0),
            "{engine}"
        );
        assert_eq!(store.trees_on_disk(), empty, "{engine}");
        load_demo(&store);
        let before = store.trees_on_disk();
        let report =
            crate::import::import(&store, &crate::demo::demo_files(), true, &Quiet).unwrap();
        assert!(matches!(report.verdict, Verdict::DryRun), "{engine}");
        drop(store.begin(false).unwrap());
        assert_eq!(store.trees_on_disk(), before, "{engine}");
        assert!(
            store.begin(false).is_ok(),
            "{engine}: the writer is free again"
        );
    }
}

#[test]
fn the_disk_bound_of_a_rewrite_covers_the_tables_it_rewrites() {
    use super::layout::TreeName;
    for (engine, store, _dir) in stores() {
        load_demo(&store);
        let c = store.catalogue();
        let stored = |tree: TreeName| -> u64 {
            let name = tree.stored_name(c.manifest().generation_of(tree).unwrap());
            let entries = store.db.open_tree(&name).unwrap().iter();
            entries.map(|e| e.unwrap().1.len() as u64).sum()
        };
        let rewritten = [
            TreeName::Articles,
            TreeName::RefnormArticle,
            TreeName::CrossnumArticle,
            TreeName::GenartKtypeArticle,
            TreeName::RefrevReference,
            TreeName::CrossrevNumber,
            TreeName::ArticleIds,
        ];
        let bound = c.rewrite_bound(&[TreeName::Articles]).unwrap();
        let actual: u64 = rewritten.iter().map(|&t| stored(t)).sum();
        assert!(
            bound >= actual && actual > 0,
            "{engine}: {bound} < {actual}"
        );
        let prices = c.rewrite_bound(&[TreeName::Prices]).unwrap();
        assert!(
            prices >= stored(TreeName::Prices) && prices < bound,
            "{engine}"
        );
    }
}

#[test]
fn providers_grants_and_audit_round_trip() {
    for (engine, store, _dir) in stores() {
        let key = store
            .put_provider("p1", "One", vec![Scope::Read], None)
            .unwrap();
        assert_eq!(
            store.provider_of_key(&key).unwrap().as_deref(),
            Some("p1"),
            "{engine}"
        );
        let ip = Ipv4Addr::new(10, 0, 0, 7);
        store.grant_address("p1", ip, 100).unwrap();
        store.grant_address("p1", ip, 200).unwrap();
        assert_eq!(
            store.address_grant("p1", ip).unwrap(),
            Some(200),
            "{engine}"
        );
        for at in [5, 6, 7] {
            store
                .record_audit(&AuditEntry {
                    at,
                    operator: "cli".into(),
                    action: "provider.create".into(),
                    provider: "p1".into(),
                    detail: format!("entry {at}"),
                })
                .unwrap();
        }
        let newest: Vec<u64> = store
            .audit_entries(2)
            .unwrap()
            .iter()
            .map(|e| e.at)
            .collect();
        assert_eq!(newest, [6, 7], "{engine}");
        assert_eq!(store.trim_audit(7).unwrap(), 2, "{engine}");
        assert!(store.delete_provider("p1").unwrap(), "{engine}");
        assert_eq!(store.provider_of_key(&key).unwrap(), None, "{engine}");
        assert_eq!(store.address_grant("p1", ip).unwrap(), None, "{engine}");
    }
}

#[test]
fn an_article_keeps_its_numeric_id_across_imports_and_a_retired_id_is_not_given_again() {
    use crate::catalogue::Article;
    for (engine, store, _dir) in stores() {
        load_demo(&store);
        let ids = |store: &Store| -> Vec<(Article, u32)> {
            let c = store.catalogue();
            c.records::<Article>()
                .map(|a| {
                    let a = a.unwrap();
                    let id = c
                        .article_id(&a.key)
                        .unwrap()
                        .expect("every article has an id");
                    assert_eq!(c.article_by_id(id).unwrap().as_ref(), Some(&a.key));
                    (a, id)
                })
                .collect()
        };
        let before = ids(&store);
        let max = before.iter().map(|(_, id)| *id).max().unwrap();
        let mut unique: Vec<u32> = before.iter().map(|(_, id)| *id).collect();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), before.len(), "{engine}: ids are unique");

        // A new article, keyed between the existing ones, takes the next id.
        let mut new = before[0].0.clone();
        new.key.reference.push_str("NEW1");
        new.reference.push_str(" NEW1");
        let origin = super::Origin { file: 0, line: 1 };
        let commit = |change: &dyn Fn(&mut super::Staging<'_>)| {
            let mut staging = store.begin(false).unwrap();
            change(&mut staging);
            staging.seal().unwrap();
            staging.commit(&mut |_| {}).unwrap();
        };
        commit(&|s| s.put(&new, origin).unwrap());
        let after = ids(&store);
        for (article, id) in &before {
            assert!(after.contains(&(article.clone(), *id)), "{engine}: kept");
        }
        assert!(after.contains(&(new.clone(), max + 1)), "{engine}: next");

        // Retired, its id stays retired: the next new article takes the one after.
        let mut newer = new.clone();
        newer.key.reference.push('2');
        commit(&|s| {
            s.retire(&new, origin).unwrap();
            s.put(&newer, origin).unwrap();
        });
        let c = store.catalogue();
        assert_eq!(c.article_by_id(max + 1).unwrap(), None, "{engine}");
        assert_eq!(c.article_id(&newer.key).unwrap(), Some(max + 2), "{engine}");
        assert!(check::check(&store).unwrap().is_sound(), "{engine}");
    }
}

#[test]
fn a_tree_whose_blocks_do_not_decode_is_named_by_the_probe_and_the_check() {
    use super::engine::Batch;
    use super::layout::TreeName;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data");
    {
        let store = Store::open(&path).unwrap();
        load_demo(&store);
        assert!(check::probe(&store).is_ok());
        let c = store.catalogue();
        let name =
            TreeName::Vehicles.stored_name(c.manifest().generation_of(TreeName::Vehicles).unwrap());
        let tree = store.db.open_tree(&name).unwrap();
        let mut garbage = Batch::default();
        for entry in tree.iter() {
            let (k, v) = entry.unwrap();
            garbage.insert(k.to_vec(), vec![0xA5; v.len()]);
        }
        tree.apply(garbage).unwrap();
        store.db.flush().unwrap();
    }
    let store = Store::open(&path).unwrap();
    let e = check::probe(&store).unwrap_err();
    assert!(e.starts_with("vehicles: "), "{e}");
    let report = check::check(&store).unwrap();
    assert!(!report.is_sound());
    assert!(
        report.problems.iter().any(|p| p.starts_with("vehicles: ")),
        "{:?}",
        report.problems
    );
    // The other data sets were still checked.
    assert!(
        report
            .counts
            .iter()
            .any(|(n, c)| *n == "articles" && *c > 0)
    );
}
