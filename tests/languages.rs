//! A reader asks in their language: the demo catalogue holds its texts in English, German and
//! French in full and Bulgarian in part, and every surface answers in the language asked,
//! falling back along the catalogue's order where a text is missing; a language the catalogue
//! does not hold is answered in its default, `Content-Language` naming the language served,
//! and only a value that is no language code is refused.

mod common;

use common::server::{DEMO_KEY, Served, client};
use serde_json::{Value, json};

const DLB_JSON: &str = "/ws/3.0/services/PartsToCatDLB.jsonEndpoint";

/// The demo, served in its four languages (its default settings).
fn served() -> Served {
    Served::demo(&[])
}

/// The demo's first shock absorber (a generic article with a fitting position and text
/// criteria), by its reference as the articles file writes it.
fn shock_absorber() -> String {
    let articles = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/articles.csv"),
    )
    .unwrap();
    articles
        .lines()
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|f| f[2] == "854")
        .map(|f| f[1].to_owned())
        .unwrap()
}

fn lookup(s: &Served, reference: &str, lang: Option<&str>, accept: Option<&str>) -> (u16, Value) {
    let mut url = format!(
        "{}/svc/getCrossRefsOrArticle/{}?mainref=1&provider=demo&api_key={DEMO_KEY}",
        s.base,
        reference.replace(' ', "%20")
    );
    if let Some(lang) = lang {
        url.push_str(&format!("&lang={lang}"));
    }
    let mut request = client().get(url);
    if let Some(accept) = accept {
        request = request.header("Accept-Language", accept);
    }
    let reply = s.fetch(request);
    (reply.status, reply.json())
}

/// The generic article's name, the description and the first criterion's name and value.
fn texts(answer: &Value) -> (String, String, String, String) {
    let a = &answer["articles"][0];
    let text = |v: &Value| v.as_str().unwrap().to_owned();
    let criterion = a["criteria"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] != "Length" && c["name"] != "Länge" && c["name"] != "Longueur")
        .unwrap();
    (
        text(&a["genartName"]),
        text(&a["description"]),
        text(&criterion["name"]),
        text(&criterion["value"]),
    )
}

#[test]
fn a_lookup_answers_in_the_language_asked_and_falls_back_along_the_order() {
    let s = served();
    let reference = shock_absorber();
    let (status, english) = lookup(&s, &reference, None, None);
    assert_eq!(status, 200, "{english}");
    let (name, description, criterion, _) = texts(&english);
    assert_eq!(name, "Shock Absorber");
    assert_eq!(description, "Shock Absorber, front axle");
    assert_eq!(criterion, "Shock Absorber Type");

    let (_, german) = lookup(&s, &reference, Some("de"), None);
    let (name, description, criterion, value) = texts(&german);
    assert_eq!(name, "Stoßdämpfer");
    assert_eq!(description, "Stoßdämpfer, Vorderachse");
    assert_eq!(criterion, "Stoßdämpferart");
    assert!(
        ["Gasdruck", "Öldruck", "Zweirohr"].contains(&value.as_str()),
        "{value}"
    );

    let (_, french) = lookup(&s, &reference, Some("FR"), None);
    assert_eq!(texts(&french).1, "Amortisseur, essieu avant");

    // Bulgarian holds the generic articles' names only: the rest is English, the next of
    // the order that has it.
    let (_, bulgarian) = lookup(&s, &reference, Some("bg"), None);
    let (name, description, criterion, _) = texts(&bulgarian);
    assert_eq!(name, "Амортисьор");
    assert_eq!(description, "Shock Absorber, front axle");
    assert_eq!(criterion, "Shock Absorber Type");

    // Without `lang`, the browser's languages decide; one the catalogue lacks is passed over.
    let (_, accepted) = lookup(&s, &reference, None, Some("it-IT, it;q=0.9, fr;q=0.5"));
    assert_eq!(texts(&accepted).0, "Amortisseur");
    let (_, neither) = lookup(&s, &reference, None, Some("it, es;q=0.5"));
    assert_eq!(texts(&neither).0, "Shock Absorber");
    // `lang` wins over the header.
    let (_, both) = lookup(&s, &reference, Some("de"), Some("fr"));
    assert_eq!(texts(&both).0, "Stoßdämpfer");
}

