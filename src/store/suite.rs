//! The store's behaviour above the engine, run once on sled and once in memory: a catalogue
//! committed into either answers alike, checks sound, and leaves nothing of a change
//! abandoned. The catalogue is the store's own small one (`fixture.rs`): these tests need
//! nothing above the store.

use std::net::Ipv4Addr;

use super::fixture::load_small_catalogue;
use super::{AuditEntry, Store, check};
use crate::accounts::Scope;

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

#[test]
fn a_catalogue_reads_and_checks_the_same_on_every_engine() {
    let mut checksums = Vec::new();
    for (engine, store, _dir) in stores() {
        assert!(store.catalogue().is_empty(), "{engine}");
        assert_eq!(load_small_catalogue(&store), 1, "{engine}");
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
fn an_abandoned_change_leaves_the_trees_as_they_were() {
    for (engine, store, _dir) in stores() {
        load_small_catalogue(&store);
        let before = store.trees_on_disk();
        let mut staging = store.begin(false).unwrap();
        let brand = crate::catalogue::Brand {
            id: 9,
            name: "Staged, never committed".into(),
            address: Default::default(),
        };
        staging
            .put(&brand, super::Origin { file: 0, line: 1 })
            .unwrap();
        drop(staging);
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
        load_small_catalogue(&store);
        let c = store.catalogue();
        let stored = |tree: TreeName| -> u64 {
            super::indexes::DataTrees::tree(c.as_ref(), tree)
                .stored_bytes()
                .unwrap()
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
        load_small_catalogue(&store);
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
        load_small_catalogue(&store);
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

/// Small mixed changes, committed one after another, patch the tables they touch (sharing
/// every other page) and leave a catalogue `check` finds sound after each, with the
/// indexes a full derivation gives; pages the commits freed are deleted once no one reads
/// the generation they came from.
#[test]
fn small_mixed_changes_patch_their_tables_and_check_sound_after_each() {
    use crate::catalogue::{Amount, CrossKind, CrossReference, Link};
    for (engine, store, _dir) in stores() {
        load_small_catalogue(&store);
        let origin = super::Origin { file: 0, line: 1 };
        let all: Vec<_> = store.catalogue().articles().map(|a| a.unwrap()).collect();
        let genarts: Vec<u32> = {
            let mut g: Vec<u32> = all.iter().map(|a| a.genart).collect();
            g.sort_unstable();
            g.dedup();
            g
        };
        let ktypes: Vec<String> = store
            .catalogue()
            .vehicles()
            .map(|v| v.unwrap().ktype)
            .collect();
        let mut added: Vec<crate::catalogue::Article> = Vec::new();
        for round in 0..24usize {
            let c = store.catalogue();
            let pick = &all[(round * 7) % all.len()];
            let mut staging = store.begin(false).unwrap();
            // A price changed.
            if let Some(mut price) = c.prices_of(&pick.key).unwrap().into_iter().next() {
                price.amount = Amount(price.amount.0 + 1);
                staging.put(&price, origin).unwrap();
            }
            // A link withdrawn, another added.
            let links = c.links_of(&pick.key).unwrap();
            if let Some(link) = links.first() {
                staging.retire(link, origin).unwrap();
            }
            // A cross-reference changed: one retired, one written.
            if let Some(cross) = c.cross_references_of(&pick.key).unwrap().into_iter().next() {
                staging.retire(&cross, origin).unwrap();
            }
            staging
                .put(
                    &CrossReference {
                        article: pick.key.clone(),
                        kind: CrossKind::Internal,
                        manufacturer_id: None,
                        number: format!("PX-{round}"),
                    },
                    origin,
                )
                .unwrap();
            // An article's genart changed (its genart-and-Ktype lists move).
            let mut moved = all[(round * 11 + 3) % all.len()].clone();
            moved.genart = genarts[round % genarts.len()];
            staging.put(&moved, origin).unwrap();
            // A new article with a link, an EAN and a replacement.
            let mut new = pick.clone();
            new.key.reference = format!("{}PATCH{round}", pick.key.reference);
            new.reference = format!("{} PATCH{round}", pick.reference);
            new.eans = vec![format!("4000000{round:06}")];
            new.replaced_by = vec![format!("R-{round}")];
            staging.put(&new, origin).unwrap();
            staging
                .put(
                    &Link {
                        article: new.key.clone(),
                        ktype: ktypes[round % ktypes.len()].clone(),
                        position: String::new(),
                        quantity: 1,
                        notes: String::new(),
                    },
                    origin,
                )
                .unwrap();
            // Every fourth round, an article added earlier goes, with its links.
            if round % 4 == 3 {
                let gone: crate::catalogue::Article = added.remove(0);
                for link in c.links_of(&gone.key).unwrap() {
                    staging.retire(&link, origin).unwrap();
                }
                staging.retire(&gone, origin).unwrap();
            }
            added.push(new.clone());
            staging.seal().unwrap();
            let pages_before = store.space.next_page();
            staging.commit(&mut |_| {}).unwrap();
            let written = store.space.next_page() - pages_before;
            let c = store.catalogue();
            let held: usize = super::layout::TreeName::ALL
                .iter()
                .map(|&t| {
                    super::indexes::DataTrees::tree(c.as_ref(), t)
                        .page_ids()
                        .unwrap()
                        .len()
                })
                .sum();
            assert!(
                (written as usize) < held / 2,
                "{engine}, round {round}: the commit wrote {written} of {held} pages"
            );
            let report = check::check(&store).unwrap();
            assert!(
                report.is_sound(),
                "{engine}, round {round}: {:?}",
                report.problems
            );
            assert!(c.article(&new.key).unwrap().is_some());
            assert!(c.article_id(&new.key).unwrap().is_some());
            assert!(
                c.articles_by_ktype(&ktypes[round % ktypes.len()])
                    .unwrap()
                    .contains(&new.key)
            );
        }
        // Nothing reads an older generation now: what the commits freed is gone.
        store.space.settle();
        let freed = store.db.open_tree(super::reclaim::FREED_PAGES).unwrap();
        assert!(freed.is_empty(), "{engine}: freed pages still listed");
    }
}
