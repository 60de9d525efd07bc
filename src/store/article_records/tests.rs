use super::super::staging::{Origin, Staging};
use super::super::{Store, check};
use super::{ArticleRecord, NAME_THEN, next_row};
use crate::catalogue::{
    Article, ArticleKey, ArticleStatus, ArticleText, Brand, Criterion, CrossKind, CrossReference,
    GenericArticle, Media, MediaKind, Price, TextKind, Translation,
};
use crate::store::layout::TreeName;
use crate::store::records::{CrossNumber, Record};

const ORIGIN: Origin = Origin { file: 0, line: 1 };

fn key(brand_id: u32, reference: &str) -> ArticleKey {
    ArticleKey {
        brand_id,
        reference: reference.into(),
    }
}

fn article(key: &ArticleKey) -> Article {
    Article {
        key: key.clone(),
        reference: key.reference.clone(),
        genart: 10,
        description: format!("Part {}", key.reference),
        status: ArticleStatus::Active,
        eans: Vec::new(),
        packaging_unit: 1,
        replaced_by: Vec::new(),
    }
}

fn cross(article: &ArticleKey, number: &str) -> CrossReference {
    CrossReference {
        article: article.clone(),
        kind: CrossKind::Oe,
        manufacturer_id: None,
        number: number.into(),
    }
}

fn criterion(article: &ArticleKey, name: &str) -> Criterion {
    Criterion {
        article: article.clone(),
        name: name.into(),
        value: "12".into(),
        unit: "mm".into(),
    }
}

/// A description in another language.
fn text(article: &ArticleKey, language: &str) -> ArticleText {
    described(
        article,
        language,
        &format!("{} in {language}", article.reference),
    )
}

fn described(article: &ArticleKey, language: &str, description: &str) -> ArticleText {
    ArticleText {
        article: article.clone(),
        language: language.into(),
        description: description.into(),
    }
}

/// The generic article `id`'s name in `language`.
fn genart_name(id: u32, language: &str, text: &str) -> Translation {
    Translation {
        kind: TextKind::GenericArticle,
        key: id.to_string(),
        language: language.into(),
        text: text.into(),
    }
}