/// The lookup's status, `Content-Language` and answer.
fn lookup_served(s: &Served, reference: &str, lang: &str) -> (u16, String, Value) {
    let url = format!(
        "{}/svc/getCrossRefsOrArticle/{}?mainref=1&provider=demo&api_key={DEMO_KEY}&lang={lang}",
        s.base,
        reference.replace(' ', "%20")
    );
    let reply = s.fetch(client().get(url));
    (reply.status, reply.header("content-language"), reply.json())
}

#[test]
fn a_language_the_catalogue_does_not_hold_is_answered_in_its_default_and_named() {
    let s = served();
    let reference = shock_absorber();
    for (lang, served) in [
        ("de", "de"),
        ("FR", "fr"),
        ("it", "en"),
        ("HU", "en"),
        ("hu-HU", "en"),
    ] {
        let (status, language, answer) = lookup_served(&s, &reference, lang);
        assert_eq!(
            (status, language.as_str()),
            (200, served),
            "{lang}: {answer}"
        );
        if served == "en" {
            assert_eq!(texts(&answer).0, "Shock Absorber", "{lang}");
        }
    }
    // What is no language code is refused by name.
    let (status, _, problem) = lookup_served(&s, &reference, "italian");
    assert_eq!(status, 400, "{problem}");
    assert_eq!(problem["parameter"], "lang");
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains("'italian' is not a language code") && detail.contains("en, de, fr, bg"),
        "{detail}"
    );

    // A shop configured for Hungarian is answered in English, and told so.
    let post = |lang: &str| {
        s.fetch(
            client()
                .post(format!("{}{DLB_JSON}?api_key={DEMO_KEY}", s.base))
                .json(&json!({"getArticles": {
                    "provider": "demo", "lang": lang, "searchQuery": "WK 138", "searchType": 10
                }})),
        )
    };
    let hungarian = post("HU");
    assert_eq!(hungarian.json()["status"], 200, "{}", hungarian.text());
    assert_eq!(hungarian.header("content-language"), "en");
    assert_eq!(post("de").header("content-language"), "de");
    let refused = post("x1").json();
    assert_eq!(refused["status"], 400, "{refused}");
    let text = refused["statusText"].as_str().unwrap();
    assert!(text.contains("lang 'x1' is not a language code"), "{text}");

    // The settings name the languages served: the German texts are not, once the setting
    // leaves German out, and German is answered in the default.
    let plain = Served::demo_with_env(&[], &[("PARTSCAT_CATALOGUE_LANGUAGES", "en,fr")]);
    let (status, language, answer) = lookup_served(&plain, &reference, "de");
    assert_eq!((status, language.as_str()), (200, "en"), "{answer}");
    assert_eq!(texts(&answer).0, "Shock Absorber");
}

fn get_articles(s: &Served, lang: &str, reference: &str) -> Value {
    let reply = s.fetch(
        client()
            .post(format!("{}{DLB_JSON}?api_key={DEMO_KEY}", s.base))
            .json(&json!({"getArticles": {
                "provider": "demo", "lang": lang, "searchQuery": reference, "searchType": 0,
                "includeGenericArticles": true, "includeAll": true
            }})),
    );
    let answer = reply.json();
    assert_eq!(answer["status"], 200, "{answer}");
    answer["articles"][0].clone()
}

