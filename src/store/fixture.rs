//! A small catalogue with rows of every kind the store's own tests read (brands, makers,
//! generic articles, vehicles, articles, links, cross-references, prices), staged directly,
//! so that those tests need nothing above the store: no import, no demo files.

use super::Store;
use super::staging::Origin;
use crate::catalogue::{
    Amount, Article, ArticleKey, ArticleStatus, Brand, CrossKind, CrossReference, GenericArticle,
    Link, Manufacturer, ManufacturerKind, Price, TargetType, Vehicle, YearMonth,
};

/// Articles in the small catalogue: enough for several blocks of each table.
pub const ARTICLES: u32 = 600;

/// Stages and commits the small catalogue into an empty `store`; returns its data version.
pub fn load_small_catalogue(store: &Store) -> u64 {
    let origin = Origin { file: 0, line: 1 };
    let mut staging = store.begin(false).unwrap();
    for id in 1..=3 {
        let brand = Brand {
            id,
            name: format!("Brand {id}"),
            address: Default::default(),
        };
        staging.put(&brand, origin).unwrap();
    }
    for (id, kind) in [
        (100, ManufacturerKind::VehicleMaker),
        (200, ManufacturerKind::PartsMaker),
    ] {
        let name = format!("Maker {id}");
        staging
            .put(&Manufacturer { id, name, kind }, origin)
            .unwrap();
    }
    for id in 10..15 {
        let name = format!("Part kind {id}");
        staging.put(&GenericArticle { id, name }, origin).unwrap();
    }
    let ktypes: Vec<String> = (1000..1020).map(|k| k.to_string()).collect();
    for (i, ktype) in ktypes.iter().enumerate() {
        staging.put(&vehicle(ktype, i), origin).unwrap();
    }
    for i in 0..ARTICLES {
        let key = ArticleKey {
            brand_id: 1 + i % 3,
            reference: format!("REF{i:05}"),
        };
        let article = Article {
            key: key.clone(),
            reference: format!("REF {i:05}"),
            genart: 10 + i % 5,
            description: format!("Part {i}"),
            status: ArticleStatus::Active,
            eans: vec![format!("40{i:011}")],
            packaging_unit: 1,
            replaced_by: Vec::new(),
        };
        staging.put(&article, origin).unwrap();
        for j in 0..3 {
            let link = Link {
                article: key.clone(),
                ktype: ktypes[(i as usize + j) % ktypes.len()].clone(),
                position: String::new(),
                quantity: 1,
                notes: String::new(),
            };
            staging.put(&link, origin).unwrap();
        }
        for (kind, manufacturer_id, number) in [
            (CrossKind::Oe, Some(100), format!("OE{i:06}")),
            (CrossKind::Competitor, Some(200), format!("CP-{i:05}")),
        ] {
            let cross = CrossReference {
                article: key.clone(),
                kind,
                manufacturer_id,
                number,
            };
            staging.put(&cross, origin).unwrap();
        }
        let price = Price {
            article: key,
            price_type: "list".into(),
            currency: "EUR".into(),
            valid_from: None,
            valid_to: None,
            amount: Amount(1000 + i64::from(i)),
        };
        staging.put(&price, origin).unwrap();
    }
    staging.seal().unwrap();
    staging.commit(&mut |_| {}).unwrap();
    store.catalogue().data_version()
}

fn vehicle(ktype: &str, i: usize) -> Vehicle {
    Vehicle {
        ktype: ktype.to_owned(),
        make: "Maker 100".into(),
        model: format!("Model {}", i % 4),
        type_name: format!("Type {i}"),
        engines: vec![format!("E{i}")],
        fuel: "Petrol".into(),
        kw: 50 + i as u16,
        hp: 68 + i as u16,
        ccm: 1400,
        year_from: YearMonth {
            year: 2010,
            month: 1,
        },
        year_to: None,
        model_series: None,
        target_type: TargetType::PassengerCar,
        body_style: String::new(),
        construction_type: String::new(),
        engine_kind: String::new(),
        kw_to: None,
        hp_to: None,
    }
}