fn commit(store: &Store, change: impl FnOnce(&mut Staging<'_>)) {
    let mut staging = store.begin(false).unwrap();
    change(&mut staging);
    staging.seal().unwrap();
    staging.commit(&mut |_| {}).unwrap();
}

/// Every article's record against the tables it is derived from.
fn assert_records_match_the_tables(store: &Store) {
    let c = store.catalogue();
    let mut seen = 0;
    for a in c.articles() {
        let a = a.unwrap();
        let record = c.article_record(&a.key).unwrap().expect("a record");
        assert_eq!(record.article().unwrap(), a);
        assert_eq!(
            record.rows::<CrossReference>().unwrap(),
            c.cross_references_of(&a.key).unwrap()
        );
        assert_eq!(
            record.rows::<Criterion>().unwrap(),
            c.criteria_of(&a.key).unwrap()
        );
        assert_eq!(
            record.rows::<Price>().unwrap(),
            c.prices_of(&a.key).unwrap()
        );
        assert_eq!(record.rows::<Media>().unwrap(), c.media_of(&a.key).unwrap());
        assert_parts_read_in_any_order(&record);
        let texts = c.translations().unwrap();
        let name = |l: &str| {
            texts
                .of_id(TextKind::GenericArticle, a.genart, l)
                .map(str::to_owned)
        };
        for order in [&["de"][..], &["fr"], &["bg", "de"], &["fr", "de"]] {
            let order: Vec<String> = order.iter().map(|l| l.to_string()).collect();
            assert_eq!(
                record.description(&order, name).unwrap(),
                c.article_description(&a.key, &order).unwrap(),
                "{:?} in {order:?}",
                a.key
            );
        }
        seen += 1;
    }
    assert!(seen > 0);
    assert!(c.article_record(&key(1, "NONE")).unwrap().is_none());
    let report = check::check(store).unwrap();
    assert!(report.is_sound(), "{:?}", report.problems);
}

/// Every part of `record` read in another order, and from a copy cut short at every length:
/// the same rows, or an error where the cut reaches them (never other rows, never a panic).
fn assert_parts_read_in_any_order(record: &ArticleRecord) {
    fn parts(r: &ArticleRecord, reversed: bool) -> Vec<Result<String, ()>> {
        let mut parts: Vec<Box<dyn Fn() -> Result<String, ()>>> = vec![
            Box::new(|| r.article().map(|a| format!("{a:?}")).map_err(drop)),
            Box::new(|| {
                r.rows::<CrossReference>()
                    .map(|x| format!("{x:?}"))
                    .map_err(drop)
            }),
            Box::new(|| {
                let numbers: Result<Vec<_>, _> = r.views::<CrossNumber>().map_err(drop)?.collect();
                numbers
                    .map(|n| format!("{:?}", n.iter().map(|n| n.number).collect::<Vec<_>>()))
                    .map_err(drop)
            }),
            Box::new(|| {
                r.rows::<Criterion>()
                    .map(|x| format!("{x:?}"))
                    .map_err(drop)
            }),
            Box::new(|| r.rows::<Price>().map(|x| format!("{x:?}")).map_err(drop)),
            Box::new(|| r.rows::<Media>().map(|x| format!("{x:?}")).map_err(drop)),
            Box::new(|| {
                r.description(&["de".into(), "fr".into()], |_| Some("name".into()))
                    .map(|d| format!("{d:?}"))
                    .map_err(drop)
            }),
        ];
        if reversed {
            parts.reverse();
        }
        let mut read: Vec<_> = parts.iter().map(|part| part()).collect();
        if reversed {
            read.reverse();
        }
        read
    }
    let fresh = |value: &[u8]| ArticleRecord::new(record.prefix.clone(), value.to_vec());
    let whole = parts(&fresh(&record.value), false);
    assert!(whole.iter().all(Result::is_ok), "{whole:?}");
    assert_eq!(parts(&fresh(&record.value), true), whole);
    for cut in 0..record.value.len() {
        for reversed in [false, true] {
            let read = parts(&fresh(&record.value[..cut]), reversed);
            for (part, intact) in read.iter().zip(&whole) {
                assert!(part.is_err() || part == intact, "cut at {cut}: {part:?}");
            }
            assert!(read.iter().any(Result::is_err), "cut at {cut}");
        }
    }
}

#[test]
fn records_follow_their_tables_when_built_whole_and_when_patched() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::in_memory(dir.path()).unwrap();
    // References that begin others: stored before them as articles, after them as rows.
    let keys: Vec<ArticleKey> = [
        (1, "A"),
        (1, "AB"),
        (1, "ABC"),
        (1, "ABD"),
        (1, "B"),
        (2, "AB"),
    ]
    .into_iter()
    .map(|(b, r)| key(b, r))
    .collect();
    commit(&store, |s| {
        for id in [1, 2] {
            let name = format!("Brand {id}");
            let address = Default::default();
            s.put(&Brand { id, name, address }, ORIGIN).unwrap();
        }
        let name = "Pads".to_string();
        s.put(&GenericArticle { id: 10, name }, ORIGIN).unwrap();
        for k in &keys {
            s.put(&article(k), ORIGIN).unwrap();
        }
        s.put(&cross(&keys[0], "OE-1"), ORIGIN).unwrap();
        s.put(&cross(&keys[1], "OE-2"), ORIGIN).unwrap();
        s.put(&cross(&keys[1], "OE-3"), ORIGIN).unwrap();
        s.put(&cross(&keys[2], "OE-4"), ORIGIN).unwrap();
        s.put(&criterion(&keys[1], "Width"), ORIGIN).unwrap();
        s.put(&criterion(&keys[5], "Height"), ORIGIN).unwrap();
        let price = Price {
            article: keys[3].clone(),
            price_type: "list".into(),
            currency: "EUR".into(),
            valid_from: None,
            valid_to: None,
            amount: crate::catalogue::Amount(1250),
        };
        s.put(&price, ORIGIN).unwrap();
        let media = Media {
            article: keys[1].clone(),
            kind: MediaKind::Image,
            set: String::new(),
            position: 1,
            uri: "pads.jpg".into(),
            description: "Front".into(),
        };
        s.put(&media, ORIGIN).unwrap();
        for (k, language) in [(&keys[1], "de"), (&keys[1], "fr"), (&keys[4], "de")] {
            s.put(&text(k, language), ORIGIN).unwrap();
        }
    });
    assert_records_match_the_tables(&store);
    let c = store.catalogue();
    let ab = c.article_record(&keys[1]).unwrap().unwrap();
    assert_eq!(ab.rows::<CrossReference>().unwrap().len(), 2);

    // A small change of rows only: each touched article's record is patched.
    commit(&store, |s| {
        s.put(&criterion(&keys[2], "Depth"), ORIGIN).unwrap();
        s.retire(&cross(&keys[1], "OE-2"), ORIGIN).unwrap();
        s.put(&text(&keys[0], "de"), ORIGIN).unwrap();
    });
    assert_records_match_the_tables(&store);
    // And of articles: one retired with its rows, one new that begins another's reference,
    // one new with rows of its own, one whose own row changed while its rows stay.
    let (abcd, abce) = (key(1, "ABCD"), key(1, "ABCE"));
    commit(&store, |s| {
        s.retire(&cross(&keys[0], "OE-1"), ORIGIN).unwrap();
        s.retire(&text(&keys[0], "de"), ORIGIN).unwrap();
        s.retire(&article(&keys[0]), ORIGIN).unwrap();
        s.put(&article(&abcd), ORIGIN).unwrap();
        s.put(&article(&abce), ORIGIN).unwrap();
        s.put(&cross(&abce, "OE-5"), ORIGIN).unwrap();
        s.put(&criterion(&abce, "Width"), ORIGIN).unwrap();
        let renamed = Article {
            description: "Pads, renamed".into(),
            ..article(&keys[1])
        };
        s.put(&renamed, ORIGIN).unwrap();
    });
    assert_records_match_the_tables(&store);
    let c = store.catalogue();
    assert!(c.article_record(&keys[0]).unwrap().is_none());
    assert!(c.article_record(&abcd).unwrap().is_some());
    let new = c.article_record(&abce).unwrap().unwrap();
    assert_eq!(new.rows::<CrossReference>().unwrap().len(), 1);
    assert_eq!(new.rows::<Criterion>().unwrap().len(), 1);
    let renamed = c.article_record(&keys[1]).unwrap().unwrap();
    assert_eq!(renamed.article().unwrap().description, "Pads, renamed");
    assert_eq!(renamed.rows::<CrossReference>().unwrap().len(), 1);
    assert_eq!(renamed.rows::<Media>().unwrap().len(), 1);
}