#[test]
fn pegasus_lang_answers_get_articles_in_that_language() {
    let s = served();
    let reference = shock_absorber();
    let german = get_articles(&s, "de", &reference);
    assert_eq!(
        german["genericArticles"][0]["genericArticleDescription"],
        "Stoßdämpfer"
    );
    let criteria: Vec<&str> = german["articleCriteria"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["criteriaDescription"].as_str().unwrap())
        .collect();
    assert!(criteria.contains(&"Stoßdämpferart"), "{criteria:?}");
    let french = get_articles(&s, "fr", &reference);
    assert_eq!(
        french["genericArticles"][0]["genericArticleDescription"],
        "Amortisseur"
    );
    // The kind of number that matched is a term too.
    assert_eq!(
        german["searchQueryMatches"][0]["description"],
        "Artikelnummer"
    );
    assert_eq!(
        german["searchQueryMatches"][0]["matchType"],
        "ArticleNumber"
    );
    // The status is a term the texts translate; Bulgarian holds none and falls back.
    for (lang, status) in [("de", "lieferbar"), ("fr", "disponible"), ("bg", "active")] {
        let article = get_articles(&s, lang, &reference);
        assert_eq!(article["misc"]["articleStatusId"], 1, "{lang}");
        assert_eq!(
            article["misc"]["articleStatusDescription"], status,
            "{lang}"
        );
    }
}

#[test]
fn two_languages_interleaved_never_share_a_kept_answer() {
    // The answer cache is on (the default): each language's answer is kept under its own key.
    let s = served();
    let reference = shock_absorber();
    for _ in 0..3 {
        for (lang, name) in [
            ("de", "Stoßdämpfer"),
            ("en", "Shock Absorber"),
            ("fr", "Amortisseur"),
        ] {
            let (_, answer) = lookup(&s, &reference, Some(lang), None);
            assert_eq!(texts(&answer).0, name, "{lang}");
            let article = get_articles(&s, lang, &reference);
            assert_eq!(
                article["genericArticles"][0]["genericArticleDescription"], name,
                "{lang}"
            );
        }
    }
}

fn json_call(s: &Served, body: Value) -> Value {
    let answer = s
        .fetch(
            client()
                .post(format!("{}{DLB_JSON}?api_key={DEMO_KEY}", s.base))
                .json(&body),
        )
        .json();
    assert_eq!(answer["status"], 200, "{answer}");
    answer
}

