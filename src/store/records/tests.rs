use super::*;

fn round_trip<R: Record + PartialEq + std::fmt::Debug>(r: R) {
    assert_eq!(R::decode(&r.key(), &r.value()).as_ref(), Some(&r));
}

fn art() -> ArticleKey {
    ArticleKey {
        brand_id: 3,
        reference: "0986494048".into(),
    }
}

#[test]
fn every_record_round_trips() {
    round_trip(Brand {
        id: 7,
        name: "Brakes".into(),
        address: BrandAddress::default(),
    });
    round_trip(Brand {
        id: 8,
        name: "Filters".into(),
        address: BrandAddress {
            city: "Köln".into(),
            country: "DE".into(),
            website: "https://filters.example".into(),
            ..BrandAddress::default()
        },
    });
    round_trip(Manufacturer {
        id: 9,
        name: "VW".into(),
        kind: ManufacturerKind::VehicleMaker,
    });
    round_trip(GenericArticle {
        id: 402,
        name: "Brake Pad Set".into(),
    });
    round_trip(Plate {
        country: "DE".into(),
        number: "0603BJQ".into(),
        written: "0603/BJQ".into(),
        ktype: "12345".into(),
        key_system: 1,
    });
    let pattern = VinPattern {
        pattern: "WAU?SK2X?".into(),
        ktype: "10219".into(),
    };
    assert!(pattern.matches("WAUKSK2X5MA123456") && pattern.matches("WAUZSK2XKMA123456"));
    assert!(!pattern.matches("WAUKSK2Y5MA123456") && !pattern.matches("WAUKSK2X"));
    round_trip(pattern);
    round_trip(Vehicle {
        ktype: "12345".into(),
        make: "VW".into(),
        model: "Golf VII".into(),
        type_name: "1.6 TDI".into(),
        engines: vec!["CLHA".into(), "DDYA".into()],
        fuel: "Diesel".into(),
        kw: 81,
        hp: 110,
        ccm: 1598,
        year_from: YearMonth {
            year: 2012,
            month: 8,
        },
        year_to: None,
        model_series: Some(101),
        target_type: TargetType::LightCommercial,
        body_style: "Hatchback".into(),
        construction_type: "Hatchback".into(),
        engine_kind: "Diesel".into(),
        kw_to: Some(85),
        hp_to: None,
    });
    round_trip(ModelSeries {
        id: 101,
        manufacturer_id: 1,
        name: "GOLF VII".into(),
        year_from: YearMonth {
            year: 2012,
            month: 1,
        },
        year_to: None,
    });
    round_trip(AssemblyGroup {
        id: 100011,
        parent: Some(100010),
        target_type: TargetType::PassengerCar,
        name: "Brake Pads".into(),
        sort: 3,
    });
    round_trip(GenartGroup {
        genart: 402,
        node: 100011,
    });
    round_trip(Article {
        key: art(),
        reference: "0 986 494 048".into(),
        genart: 402,
        description: "Brake pad set, disc brake".into(),
        status: ArticleStatus::Active,
        eans: vec!["4047024709387".into()],
        packaging_unit: 1,
        replaced_by: vec![],
    });
    round_trip(Criterion {
        article: art(),
        name: "Width".into(),
        value: "155.1".into(),
        unit: "mm".into(),
    });
    round_trip(CrossReference {
        article: art(),
        kind: CrossKind::Oe,
        manufacturer_id: Some(9),
        number: "5K0 698 151".into(),
    });
    round_trip(CrossReference {
        article: art(),
        kind: CrossKind::Trade,
        manufacturer_id: None,
        number: "BP-1".into(),
    });
    round_trip(Link {
        article: art(),
        ktype: "12345".into(),
        position: "front".into(),
        quantity: 1,
        notes: String::new(),
    });
    round_trip(Price {
        article: art(),
        price_type: "list".into(),
        currency: "EUR".into(),
        valid_from: Some(Date {
            year: 2026,
            month: 1,
            day: 31,
        }),
        valid_to: Some(Date {
            year: 2026,
            month: 12,
            day: 31,
        }),
        amount: Amount(456_700),
    });
    round_trip(KitComponent {
        kit: art(),
        ktype: "12345".into(),
        component: ArticleKey {
            brand_id: 4,
            reference: "X1".into(),
        },
        quantity: 2,
    });
    round_trip(Media {
        article: art(),
        kind: MediaKind::Spin360,
        set: "main".into(),
        position: 3,
        uri: "media/x/3.jpg".into(),
        description: String::new(),
    });
}

#[test]
fn damaged_values_are_refused() {
    let b = Brand {
        id: 1,
        name: "X".into(),
        address: BrandAddress::default(),
    };
    let mut v = b.value();
    v.push(0);
    assert_eq!(Brand::decode(&b.key(), &v), None);
    assert_eq!(Brand::decode(&[1], &b.value()), None);
}

#[test]
fn a_vehicle_written_before_format_9_reads_with_one_engine_code() {
    let value = codec::encode(
        VALUE_VERSION,
        &(
            "VW",
            "Golf VII",
            "1.6 TDI",
            "CLHA",
            "Diesel",
            81u16,
            110u16,
            1598u32,
            (2012u16, 8u8),
            None::<(u16, u8)>,
        ),
    );
    let v = Vehicle::decode(b"12345", &value).unwrap();
    assert_eq!(v.engines, vec!["CLHA".to_string()]);
    assert_eq!(
        (v.model_series, v.target_type),
        (None, TargetType::PassengerCar)
    );
    assert_eq!(v.ktype, "12345");
}

#[test]
fn an_article_viewed_reads_what_its_owned_decode_reads() {
    for (eans, replaced_by) in [
        (vec![], vec![]),
        (
            vec!["4047024123456".to_owned()],
            vec!["0 986 494 049".to_owned()],
        ),
        (
            vec!["1".to_owned(), "2".to_owned()],
            vec!["a".to_owned(), "b\"c".to_owned(), String::new()],
        ),
    ] {
        let article = Article {
            key: art(),
            reference: "0 986 494 048".into(),
            genart: 402,
            description: "Brake Pad Set, front axle".into(),
            status: ArticleStatus::Discontinued,
            eans,
            packaging_unit: 4,
            replaced_by,
        };
        let (key, value) = (article.key(), article.value());
        let row = ArticleRow::view(&key, &value).unwrap();
        let owned = Article::decode(&key, &value).unwrap();
        assert_eq!(owned, article);
        assert_eq!(
            (row.brand_id, row.normalised_reference, row.reference),
            (
                owned.key.brand_id,
                owned.key.reference.as_str(),
                owned.reference.as_str()
            )
        );
        assert_eq!(
            (row.genart, row.description, row.status, row.packaging_unit),
            (
                owned.genart,
                owned.description.as_str(),
                owned.status,
                owned.packaging_unit
            )
        );
        assert_eq!(row.eans, owned.eans);
        assert_eq!(row.replaced_by, owned.replaced_by);
    }
    // A value one byte short is refused by both.
    let article = Article {
        key: art(),
        reference: "x".into(),
        genart: 1,
        description: String::new(),
        status: ArticleStatus::Active,
        eans: vec![],
        packaging_unit: 1,
        replaced_by: vec![],
    };
    let (key, value) = (article.key(), article.value());
    let short = &value[..value.len() - 1];
    assert!(ArticleRow::view(&key, short).is_none());
    assert!(Article::decode(&key, short).is_none());
}