/// What `article`'s record holds of its descriptions: (language, value as held).
fn held(store: &Store, article: &ArticleKey) -> Vec<(String, Vec<u8>)> {
    let c = store.catalogue();
    let record = c.article_record(article).unwrap().unwrap();
    let mut rest = record.section(TreeName::ArticleTexts).unwrap();
    let mut rows = Vec::new();
    while let Some((language, value)) = next_row(&mut rest).unwrap() {
        rows.push((
            String::from_utf8(language.to_vec()).unwrap(),
            value.to_vec(),
        ));
    }
    rows
}

/// A description held as its generic article's name and the text after it.
fn name_then(rest: &str) -> Vec<u8> {
    [&[NAME_THEN][..], rest.as_bytes()].concat()
}

/// A description held as it is stored.
fn stored(article: &ArticleKey, language: &str, description: &str) -> Vec<u8> {
    described(article, language, description).value()
}

#[test]
fn a_description_that_begins_with_its_generic_articles_name_refers_to_it_until_either_changes() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::in_memory(dir.path()).unwrap();
    let (named, own) = (key(1, "N1"), key(1, "O1"));
    commit(&store, |s| {
        let name = "Brand".to_string();
        let address = Default::default();
        s.put(
            &Brand {
                id: 1,
                name,
                address,
            },
            ORIGIN,
        )
        .unwrap();
        for (id, name) in [(10, "Pads"), (11, "Discs")] {
            let name = name.to_string();
            s.put(&GenericArticle { id, name }, ORIGIN).unwrap();
        }
        s.put(&genart_name(10, "de", "Beläge"), ORIGIN).unwrap();
        s.put(&genart_name(10, "fr", "Plaquettes"), ORIGIN).unwrap();
        s.put(&genart_name(11, "de", "Scheiben"), ORIGIN).unwrap();
        s.put(&article(&named), ORIGIN).unwrap();
        s.put(&article(&own), ORIGIN).unwrap();
        s.put(&described(&named, "de", "Beläge"), ORIGIN).unwrap();
        s.put(&described(&named, "fr", "Plaquettes avant"), ORIGIN)
            .unwrap();
        s.put(&described(&own, "de", "Klötze"), ORIGIN).unwrap();
        s.put(&described(&own, "fr", "Freins"), ORIGIN).unwrap();
    });
    assert_records_match_the_tables(&store);
    // The name itself, the name and what follows it, a text of its own.
    assert_eq!(
        held(&store, &named),
        [("de".into(), vec![]), ("fr".into(), name_then(" avant"))]
    );
    assert_eq!(
        held(&store, &own),
        [
            ("de".into(), stored(&own, "de", "Klötze")),
            ("fr".into(), stored(&own, "fr", "Freins"))
        ]
    );

    // The generic article renamed in German: the description is still the row's own text,
    // now held whole (a change of the texts builds every record again).
    commit(&store, |s| {
        s.put(&genart_name(10, "de", "Bremsbeläge"), ORIGIN)
            .unwrap();
    });
    assert_records_match_the_tables(&store);
    assert_eq!(
        held(&store, &named)[0],
        ("de".into(), stored(&named, "de", "Beläge"))
    );

    // The article moved to a generic article whose German name begins its description, and
    // a description changed to begin with the renamed one: both held by reference again.
    commit(&store, |s| {
        let moved = Article {
            genart: 11,
            ..article(&named)
        };
        s.put(&moved, ORIGIN).unwrap();
        s.put(&described(&own, "de", "Bremsbeläge, vorne"), ORIGIN)
            .unwrap();
    });
    assert_records_match_the_tables(&store);
    assert_eq!(
        held(&store, &named),
        [
            ("de".into(), stored(&named, "de", "Beläge")),
            ("fr".into(), stored(&named, "fr", "Plaquettes avant"))
        ]
    );
    commit(&store, |s| {
        s.put(&described(&named, "de", "Scheiben hinten"), ORIGIN)
            .unwrap();
    });
    assert_records_match_the_tables(&store);
    assert_eq!(held(&store, &named)[0], ("de".into(), name_then(" hinten")));
    assert_eq!(held(&store, &own)[0], ("de".into(), name_then(", vorne")));
}
