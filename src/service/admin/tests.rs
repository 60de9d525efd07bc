use super::*;
use crate::clock::SystemClock;

fn operator() -> Operator {
    Operator("test".into())
}

fn shop() -> NewProvider {
    NewProvider {
        id: "shop".into(),
        scopes: vec!["read".into()],
        whitelist: vec!["10.1.0.0/16".into(), "192.168.1.7".into()],
        with_key: true,
        ..NewProvider::default()
    }
}

#[test]
fn a_provider_is_created_changed_audited_and_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let clock = SystemClock;
    let made = create(&store, &clock, &operator(), shop()).unwrap();
    let first = made.key.unwrap();
    assert_eq!(made.provider.keys, vec![key_id(&hash_key(&first))]);
    assert_eq!(made.provider.whitelist, ["10.1.0.0/16", "192.168.1.7/32"]);
    assert!(matches!(
        create(&store, &clock, &operator(), shop()),
        Err(AdminError::Exists(_))
    ));

    let second = change(&store, &clock, &operator(), "shop", Change::AddKey)
        .unwrap()
        .key
        .unwrap();
    assert_eq!(
        store.provider_of_key(&second).unwrap().as_deref(),
        Some("shop")
    );
    // Revoked by id: the key index forgets it too.
    let first_id = key_id(&hash_key(&first));
    change(
        &store,
        &clock,
        &operator(),
        "shop",
        Change::RevokeKey {
            key: first_id.clone(),
        },
    )
    .unwrap();
    assert_eq!(store.provider_of_key(&first).unwrap(), None);
    assert!(matches!(
        change(
            &store,
            &clock,
            &operator(),
            "shop",
            Change::RevokeKey { key: first_id }
        ),
        Err(AdminError::UnknownKey { .. })
    ));
    // Revoked by the key itself.
    change(
        &store,
        &clock,
        &operator(),
        "shop",
        Change::RevokeKey {
            key: second.clone(),
        },
    )
    .unwrap();
    assert!(show(&store, "shop").unwrap().keys.is_empty());

    let removed = change(
        &store,
        &clock,
        &operator(),
        "shop",
        Change::RemoveWhitelist {
            entries: vec!["10.1.0.0/16".into()],
        },
    )
    .unwrap();
    assert_eq!(removed.provider.whitelist, ["192.168.1.7/32"]);

    // Deleting a provider deletes its grants.
    let record = store.provider("shop").unwrap().unwrap();
    let ip = "127.0.0.2".parse().unwrap();
    crate::service::access::add_dynamic_address(&store, &clock, &record, ip, None).unwrap();
    let dynamic = crate::service::access::add_dynamic_key(&store, &clock, &record, None).unwrap();
    delete(&store, &clock, &operator(), "shop").unwrap();
    assert_eq!(store.address_grant("shop", ip).unwrap(), None);
    assert_eq!(
        store.dynamic_key(&hash_key(&dynamic.api_key)).unwrap(),
        None
    );
    assert_eq!(
        store.sweep_grants(u64::MAX / 2).unwrap(),
        0,
        "no expiry entries left"
    );
    assert!(matches!(
        show(&store, "shop"),
        Err(AdminError::UnknownProvider(_))
    ));
    let actions: Vec<String> = audit_trail(&store, 100)
        .unwrap()
        .into_iter()
        .map(|e| e.action)
        .collect();
    assert_eq!(
        actions,
        [
            "provider.create",
            "key.add",
            "key.revoke",
            "key.revoke",
            "whitelist.remove",
            "grant.address",
            "grant.key",
            "provider.delete"
        ]
    );
    // No audit entry holds a key.
    let trail = serde_json::to_string(&audit_trail(&store, 100).unwrap()).unwrap();
    assert!(!trail.contains(&first) && !trail.contains(&second));
}

#[test]
fn bad_input_is_refused_with_a_reason_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let clock = SystemClock;
    let refused = |new: NewProvider| {
        create(&store, &clock, &operator(), new)
            .unwrap_err()
            .to_string()
    };
    let cases = [
        (
            NewProvider {
                id: "a b".into(),
                ..shop()
            },
            "letters, digits",
        ),
        (
            NewProvider {
                scopes: vec!["write".into()],
                ..shop()
            },
            "not a scope",
        ),
        (
            NewProvider {
                scopes: vec![],
                ..shop()
            },
            "at least one scope",
        ),
        (
            NewProvider {
                whitelist: vec!["::1".into()],
                ..shop()
            },
            "IPv6",
        ),
        (
            NewProvider {
                whitelist: vec!["10.0.0.0/33".into()],
                ..shop()
            },
            "not an IPv4",
        ),
        (
            NewProvider {
                brands: vec![0],
                ..shop()
            },
            "positive",
        ),
        (
            NewProvider {
                max_grant_hours: Some(25),
                ..shop()
            },
            "between 1 and 24",
        ),
    ];
    for (new, reason) in cases {
        let said = refused(new);
        assert!(said.contains(reason), "{said}");
    }
    assert!(store.providers().unwrap().is_empty());
    assert!(audit_trail(&store, 10).unwrap().is_empty());
}
