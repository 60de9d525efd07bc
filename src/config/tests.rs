use super::*;
use std::collections::HashMap;

fn load(
    file: Option<&str>,
    env: &[(&str, &str)],
    overrides: Overrides,
) -> Result<(Settings, Vec<String>), ConfigError> {
    let dir = tempfile::tempdir().unwrap();
    let mut overrides = overrides;
    if let Some(text) = file {
        let path = dir.path().join("partscat.toml");
        std::fs::write(&path, text).unwrap();
        overrides.config = Some(path);
    }
    let env: HashMap<String, String> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let names = env.keys().cloned().collect();
    Settings::load_from(&overrides, |n| env.get(n).cloned(), names)
}

#[test]
fn layers_apply_in_order() {
    let file = "listen = [\"127.0.0.1:9000\", \"[::1]:9000\"]\ndata_dir = \"/srv/a\"\ncache_mb = 256\n[catalogue]\nexhaust_genarts = [1, 2]\n";
    let (s, w) = load(Some(file), &[], Overrides::default()).unwrap();
    assert_eq!(s.listen.len(), 2);
    assert_eq!(s.data_dir, PathBuf::from("/srv/a"));
    assert_eq!(s.exhaust_genarts, vec![1, 2]);
    assert_eq!(s.cache_mb, 256);
    assert!(w.is_empty());

    let (s, _) = load(
        Some(file),
        &[("PARTSCAT_DATA", "/srv/b")],
        Overrides::default(),
    )
    .unwrap();
    assert_eq!(s.data_dir, PathBuf::from("/srv/b"));

    let flags = Overrides {
        data_dir: Some("/srv/c".into()),
        listen: vec!["127.0.0.1:1".parse().unwrap()],
        config: None,
        ..Overrides::default()
    };
    let (s, _) = load(Some(file), &[("PARTSCAT_DATA", "/srv/b")], flags).unwrap();
    assert_eq!(s.data_dir, PathBuf::from("/srv/c"));
    assert_eq!(s.listen, vec!["127.0.0.1:1".parse().unwrap()]);
    assert_eq!(s.inbox, PathBuf::from("/srv/c-inbox"));

    let flags = Overrides {
        inbox: Some("drop".into()),
        ..Overrides::default()
    };
    let (s, _) = load(None, &[], flags).unwrap();
    assert!(s.inbox.is_absolute(), "{}", s.inbox.display());
    assert!(s.inbox.ends_with("drop"));
}

#[test]
fn the_documented_default_file_names_every_setting_and_its_variable() {
    let text = include_str!("../../packaging/partscat.toml");
    for setting in every_setting() {
        let key = setting.key.rsplit('.').next().unwrap_or(setting.key);
        let set = text
            .lines()
            .any(|l| l.trim_start_matches("# ").starts_with(&format!("{key} = ")));
        assert!(set, "{key} is not in packaging/partscat.toml");
        assert!(text.contains(setting.env), "{} is not named", setting.env);
    }
    assert!(text.contains(CONFIG_ENV));
    let (settings, warnings) = load(Some(text), &[], Overrides::default()).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(settings.inbox, PathBuf::from("/var/spool/partscat/inbox"));
}

#[test]
fn unknown_settings_are_warned_about() {
    let (_, w) = load(
        Some("data_dri = \"x\"\n"),
        &[("PARTSCAT_DAT", "y")],
        Overrides::default(),
    )
    .unwrap();
    assert!(w.iter().any(|m| m.contains("data_dri")), "{w:?}");
    assert!(w.iter().any(|m| m.contains("PARTSCAT_DAT")), "{w:?}");
}

#[test]
fn bad_values_name_the_setting() {
    let e = load(Some("listen = \"nowhere\"\n"), &[], Overrides::default()).unwrap_err();
    assert!(e.to_string().contains("listen"), "{e}");
    let e = load(
        None,
        &[("PARTSCAT_LISTEN", "1.2.3.4")],
        Overrides::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("PARTSCAT_LISTEN"), "{e}");
    assert!(load(Some("listen = ["), &[], Overrides::default()).is_err());
    let e = load(None, &[("PARTSCAT_CACHE_MB", "1")], Overrides::default()).unwrap_err();
    assert!(e.to_string().contains("PARTSCAT_CACHE_MB"), "{e}");
}

#[test]
fn the_file_and_the_environment_read_a_setting_through_one_row() {
    let cases = [
        (
            "listen = [\"127.0.0.1:9000\", \"[::1]:9000\"]",
            "PARTSCAT_LISTEN",
            "127.0.0.1:9000,[::1]:9000",
        ),
        (
            "trusted_proxies = [\"10.0.0.0/8\"]",
            "PARTSCAT_TRUSTED_PROXIES",
            "10.0.0.0/8",
        ),
        (
            "[catalogue]\ncountries = [\"de\", \"at\"]",
            "PARTSCAT_CATALOGUE_COUNTRIES",
            "de, at",
        ),
        (
            "[catalogue]\nlanguages = [\"de\", \"EN\", \"qd\"]",
            "PARTSCAT_CATALOGUE_LANGUAGES",
            "de,en, qd",
        ),
        (
            "[limits]\ntext_bytes = 300",
            "PARTSCAT_LIMIT_TEXT_BYTES",
            "300",
        ),
        (
            "[sync]\nfollow_wait_s = 30",
            "PARTSCAT_SYNC_FOLLOW_WAIT_S",
            "30",
        ),
        ("csv_bom = true", "PARTSCAT_CSV_BOM", "true"),
        ("media_max_file_mb = 7", "PARTSCAT_MEDIA_MAX_FILE_MB", "7"),
    ];
    let (default, _) = load(None, &[], Overrides::default()).unwrap();
    for (file, var, text) in cases {
        let (from_file, _) = load(Some(file), &[], Overrides::default()).unwrap();
        let (from_env, _) = load(None, &[(var, text)], Overrides::default()).unwrap();
        assert_eq!(from_file, from_env, "{file} / {var}={text}");
        assert_ne!(from_file, default, "{file}");
    }
}

#[test]
fn a_bad_value_in_a_table_names_its_key_in_the_file_and_its_variable_in_the_environment() {
    let e = load(
        Some("[sync]\nfollow_wait_s = 0\n"),
        &[],
        Overrides::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("sync.follow_wait_s"), "{e}");
    let e = load(
        None,
        &[("PARTSCAT_LIMIT_ROW_BYTES", "10")],
        Overrides::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("PARTSCAT_LIMIT_ROW_BYTES"), "{e}");
    let e = load(Some("cache_mb = { a = 1 }\n"), &[], Overrides::default()).unwrap_err();
    assert!(e.to_string().contains("cache_mb"), "{e}");
    let e = load(Some("listen = []\n"), &[], Overrides::default()).unwrap_err();
    assert!(e.to_string().contains("at least one address"), "{e}");
}

#[test]
fn the_catalogues_languages_are_distinct_codes_and_at_least_one() {
    let (languages, _) = load(
        None,
        &[("PARTSCAT_CATALOGUE_LANGUAGES", "de, fr ,EN")],
        Overrides::default(),
    )
    .unwrap();
    assert_eq!(languages.catalogue_languages, ["de", "fr", "en"]);
    for (bad, says) in [
        ("de,fr,de", "'de' is given twice"),
        ("", "no language"),
        ("deu", "'deu'"),
    ] {
        let e = load(
            None,
            &[("PARTSCAT_CATALOGUE_LANGUAGES", bad)],
            Overrides::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains(says) && e.contains("PARTSCAT_CATALOGUE_LANGUAGES"),
            "{e}"
        );
    }
}
