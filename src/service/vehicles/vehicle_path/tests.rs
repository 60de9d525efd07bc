use std::sync::Arc;

use super::*;
use crate::accounts::ProviderRecord;
use crate::service::caller::Credential;
use crate::store::Store;

fn demo() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("data")).unwrap();
    crate::demo::load_demo_catalogue(&store, &crate::import::Quiet)
        .unwrap()
        .unwrap();
    (dir, store)
}

/// The request context of a caller of `brands` (none: all), in English.
fn context(store: &Store, brands: Vec<u32>) -> Context {
    let english = crate::service::language::Languages::new(vec!["en".into()]);
    Context::new(
        crate::service::Snapshot::of(store),
        caller(brands),
        english.default_language(),
        std::sync::Arc::default(),
        std::sync::Arc::new(crate::service::media_links::MediaLinks::new(
            "",
            "test",
            store.link_secret(),
        )),
    )
}

fn caller(brands: Vec<u32>) -> Caller {
    let mut provider = ProviderRecord::new("p", "P", vec![]);
    provider.brands = brands;
    Caller {
        provider: Arc::new(provider),
        credential: Credential::StaticKey,
    }
}

#[test]
fn make_series_type_group_and_parts_follow_each_other() {
    let (_dir, store) = demo();
    let c = store.catalogue();
    let all = makes(&c, None).unwrap();
    assert_eq!(all.len(), 12, "every demo make has vehicle types");
    assert!(
        makes(&c, Some(&[TargetType::Commercial]))
            .unwrap()
            .is_empty()
    );
    let vw = all.iter().find(|m| m.maker.name == "VW").unwrap();
    let in_english = context(&store, vec![]);
    let series: Vec<ModelSeries> = model_series(&in_english, vw.maker.id, None)
        .unwrap()
        .into_iter()
        .map(|s| s.series)
        .collect();
    assert!(!series.is_empty() && series.iter().all(|s| s.manufacturer_id == vw.maker.id));
    let (page, per_page) = (Field::new("page", 1), Field::new("per_page", 100));
    let (_, types) = crate::service::vehicles::linkage_targets::types_of_series(
        &in_english,
        series[0].id,
        None,
        page,
        per_page,
    )
    .unwrap();
    assert!(!types.rows.is_empty());
    let vehicle = &types.rows[0].vehicle;
    assert_eq!(
        maker_and_series(&c, vehicle).unwrap(),
        (Some(vw.maker.id), Some(series[0].id))
    );

    let everyone = caller(vec![]);
    let roots = groups_for_vehicle(&in_english, vehicle, Nodes::Children(None), true).unwrap();
    assert!(!roots.is_empty());
    let fits = everyone.visible(c.articles_by_ktype(&vehicle.ktype).unwrap());
    // Every article of the demo sits under one root or two (the oil filter sits under
    // Filters and Engine): the roots count each article under each of its roots.
    let under_roots = articles_under(
        &c,
        &everyone,
        vehicle,
        &roots.iter().map(|g| g.group.id).collect::<Vec<_>>(),
        "assemblyGroupNodeIds",
    )
    .unwrap();
    assert_eq!(
        under_roots.len(),
        fits.len(),
        "every fitting article is under a root"
    );
    for root in &roots {
        let under = articles_under(&c, &everyone, vehicle, &[root.group.id], "n").unwrap();
        assert_eq!(under.len(), root.articles, "{root:?}");
        let below = groups_for_vehicle(
            &in_english,
            vehicle,
            Nodes::Below(Some(Field::new("parentNodeId", root.group.id))),
            true,
        )
        .unwrap();
        assert_eq!(root.has_children, !below.is_empty());
    }

    // A provider restricted to one brand counts that brand's articles only.
    let brand_one = caller(vec![1]);
    let of_brand_one = context(&store, vec![1]);
    let counted: usize = groups_for_vehicle(&of_brand_one, vehicle, Nodes::Children(None), true)
        .unwrap()
        .iter()
        .map(|g| g.articles)
        .sum();
    // Brand 1 makes brake parts, which sit under one root only.
    assert_eq!(counted, brand_one.visible(fits.clone()).len());

    let outside = articles_under(&c, &everyone, vehicle, &[42], "assemblyGroupNodeIds");
    assert!(matches!(
        outside,
        Err(ServiceError::BadParameter {
            parameter: "assemblyGroupNodeIds",
            ..
        })
    ));
    let unknown = groups_for_vehicle(
        &in_english,
        vehicle,
        Nodes::Children(Some(Field::new("parentNodeId", 42))),
        true,
    );
    assert!(matches!(
        unknown,
        Err(ServiceError::BadParameter {
            parameter: "parentNodeId",
            ..
        })
    ));
}

#[test]
fn a_make_s_counts_follow_a_vehicle_import_and_outlive_other_imports() {
    use crate::import::{ImportFile, ImportMode, ImportType, Quiet, Source, import};
    let (_dir, store) = demo();
    let file = |set: ImportType, text: &'static str| ImportFile {
        import_type: set,
        source: Source::Embedded {
            name: format!("{set:?}"),
            bytes: std::borrow::Cow::Borrowed(text.as_bytes()),
        },
        mode: ImportMode::Merge,
    };
    let types_of = |store: &Store, name: &str| {
        let found = makes(&store.catalogue(), None).unwrap();
        found
            .iter()
            .find(|m| m.maker.name == name)
            .unwrap()
            .vehicle_types
    };
    let opel = types_of(&store, "OPEL");
    let before = store.catalogue().vehicle_summary().unwrap();
    // A price commit keeps the summary; a new OPEL type is counted at once.
    let prices = "brand_id,reference,price_type,currency,amount,valid_from,valid_to\n2,WK 138,list,EUR,20.00,2026-01-01,\n";
    import(&store, &[file(ImportType::Prices, prices)], false, &Quiet).unwrap();
    assert!(Arc::ptr_eq(
        &before,
        &store.catalogue().vehicle_summary().unwrap()
    ));
    let vehicles = "ktype,make,model,type,engine,fuel,kw,hp,ccm,year_from,year_to,model_series_id,target_type,body_style,construction_type,engine_kind,kw_to,hp_to\n99001,OPEL,INSIGNIA B (Z18),2.0 CDTI,B20DTH,Diesel,125,170,1956,2018-04,,803,passenger_car,Saloon,Saloon,Diesel,,\n";
    import(
        &store,
        &[file(ImportType::Vehicles, vehicles)],
        false,
        &Quiet,
    )
    .unwrap();
    assert_eq!(types_of(&store, "OPEL"), opel + 1);
}
