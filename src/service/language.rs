//! The language an answer is written in. The catalogue holds its texts in the languages of the
//! setting `catalogue.languages`, whose order is the fallback order and whose first is the
//! default; a reader asks for one of them (Pegasus `lang`, `/svc` `lang` or
//! `Accept-Language`, the browser's switch) and a text missing in it is taken from the next
//! language of the order that has it. A language the catalogue does not hold is answered in
//! the default language, as TecDoc answers a language it has no texts in; only a value that
//! is no language code (ISO 639-1, with or without a region: `de`, `DE`, `de-AT`) is refused.

use std::sync::Arc;

use super::ServiceError;

/// The languages the catalogue holds, in fallback order (the first is the default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Languages {
    /// Each code's language with its fallback order, made once: a request takes one by
    /// sharing it, copying nothing. The first is the default, whose order is the codes'.
    asked: Arc<[Language]>,
}

/// The language asked for, and the order a missing text falls back along: the asked one
/// first, then the catalogue's in their order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Language {
    order: Arc<[String]>,
    /// The catalogue's default: the language of the data sets' own texts.
    default: Arc<str>,
}

/// Hashes the code asked for alone: it decides the rest of a catalogue's order, and every
/// cached answer's key hashes it (equal languages still compare whole).
impl std::hash::Hash for Language {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.order.first().hash(state);
    }
}

impl Languages {
    /// `codes` as the settings give them: lower-case two-letter codes, none twice, at least one.
    pub fn new(codes: Vec<String>) -> Languages {
        assert!(!codes.is_empty(), "a catalogue holds at least one language");
        let default: Arc<str> = codes[0].as_str().into();
        let asked = (0..codes.len())
            .map(|at| {
                let mut order = Vec::with_capacity(codes.len());
                order.push(codes[at].clone());
                order.extend(codes.iter().filter(|c| **c != codes[at]).cloned());
                Language {
                    order: order.into(),
                    default: default.clone(),
                }
            })
            .collect();
        Languages { asked }
    }

    /// The codes, in fallback order.
    pub fn codes(&self) -> &[String] {
        self.asked[0].order()
    }

    /// The default language: the first of the order.
    pub fn default_language(&self) -> Language {
        self.asked[0].clone()
    }

    /// The language `asked` by the field `parameter` (none: the default): one the catalogue
    /// holds, else the default; a refusal where `asked` is no language code. Codes are
    /// matched without regard to case, a region (`de-AT`) read as its language.
    pub fn choose(
        &self,
        parameter: &'static str,
        asked: Option<&str>,
    ) -> Result<Language, ServiceError> {
        let Some(asked) = asked else {
            return Ok(self.default_language());
        };
        if let Some(held) = self.held(asked.trim()) {
            return Ok(held);
        }
        let Some(code) = language_code(asked) else {
            return Err(ServiceError::bad_parameter(
                parameter,
                format!(
                    "{parameter} '{asked}' is not a language code (ISO 639-1, such as en or de); \
                     the catalogue's texts are in {}",
                    self.codes().join(", ")
                ),
            ));
        };
        Ok(self.held(code).unwrap_or_else(|| self.default_language()))
    }

    /// The language of `code` where the catalogue holds it.
    fn held(&self, code: &str) -> Option<Language> {
        let at = self
            .codes()
            .iter()
            .position(|c| c.eq_ignore_ascii_case(code))?;
        Some(self.asked[at].clone())
    }

    /// The first language of an `Accept-Language` header the catalogue holds, by the header's
    /// weights (`de-AT, de;q=0.9, en;q=0.5`: a region is read as its language); the default
    /// where the header names none of them. A header never refuses: a browser sends its
    /// user's languages, not a question.
    pub fn negotiate(&self, header: &str) -> Language {
        let mut offered: Vec<(f32, usize, &str)> = header
            .split(',')
            .enumerate()
            .filter_map(|(at, item)| {
                let mut parts = item.split(';');
                let tag = parts.next()?.trim();
                let weight = parts
                    .filter_map(|p| p.trim().strip_prefix("q="))
                    .find_map(|q| q.trim().parse::<f32>().ok())
                    .unwrap_or(1.0);
                let language = tag.split(['-', '_']).next()?;
                (weight > 0.0).then_some((weight, at, language))
            })
            .collect();
        offered.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        offered
            .iter()
            .find_map(|(_, _, language)| self.held(language))
            .unwrap_or_else(|| self.default_language())
    }
}

/// ISO 639-1's codes: what TecDoc's `lang` takes.
const ISO_639_1: &str = "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce \
    ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv \
    ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr \
    ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn \
    no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so \
    sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh \
    yi yo za zh zu";

