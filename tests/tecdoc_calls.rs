//! Calls public TecDoc integrations make, in the order they make them: a fitment list
//! (makes → the vehicle types of each make → their details), the data release a client
//! keys its cache by, an article page, a kit's parts, a catalogue sync, a brand's address
//! and a VIN box.

mod common;

use common::server::{DEMO_KEY, Served, client};
use serde_json::{Value, json};

const DLB_JSON: &str = "/ws/3.0/services/PartsToCatDLB.jsonEndpoint";

/// A call's answer, whatever its status.
fn post(s: &Served, operation: &str, fields: Value) -> Value {
    let mut fields = fields;
    fields["provider"] = json!("demo");
    let r = s.fetch(
        client()
            .post(format!("{}{DLB_JSON}?api_key={DEMO_KEY}", s.base))
            .json(&json!({ operation: fields })),
    );
    r.json()
}

/// A call that must answer status 200; the answer.
fn call(s: &Served, operation: &str, fields: Value) -> Value {
    let answer = post(s, operation, fields);
    assert_eq!(answer["status"], 200, "{operation}: {answer}");
    answer
}

fn array(answer: &Value) -> Vec<Value> {
    answer["data"]["array"].as_array().unwrap().clone()
}

#[test]
fn a_fitment_list_walks_makes_then_each_makes_vehicle_types() {
    let s = Served::demo(&[]);
    // An article that fits the demo's first Golf, by its numeric id.
    let page = call(
        &s,
        "getArticles",
        json!({"linkageTargetId": 10219, "linkageTargetType": "P", "perPage": 1,
            "includeGenericArticles": true}),
    );
    let article_id = page["articles"][0]["genericArticles"][0]["legacyArticleId"].clone();
    assert!(article_id.is_u64(), "{page}");

    let makers = array(&call(
        &s,
        "getArticleLinkedAllLinkingTargetManufacturer2",
        json!({"articleId": article_id, "linkingTargetType": "P"}),
    ));
    assert!(!makers.is_empty());
    let names: Vec<&str> = makers
        .iter()
        .map(|m| m["manuName"].as_str().unwrap())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "in name order");
    // The older operation answers the same makers.
    let older = array(&call(
        &s,
        "getArticleLinkedAllLinkingTargetManufacturer",
        json!({"articleId": article_id}),
    ));
    assert_eq!(older, makers);

    // Each make opened gives its vehicle types; together they are every vehicle type.
    let links = |maker: Option<&Value>| -> Vec<i64> {
        let mut fields = json!({"articleId": article_id, "linkingTargetType": "P"});
        if let Some(m) = maker {
            fields["linkingTargetManuId"] = m["manuId"].clone();
        }
        let answer = call(&s, "getArticleLinkedAllLinkingTarget4", fields);
        let mut ids: Vec<i64> = answer["data"]["array"][0]["articleLinkages"]["array"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["linkingTargetId"].as_i64().unwrap())
            .collect();
        ids.sort();
        ids
    };
    let mut by_make: Vec<i64> = Vec::new();
    for maker in &makers {
        let of_make = links(Some(maker));
        assert!(!of_make.is_empty(), "{maker}");
        by_make.extend(of_make);
    }
    by_make.sort();
    assert_eq!(by_make, links(None));

    // The older form answers the same links, without `linked`.
    let four = call(
        &s,
        "getArticleLinkedAllLinkingTarget4",
        json!({"articleId": article_id, "withMainArticles": true}),
    );
    let three = call(
        &s,
        "getArticleLinkedAllLinkingTarget3",
        json!({"articleId": article_id, "withMainArticles": true}),
    );
    let mut expected = four["data"].clone();
    for link in expected["array"][0]["articleLinkages"]["array"]
        .as_array_mut()
        .unwrap()
    {
        link.as_object_mut().unwrap().remove("linked");
    }
    assert_eq!(three["data"], expected);

    // An id the catalogue does not hold answers no maker; a kind no vehicle type is of, none.
    let none = call(
        &s,
        "getArticleLinkedAllLinkingTargetManufacturer2",
        json!({"articleId": 999_999_999}),
    );
    assert_eq!(array(&none), Vec::<Value>::new());
    let tractors = call(
        &s,
        "getArticleLinkedAllLinkingTargetManufacturer2",
        json!({"articleId": article_id, "linkingTargetType": "T"}),
    );
    assert_eq!(array(&tractors), Vec::<Value>::new());
    let r = s.fetch(
        client()
            .post(format!("{}{DLB_JSON}?api_key={DEMO_KEY}", s.base))
            .json(&json!({"getArticleLinkedAllLinkingTargetManufacturer2":
                {"provider": "demo", "articleId": article_id, "linkingTargetType": "X"}})),
    );
    assert_eq!(r.json()["status"], 400, "{}", r.text());
    assert!(r.text().contains("linkingTargetType"), "{}", r.text());
}

