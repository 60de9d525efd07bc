use super::*;

#[test]
fn records_of_the_first_layout_are_read_with_defaults() {
    let v1 = ProviderRecordV1 {
        id: "demo".into(),
        name: "Demo".into(),
        enabled: false,
        scopes: vec![Scope::Read, Scope::Admin],
        key_hashes: vec![hash_key("k")],
    };
    let bytes = bincode::encode_to_vec(&v1, bincode::config::standard()).unwrap();
    assert_ne!(bytes[0], 0xFF);
    let read = ProviderRecord::decode(&bytes).unwrap();
    assert_eq!(read.id, "demo");
    assert!(!read.enabled);
    assert_eq!(read.scopes, vec![Scope::Read, Scope::Admin]);
    assert_eq!(read.key_hashes, vec![hash_key("k")]);
    assert!(read.brands.is_empty() && read.whitelist.is_empty());

    let mut now = read.clone();
    now.brands = vec![2];
    now.whitelist = vec!["10.1.2.0/24".parse::<ipnet::Ipv4Net>().unwrap().into()];
    let again = ProviderRecord::decode(&now.encode().unwrap()).unwrap();
    assert_eq!(again, now);
    assert!(again.admits("10.1.2.200".parse().unwrap()));
    assert!(!again.admits("10.1.3.1".parse().unwrap()));
    assert!(again.sees_brand(2) && !again.sees_brand(1));
}

#[test]
fn records_of_the_second_layout_are_read_without_dynamic_export() {
    let v2 = ProviderRecordV2 {
        id: "shop".into(),
        name: "Shop".into(),
        enabled: true,
        scopes: vec![Scope::Read, Scope::Export],
        key_hashes: vec![hash_key("k")],
        brands: vec![3],
        whitelist: Vec::new(),
        max_grant_hours: 4,
        rate_limit_per_second: 9,
    };
    let mut bytes = vec![TAGGED];
    bytes.extend(codec::encode(2, &v2));
    let read = ProviderRecord::decode(&bytes).unwrap();
    assert_eq!((read.max_grant_hours, read.rate_limit_per_second), (4, 9));
    assert_eq!(read.brands, vec![3]);
    assert!(!read.dynamic_export);
    let mut now = read.clone();
    now.dynamic_export = true;
    assert_eq!(ProviderRecord::decode(&now.encode().unwrap()).unwrap(), now);
}

#[test]
fn records_of_the_third_layout_are_read_without_a_number() {
    let v3 = ProviderRecordV3 {
        id: "shop".into(),
        name: "Shop".into(),
        enabled: true,
        scopes: vec![Scope::Read],
        key_hashes: vec![hash_key("k")],
        brands: vec![3],
        whitelist: Vec::new(),
        max_grant_hours: 4,
        rate_limit_per_second: 9,
        dynamic_export: true,
    };
    let mut bytes = vec![TAGGED];
    bytes.extend(codec::encode(3, &v3));
    let read = ProviderRecord::decode(&bytes).unwrap();
    assert!(read.dynamic_export && read.brands == vec![3]);
    assert_eq!(read.number, None);
    let mut now = read.clone();
    now.number = Some(22610);
    assert_eq!(ProviderRecord::decode(&now.encode().unwrap()).unwrap(), now);
}

#[test]
fn records_of_the_fourth_layout_are_read_lenient() {
    let v4 = ProviderRecordV4 {
        id: "shop".into(),
        name: "Shop".into(),
        enabled: true,
        scopes: vec![Scope::Read],
        key_hashes: vec![hash_key("k")],
        brands: vec![],
        whitelist: Vec::new(),
        max_grant_hours: 2,
        rate_limit_per_second: 0,
        dynamic_export: false,
        number: Some(7),
    };
    let mut bytes = vec![TAGGED];
    bytes.extend(codec::encode(4, &v4));
    let read = ProviderRecord::decode(&bytes).unwrap();
    assert_eq!((read.number, read.max_grant_hours), (Some(7), 2));
    assert!(!read.strict);
    let mut now = read.clone();
    now.strict = true;
    assert_eq!(ProviderRecord::decode(&now.encode().unwrap()).unwrap(), now);
}

#[test]
fn a_number_names_one_provider_only() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let mut shop = ProviderRecord::new("shop", "Shop", vec![Scope::Read]);
    shop.number = Some(7);
    store.save_provider(shop).unwrap();
    let mut other = ProviderRecord::new("other", "Other", vec![Scope::Read]);
    other.number = Some(7);
    assert!(matches!(
        store.save_provider(other.clone()),
        Err(StoreError::NumberTaken { number: 7, .. })
    ));
    assert!(
        store.provider("other").unwrap().is_none(),
        "nothing written"
    );
    assert_eq!(store.provider_named("7").unwrap().unwrap().id, "shop");
    other.number = Some(8);
    store.save_provider(other).unwrap();
    store.delete_provider("shop").unwrap();
    assert!(store.provider_named("7").unwrap().is_none());
    drop(store);
    let store = Store::open(dir.path()).unwrap();
    assert_eq!(store.provider_named("8").unwrap().unwrap().id, "other");
    assert!(store.provider_named("9").unwrap().is_none());
}

#[test]
fn keys_are_found_by_hash_and_never_stored_in_plain_text() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let first = store
        .put_provider("acme", "Acme", vec![Scope::Read], None)
        .unwrap();
    assert!(first.starts_with("pc_") && first.len() == 51);
    assert_eq!(
        store.provider_of_key(&first).unwrap().as_deref(),
        Some("acme")
    );
    assert_eq!(store.provider_of_key("pc_wrong").unwrap(), None);

    // Re-keying retires the old key.
    let second = store
        .put_provider(
            "acme",
            "Acme",
            vec![Scope::Read],
            Some("fixed-key-for-scripts"),
        )
        .unwrap();
    assert_eq!(second, "fixed-key-for-scripts");
    assert_eq!(store.provider_of_key(&first).unwrap(), None);
    assert_eq!(
        store.provider("acme").unwrap().unwrap().key_hashes,
        vec![hash_key(&second)]
    );
    // A dynamic key handed to an end user is stored as its hash too.
    let dynamic = generate_key().unwrap();
    store
        .grant_key("acme", hash_key(&dynamic), u64::MAX)
        .unwrap();
    store.flush().unwrap();

    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let bytes = std::fs::read(&path).unwrap();
            for key in [&first, &second, &dynamic] {
                assert!(
                    !bytes.windows(key.len()).any(|w| w == key.as_bytes()),
                    "{key} in {}",
                    path.display()
                );
            }
        }
    }
}