#[test]
fn free_text_finds_a_part_by_its_description_in_any_language() {
    let s = served();
    let found = |lang: &str, text: &str| -> Vec<String> {
        let answer = json_call(
            &s,
            json!({"getArticles": {
                "provider": "demo", "lang": lang, "searchQuery": text, "searchType": 99,
                "perPage": 100, "includeGenericArticles": true
            }}),
        );
        answer["articles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                a["genericArticles"][0]["genericArticleDescription"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect()
    };
    // German words find shock absorbers whatever language the answer is in.
    let german = found("de", "Stoßdämpfer Vorderachse");
    assert!(
        !german.is_empty() && german.iter().all(|n| n == "Stoßdämpfer"),
        "{german:?}"
    );
    let in_english = found("en", "stoßdämpfer");
    assert!(!in_english.is_empty() && in_english.iter().all(|n| n == "Shock Absorber"));
    // French, and Bulgarian (which holds the generic articles' names).
    assert!(!found("fr", "amortisseur").is_empty());
    assert_eq!(found("bg", "Амортисьор").len(), in_english.len());
    assert!(found("en", "Bremsscheibe").len() > 1);
}

#[test]
fn free_text_answers_the_readers_language_matches_first_across_cursor_pages() {
    let s = served();
    let ask = |per_page: u32, cursor: Option<&str>| -> Value {
        let mut body = json!({
            "provider": "demo", "lang": "en", "searchQuery": "kit", "searchType": 99,
            "perPage": per_page, "includeGenericArticles": true, "includeMisc": true
        });
        if let Some(cursor) = cursor {
            body["cursor"] = json!(cursor);
        }
        json_call(&s, json!({ "getArticles": body }))
    };
    let listed = |answer: &Value| -> Vec<(String, bool)> {
        let articles = answer["articles"].as_array().unwrap();
        articles
            .iter()
            .map(|a| {
                let english = format!(
                    "{} {}",
                    a["genericArticles"][0]["genericArticleDescription"],
                    a["misc"]["additionalDescription"]
                );
                let number = a["articleNumber"].as_str().unwrap().to_owned();
                (number, english.to_lowercase().contains("kit"))
            })
            .collect()
    };
    // "Kit" is in the English texts of some parts and only in the French texts of others:
    // the English reader gets the former first.
    let whole = listed(&ask(1000, None));
    let in_english = whole.iter().take_while(|(_, english)| *english).count();
    assert!(in_english > 0 && in_english < whole.len(), "{whole:?}");
    assert!(
        whole[in_english..].iter().all(|(_, english)| !english),
        "{whole:?}"
    );
    // A cursor pages through the same order, across the turn from one kind to the other.
    let mut paged = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let answer = ask(40, cursor.as_deref());
        paged.extend(listed(&answer));
        match answer["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(paged, whole);
}

#[test]
fn completions_offer_the_readers_language_first_then_the_others() {
    let s = served();
    let completions = |lang: &str, typed: &str| -> Vec<String> {
        let answer = json_call(
            &s,
            json!({"getAutoCompleteSuggestions": {
                "provider": "demo", "lang": lang, "searchQuery": typed
            }}),
        );
        answer["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_owned())
            .collect()
    };
    let french = completions("fr", "filt");
    assert_eq!(french[0], "Filtre à air", "{french:?}");
    // English names of the same generic articles come after the French ones.
    let at = |name: &str| french.iter().position(|c| c == name);
    assert!(
        at("Filtre à huile").unwrap() < at("Fuel Filter").unwrap(),
        "{french:?}"
    );
    let german = completions("de", "brems");
    assert!(german.contains(&"Bremsscheibe".to_owned()), "{german:?}");
}

#[test]
fn check_says_how_far_each_language_covers_the_catalogue() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo");
    let (ok, report) = common::import(&data, &[demo]);
    assert!(ok, "{report}");
    let o = common::partscat(&["check", "--json", "--data", common::path(&data)]);
    assert!(o.status.success(), "{}", common::text(&o));
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    let languages = report["languages"].as_array().unwrap();
    let codes: Vec<&str> = languages
        .iter()
        .map(|l| l["language"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["bg", "de", "fr"]);
    let (bg, de) = (&languages[0], &languages[1]);
    // German in full; Bulgarian names every generic article but describes only some articles.
    assert_eq!(de["generic_articles"][0], de["generic_articles"][1]);
    assert_eq!(de["descriptions"][0], de["descriptions"][1]);
    assert!(de["terms"].as_u64().unwrap() > 0);
    assert_eq!(bg["generic_articles"][0], bg["generic_articles"][1]);
    assert!(
        bg["descriptions"][0].as_u64() < bg["descriptions"][1].as_u64(),
        "{bg}"
    );
    assert_eq!(bg["terms"], 0);
    // The text form says the same, one line a language.
    let o = common::partscat(&["check", "--data", common::path(&data)]);
    assert!(
        common::text(&o).contains("texts in de: 16 of 16 generic article names"),
        "{}",
        common::text(&o)
    );
}

#[test]
fn a_vehicles_articles_are_described_in_the_language_asked() {
    let s = served();
    let description = |lang: &str| {
        let reply = s.get(&format!("/svc/getArticlesByKtype/10570?lang={lang}"));
        assert_eq!(reply.status, 200, "{}", reply.text());
        let answer = reply.json();
        let article = answer["articles"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["reference"] == "0 986 494 958")
            .cloned()
            .unwrap_or_else(|| panic!("no 0 986 494 958 in {answer}"));
        article["description"].as_str().unwrap().to_owned()
    };
    // Its own text in each language (one that begins with its generic article's name).
    assert_eq!(
        description("de"),
        "Bremsbelagsatz, Scheibenbremse, Vorderachse"
    );
    assert_eq!(
        description("fr"),
        "Jeu de plaquettes de frein, frein à disque, essieu avant"
    );
    assert_eq!(description("en"), "Brake Pad Set, disc brake, front axle");
}

/// A generated catalogue with its texts in German, French and Bulgarian, and one article
/// described in Hungarian and Polish by a word no other text holds.
fn translated_files(dir: &std::path::Path) -> std::path::PathBuf {
    let files = dir.join("files");
    let o = common::partscat(&[
        "gen",
        "--articles",
        "2000",
        "--translated",
        "--out",
        common::path(&files),
    ]);
    assert!(o.status.success(), "{}", common::text(&o));
    let articles = std::fs::read_to_string(files.join("articles.csv")).unwrap();
    let first: Vec<&str> = articles.lines().nth(1).unwrap().split(',').collect();
    let mut texts = std::fs::read_to_string(files.join("article_texts.csv")).unwrap();
    for language in ["hu", "pl"] {
        texts.push_str(&format!(
            "{},{},{language},Zuzmaraszto\n",
            first[0], first[1]
        ));
    }
    std::fs::write(files.join("article_texts.csv"), texts).unwrap();
    files
}

fn free_text(s: &Served, key: &str, lang: &str, text: &str) -> u64 {
    let answer = s
        .fetch(
            client()
                .post(format!("{}{DLB_JSON}?api_key={key}", s.base))
                .json(&json!({"getArticles": {
                    "provider": "shop", "lang": lang, "searchQuery": text, "searchType": 99
                }})),
        )
        .json();
    assert_eq!(answer["status"], 200, "{answer}");
    answer["totalMatchingArticles"].as_u64().unwrap()
}

#[test]
fn texts_in_languages_the_catalogue_does_not_serve_are_left_out_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let files = translated_files(dir.path());
    let config = dir.path().join("partscat.toml");
    std::fs::write(&config, "[catalogue]\nlanguages = [\"en\", \"de\"]\n").unwrap();
    let data = dir.path().join("data");
    let (ok, report) = common::import(
        &data,
        &["--config", common::path(&config), common::path(&files)],
    );
    assert!(ok, "{report}");
    let of = |name: &str| {
        report["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["import_type"] == name)
            .unwrap()
            .clone()
    };
    let described = of("article_texts");
    let left_out = &described["left_out"];
    assert_eq!(left_out["hu"], 1, "{described}");
    assert_eq!(left_out["pl"], 1, "{described}");
    assert!(left_out["fr"].as_u64().unwrap() > 100, "{described}");
    assert!(
        left_out.get("de").is_none(),
        "German is served: {described}"
    );
    assert_eq!(
        described["rejected"], 0,
        "left out is not rejected: {described}"
    );
    assert!(of("texts")["left_out"]["fr"].as_u64().unwrap() > 0);
    // What was taken is what is served: German found, French and Hungarian not held.
    let key = common::provider_key(&data, "shop", &[]);
    let s = Served::start_with_env(&data, &[], &[("PARTSCAT_CATALOGUE_LANGUAGES", "en,de")]);
    assert!(free_text(&s, &key, "de", "Bremsscheibe") > 0);
    assert_eq!(free_text(&s, &key, "en", "Zuzmaraszto"), 0);
    assert_eq!(free_text(&s, &key, "en", "Disque"), 0);
}

#[test]
fn free_text_searches_only_the_languages_the_catalogue_serves() {
    let dir = tempfile::tempdir().unwrap();
    let files = translated_files(dir.path());
    let data = dir.path().join("data");
    // Unset, an import keeps every language its files bring.
    let (ok, report) = common::import(&data, &[common::path(&files)]);
    assert!(ok, "{report}");
    assert!(
        report["files"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f.get("left_out").is_none()),
        "{report}"
    );
    let key = common::provider_key(&data, "shop", &[]);
    let every = Served::start_with_env(&data, &[], &[("PARTSCAT_CATALOGUE_LANGUAGES", "en,hu")]);
    assert_eq!(free_text(&every, &key, "en", "Zuzmaraszto"), 1);
    drop(every);
    // Served in English and German alone, the Hungarian and French texts the store holds
    // are not searched.
    let s = Served::start_with_env(&data, &[], &[("PARTSCAT_CATALOGUE_LANGUAGES", "en,de")]);
    assert_eq!(free_text(&s, &key, "en", "Zuzmaraszto"), 0);
    assert_eq!(free_text(&s, &key, "de", "Disque"), 0);
    assert!(free_text(&s, &key, "de", "Bremsscheibe") > 0);
}