#[test]
fn the_data_release_a_client_keys_its_cache_by() {
    let s = Served::demo(&[]);
    let info = call(&s, "getPegasusVersionInfo2", json!({}));
    let version: Vec<u64> = env!("CARGO_PKG_VERSION")
        .split('.')
        .map(|p| p.parse().unwrap())
        .collect();
    assert_eq!(
        [&info["major"], &info["minor"], &info["revision"]],
        [&json!(version[0]), &json!(version[1]), &json!(version[2])]
    );
    let classic = call(&s, "getVersionInfo", json!({}));
    assert_eq!(info["build"], classic["dataVersion"]);
    assert_eq!(info["dataVersion"], classic["dataVersion"].to_string());
    assert_eq!(info["refDataVersion"], info["dataVersion"]);
    assert_eq!(info["date"], classic["dataDate"]);
}

/// A shop's article page by `getDirectArticlesByIds7` answers as by `…6`, and every document
/// says its kind by number and by name in the reader's language (a Java shop dereferences
/// both).
#[test]
fn an_article_page_by_the_seventh_form_names_each_documents_kind() {
    let s = Served::demo(&[]);
    let flags = json!({"articleId": {"array": [39, 84]}, "basicData": true, "documents": true,
        "thumbnails": true, "lang": "de"});
    let seventh = call(&s, "getDirectArticlesByIds7", flags.clone());
    assert_eq!(seventh, call(&s, "getDirectArticlesByIds6", flags));
    let documents = array(&seventh)[0]["articleDocuments"]["array"]
        .as_array()
        .unwrap()
        .clone();
    assert!(!documents.is_empty(), "{seventh}");
    for d in &documents {
        let (id, name) = (&d["docTypeId"], &d["docTypeName"]);
        match d["docFileTypeName"].as_str().unwrap() {
            "image" => assert_eq!((id, name), (&json!(1), &json!("Bild")), "{d}"),
            "document" => assert_eq!((id, name), (&json!(2), &json!("Dokument")), "{d}"),
            "image360" => assert_eq!((id, name), (&json!(3), &json!("360°-Bild")), "{d}"),
            other => panic!("{other}"),
        }
    }
    let thumbnails = array(&seventh)[0]["articleThumbnails"]["array"].clone();
    assert!(
        thumbnails
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["thumbTypeId"] == 1 || t["thumbTypeId"] == 3),
        "{thumbnails}"
    );
    let english = call(
        &s,
        "getDirectArticlesByIds7",
        json!({"articleId": {"array": [39]}, "documents": true, "lang": "en"}),
    );
    let first = &array(&english)[0]["articleDocuments"]["array"][0];
    assert!(
        ["Picture", "Document", "360° picture"].contains(&first["docTypeName"].as_str().unwrap()),
        "{first}"
    );
}