/// The language code of `asked` (`de`, `DE`, `de-AT`, `de_AT`; TecDoc's own `qa` … `qz`);
/// none where it is no language code.
fn language_code(asked: &str) -> Option<&str> {
    let asked = asked.trim();
    let language = asked.split(['-', '_']).next()?;
    let region_ok = asked[language.len()..]
        .get(1..)
        .is_none_or(|r| (2..=3).contains(&r.len()) && r.bytes().all(|b| b.is_ascii_alphanumeric()));
    if language.len() != 2 || !region_ok {
        return None;
    }
    let tecdoc_own = language.as_bytes()[0].eq_ignore_ascii_case(&b'q')
        && language.as_bytes()[1].is_ascii_alphabetic();
    (tecdoc_own
        || ISO_639_1
            .split_ascii_whitespace()
            .any(|c| c.eq_ignore_ascii_case(language)))
    .then_some(language)
}

impl Language {
    /// The language asked for.
    pub fn code(&self) -> &str {
        &self.order[0]
    }

    /// The languages asked before the default along the order: those whose texts come from
    /// the translations (empty when the default is asked).
    pub fn translated(&self) -> &[String] {
        let default = self.order.iter().position(|l| **l == *self.default);
        &self.order[..default.unwrap_or(self.order.len())]
    }

    /// The catalogue's default language, whose texts are the data sets' own.
    pub fn default_code(&self) -> &str {
        &self.default
    }

    /// The asked language, then the others the catalogue holds, in fallback order.
    pub fn order(&self) -> &[String] {
        &self.order
    }

    /// Whether the catalogue serves texts in `code`.
    pub fn serves(&self, code: &str) -> bool {
        self.order.iter().any(|c| c == code)
    }

    /// Whether the asked language is the catalogue's default, whose texts are the data sets'
    /// own.
    pub fn is_default(&self) -> bool {
        *self.order[0] == *self.default
    }

    /// The text to answer: the asked language's, else the first along the order that has
    /// one; `own` (the data set's own text) is the default language's.
    pub fn pick<'a>(&self, own: &'a str, translated: impl Fn(&str) -> Option<&'a str>) -> &'a str {
        for code in self.order.iter() {
            if **code == *self.default {
                return own;
            }
            if let Some(text) = translated(code) {
                return text;
            }
        }
        own
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held() -> Languages {
        Languages::new(vec!["en".into(), "de".into(), "fr".into()])
    }

    #[test]
    fn the_asked_language_comes_first_then_the_catalogues_order() {
        assert_eq!(
            held().choose("lang", None).unwrap().order(),
            ["en", "de", "fr"]
        );
        assert_eq!(
            held().choose("lang", Some("FR")).unwrap().order(),
            ["fr", "en", "de"]
        );
        assert_eq!(held().choose("lang", Some("de")).unwrap().code(), "de");
    }

    #[test]
    fn a_text_falls_back_along_the_order_and_ends_at_the_default() {
        let held = Languages::new(vec!["en".into(), "de".into(), "fr".into(), "bg".into()]);
        let german_only = |code: &str| (code == "de").then_some("Bremsbelag");
        let fr = held.choose("lang", Some("fr")).unwrap();
        assert_eq!(fr.pick("Brake pad", german_only), "Brake pad");
        let de = held.choose("lang", Some("de")).unwrap();
        assert_eq!(de.pick("Brake pad", german_only), "Bremsbelag");
        assert!(!de.is_default() && held.default_language().is_default());
        assert_eq!(
            held.default_language().pick("Brake pad", german_only),
            "Brake pad"
        );
        let reordered = Languages::new(vec!["de".into(), "en".into()]);
        let en = reordered.choose("lang", Some("en")).unwrap();
        // English asked of a German catalogue: its English text, else the German own.
        assert_eq!(
            en.pick("Bremsbelag", |c| (c == "en").then_some("Brake pad")),
            "Brake pad"
        );
        assert_eq!(en.pick("Bremsbelag", |_| None), "Bremsbelag");
    }

    #[test]
    fn a_language_not_held_is_answered_in_the_default_and_no_code_is_refused() {
        for asked in ["bg", "HU", "hu-HU", "pt_BR"] {
            assert_eq!(held().choose("lang", Some(asked)).unwrap().code(), "en");
        }
        assert_eq!(held().choose("lang", Some("DE")).unwrap().code(), "de");
        assert_eq!(held().choose("lang", Some("fr-CA")).unwrap().code(), "fr");
        for not_a_code in ["xq", "english", "1", "", "de-", "de-ATTT", "d"] {
            let refused = held()
                .choose("lang", Some(not_a_code))
                .unwrap_err()
                .to_string();
            assert!(
                refused.contains(&format!("'{not_a_code}'")) && refused.contains("en, de, fr"),
                "{refused}"
            );
        }
    }

    #[test]
    fn accept_language_takes_the_heaviest_held_language() {
        assert_eq!(held().negotiate("de-AT, de;q=0.9, en;q=0.5").code(), "de");
        assert_eq!(held().negotiate("bg, fr;q=0.3, en;q=0.2").code(), "fr");
        assert_eq!(held().negotiate("it, es;q=0.5").code(), "en");
        assert_eq!(held().negotiate("fr;q=0, de;q=0.1").code(), "de");
        assert_eq!(held().negotiate("").code(), "en");
    }
}