/// A shop opens a kit's part list (`getArticlePartList`): its components, with their
/// quantities, for any vehicle type or one named by Ktype or by the kit's link to it.
#[test]
fn a_kit_s_part_list_names_its_components_and_quantities() {
    let s = Served::demo(&[]);
    let kit = call(
        &s,
        "getArticles",
        json!({"searchQuery": "0986A45240", "searchType": 0, "includeGenericArticles": true}),
    );
    let kit_id = kit["articles"][0]["genericArticles"][0]["legacyArticleId"]
        .as_i64()
        .unwrap();
    let parts = |fields: Value| -> Vec<(String, i64)> {
        let answer = call(&s, "getArticlePartList", fields);
        let Some(list) = array(&answer).first().cloned() else {
            return Vec::new();
        };
        list["partlistInfo"]["array"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| {
                let d = &item["partlistDetails"];
                (
                    d["articleNo"].as_str().unwrap().to_owned(),
                    d["quantity"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    // The demo's kits.csv: two discs and a set of pads, for Ktypes 10219 and 10154.
    let expected = vec![
        ("0 986 478 849".to_owned(), 2),
        ("0 986 495 455".to_owned(), 1),
    ];
    assert_eq!(parts(json!({"articleId": kit_id})), expected);
    assert_eq!(
        parts(json!({"articleId": kit_id, "linkingTargetId": 10219})),
        expected
    );
    let link = (kit_id << 32) | 10154;
    assert_eq!(
        parts(json!({"articleId": kit_id, "articleLinkId": link})),
        expected
    );
    // A vehicle type the kit holds nothing for, and an article that is no kit: no list.
    assert!(parts(json!({"articleId": kit_id, "linkingTargetId": 10536})).is_empty());
    assert!(parts(json!({"articleId": 39})).is_empty());

    // What disagrees is refused by name.
    let refused = |fields: Value, field: &str| {
        let mut fields = fields;
        fields["provider"] = json!("demo");
        let r = s.fetch(
            client()
                .post(format!("{}{DLB_JSON}?api_key={DEMO_KEY}", s.base))
                .json(&json!({ "getArticlePartList": fields })),
        );
        let answer = r.json();
        assert_eq!(answer["status"], 400, "{}", r.text());
        let text = answer["statusText"].as_str().unwrap();
        assert!(text.contains(field), "{text}");
    };
    refused(
        json!({"articleId": kit_id, "articleLinkId": (39i64 << 32) | 10154}),
        "articleLinkId",
    );
    refused(
        json!({"articleId": kit_id, "articleLinkId": link, "linkingTargetId": 10219}),
        "linkingTargetId",
    );
    refused(
        json!({"articleId": kit_id, "linkingTargetId": 10219, "linkingTargetType": "O"}),
        "linkingTargetType",
    );
    refused(
        json!({"articleId": kit_id, "articleLinkId": -1}),
        "articleLinkId",
    );
    refused(json!({}), "articleId");
}

#[test]
fn a_catalogue_sync_walks_the_articles_by_generic_article_or_whole() {
    let s = Served::demo(&[]);
    let total = |fields: Value| -> u64 {
        let answer = call(&s, "getArticles", fields);
        answer["totalMatchingArticles"].as_u64().unwrap()
    };
    // Every article, page by page, as a sync walks the catalogue.
    let all = total(json!({"perPage": 100}));
    assert_eq!(all, 2000, "the demo's articles, every brand's");
    let brands = total(json!({"dataSupplierIds": [1, 2, 3, 4], "perPage": 100}));
    assert_eq!(all, brands);
    let page = call(&s, "getArticles", json!({"perPage": 100, "page": 3}));
    assert_eq!(page["articles"].as_array().unwrap().len(), 100);
    // One generic article's, and one category's, without a brand or a vehicle.
    let discs = total(json!({"genericArticleIds": [82]}));
    let named = total(json!({"genericArticleIds": [82], "dataSupplierIds": [1, 2, 3, 4]}));
    assert!(discs > 0 && discs < all);
    assert_eq!(discs, named);
    let under = total(json!({"assemblyGroupNodeIds": [100100]}));
    assert!(under > 0 && under < all, "{under}");
}

#[test]
fn a_brands_address_is_answered_where_the_catalogue_keeps_it() {
    let s = Served::demo(&[]);
    let address = array(&call(&s, "getAmBrandAddress", json!({"brandNo": 2})));
    assert_eq!(address.len(), 1, "{address:?}");
    let a = &address[0];
    assert_eq!(a["name"], "Norvik Filters");
    assert_eq!(a["city"], "Lyon");
    assert_eq!(a["zipCountryCode"], "FR");
    assert_eq!(a["wwwURL"], "https://brand2.example");
    assert!(a.get("fax").is_none(), "a part not kept is absent: {a}");
    // A brand the catalogue does not hold has no address; the brand is required.
    assert!(array(&call(&s, "getAmBrandAddress", json!({"brandNo": 99}))).is_empty());
    let r = s.fetch(
        client()
            .post(format!("{}{DLB_JSON}?api_key={DEMO_KEY}", s.base))
            .json(&json!({"getAmBrandAddress": {"provider": "demo"}})),
    );
    assert_eq!(r.json()["status"], 400);
    assert!(r.text().contains("brandNo"), "{}", r.text());
    // getBrands gives the same address with includeAddressDetails.
    let brands = array(&call(
        &s,
        "getBrands",
        json!({"dataSupplierId": 2, "includeAddressDetails": true}),
    ));
    assert_eq!(brands[0]["addressDetails"][0]["city"], "Lyon");
    let plain = array(&call(&s, "getBrands", json!({"dataSupplierId": 2})));
    assert!(plain[0].get("addressDetails").is_none());
}

#[test]
fn a_vin_names_its_vehicle_types_with_their_makers_and_series() {
    let s = Served::demo(&[]);
    // The demo's pattern of the AUDI A3 Sportback 1.0 TSI (Ktype 10219), as a VIN writes it.
    let vin = "wauksk2x 5ma-123456";
    let answer = call(&s, "getVehiclesByVIN", json!({"vin": vin, "lang": "de"}));
    let data = &answer["data"];
    assert_eq!(data["matchingVehiclesCount"], 1, "{answer}");
    let vehicle = &data["matchingVehicles"]["array"][0];
    assert_eq!(vehicle["carId"], 10219);
    assert_eq!(vehicle["vehicleTypeDescription"], "1.0 TSI");
    assert_eq!(
        vehicle["manuId"],
        data["matchingManufacturers"]["array"][0]["manuId"]
    );
    assert_eq!(data["matchingModels"]["array"][0]["modelId"], 201);
    // A second pattern of the maker, shorter, names two more types: all matches are
    // counted, `maxVehiclesToReturn` keeps the first, `modelId` narrows to a series.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("vins.csv");
    std::fs::write(&file, "vin_pattern,ktype\nWAUKSK,10011\nWAU?SK2X?,10126\n").unwrap();
    let o = common::partscat(&[
        "import",
        "--data",
        common::path(&s.data),
        "--type",
        "vins",
        common::path(&file),
    ]);
    assert!(o.status.success(), "{}", common::text(&o));
    let all = call(&s, "getVehiclesByVIN", json!({"vin": vin}));
    let ktypes: Vec<&Value> = all["data"]["matchingVehicles"]["array"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| &v["carId"])
        .collect();
    assert_eq!(
        ktypes,
        [&json!(10011), &json!(10126), &json!(10219)],
        "{all}"
    );
    let first = call(
        &s,
        "getVehiclesByVIN",
        json!({"vin": vin, "maxVehiclesToReturn": 1}),
    );
    assert_eq!(first["data"]["matchingVehiclesCount"], 3);
    assert_eq!(
        first["data"]["matchingVehicles"]["array"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        first["data"]["matchingModels"]["array"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let series = call(&s, "getVehiclesByVIN", json!({"vin": vin, "modelId": 201}));
    assert_eq!(series["data"]["matchingVehiclesCount"], 1, "{series}");
    // Another maker's VIN, and VINs that are none, are told apart.
    let other = call(&s, "getVehiclesByVIN", json!({"vin": "WBA8E9C50GK000001"}));
    assert_eq!(other["data"]["matchingVehiclesCount"], 0);
    for (bad, why) in [
        ("WAUKSK2X5MA12345", "17 characters"),
        ("WAUKSK2X5MA12345O", "holds 'O'"),
    ] {
        let answer = post(&s, "getVehiclesByVIN", json!({"vin": bad}));
        assert_eq!(answer["status"], 400, "{answer}");
        let text = answer.to_string();
        assert!(text.contains("'vin'") && text.contains(why), "{text}");
    }
}

#[test]
fn a_country_selector_offers_the_groups_of_the_catalogues_countries() {
    let s = Served::demo_with_env(&[], &[("PARTSCAT_CATALOGUE_COUNTRIES", "DE,NO")]);
    let groups = array(&call(&s, "getCountryGroups", json!({"lang": "de"})));
    let codes: Vec<&str> = groups
        .iter()
        .map(|g| g["tecdocCode"].as_str().unwrap())
        .collect();
    // Germany is in the EU and the EEA, Norway in the EEA, EFTA and the Nordic countries.
    assert_eq!(codes, ["EEA", "EFTA", "EU", "NORDIC"], "{groups:?}");
    assert_eq!(groups[2]["countryName"], "Europäische Union");
    // Each code is taken where countryGroupFlag says `country` names a group.
    let makers = |fields: Value| array(&call(&s, "getManufacturers2", fields)).len();
    assert_eq!(
        makers(json!({"country": "NORDIC", "countryGroupFlag": true})),
        makers(json!({}))
    );
    // A catalogue for any country offers every group.
    let any = Served::demo(&[]);
    assert_eq!(array(&call(&any, "getCountryGroups", json!({}))).len(), 6);
}

#[test]
fn an_engine_code_names_its_engines_then_their_vehicle_types() {
    let s = Served::demo(&[]);
    // The demo's AUDI (maker 2) types with engine CHZD, as getVehicleByIds3 tells them.
    let audis: Vec<Value> = array(&call(&s, "getVehicleIdsByCriteria", json!({"manuId": 2})))
        .iter()
        .map(|v| v["carId"].clone())
        .collect();
    let described = array(&call(
        &s,
        "getVehicleByIds3",
        json!({"carIds": {"array": audis}, "motorCodes": true}),
    ));
    let carrying: Vec<&Value> = described
        .iter()
        .filter(|v| {
            (v["motorCodes"]["array"].as_array().unwrap().iter()).any(|m| m["motorCode"] == "CHZD")
        })
        .map(|v| &v["carId"])
        .collect();
    assert!(!carrying.is_empty());
    let engine = |fields: Value| -> Vec<Value> {
        array(&call(&s, "getMotorIdsByManuIdCriteria2", fields))
            .iter()
            .map(|m| m["motorId"].clone())
            .collect()
    };
    let chzd = engine(json!({"manuId": 2, "motorCode": "chzd"}));
    assert_eq!(chzd.len(), 1, "{chzd:?}");
    let types = array(&call(
        &s,
        "getVehicleIdsByMotor2",
        json!({"motorId": chzd[0], "carType": "P", "countryGroupFlag": false}),
    ));
    let ktypes: Vec<&Value> = types.iter().map(|t| &t["carId"]).collect();
    assert_eq!(ktypes, carrying, "{types:?}");
    assert!(types[0]["carName"].as_str().unwrap().starts_with("AUDI "));
    // The number is the maker's and the code's: another maker's CHZD is another engine,
    // the start of a code finds it among others, and criteria of its types narrow.
    let ford = engine(json!({"manuId": 7, "motorCode": "CHZD"}));
    assert_eq!(ford.len(), 1, "the demo's FIESTA carries a CHZD");
    assert_ne!(ford[0], chzd[0]);
    let started = engine(json!({"manuId": 2, "motorCode": "CH", "searchExactCode": false}));
    assert!(started.contains(&chzd[0]), "{started:?}");
    let every = engine(json!({"manuId": 2}));
    assert!(started.iter().all(|id| every.contains(id)), "{every:?}");
    assert!(engine(json!({"manuId": 2, "motorCode": "CHZD", "powerFrom": 500})).is_empty());
    // A commercial-vehicle type carries none of it; a number of no engine names nothing.
    let none = |fields: Value| array(&call(&s, "getVehicleIdsByMotor2", fields)).is_empty();
    assert!(none(json!({"motorId": chzd[0], "carType": "O"})));
    assert!(none(json!({"motorId": 12345})));
    for (operation, fields, named) in [
        (
            "getMotorIdsByManuIdCriteria2",
            json!({"motorCode": "CHZD"}),
            "'manuId'",
        ),
        (
            "getMotorIdsByManuIdCriteria2",
            json!({"manuId": 2, "motorCode": "--"}),
            "'motorCode'",
        ),
        (
            "getMotorIdsByManuIdCriteria2",
            json!({"manuId": 2, "sellsTerm": "TSI"}),
            "'sellsTerm'",
        ),
        (
            "getMotorIdsByManuIdCriteria2",
            json!({"manuId": 2, "fuelTypeId": 1}),
            "'fuelTypeId'",
        ),
        ("getVehicleIdsByMotor2", json!({}), "'motorId'"),
        ("getVehicleIdsByMotor2", json!({"motorId": -1}), "'motorId'"),
        (
            "getVehicleIdsByMotor2",
            json!({"motorId": 1, "carType": "X"}),
            "'carType'",
        ),
    ] {
        let answer = post(&s, operation, fields.clone());
        assert_eq!(answer["status"], 400, "{operation} {fields}: {answer}");
        assert!(answer.to_string().contains(named), "{operation}: {answer}");
    }
}
