//! `getDirectArticlesByIds6`'s request: the articles by id and a flag for each list of
//! theirs to answer (the records are `by_ids.rs`).

use crate::server::soap::fields::IntegerList;

request!(
    /// `getDirectArticlesByIds6` (Pegasus's `directArticlesByIds6Request`): articles by
    /// numeric id with the details each flag asks for.
    GetDirectArticlesByIds6Request {
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        article_country: Option<String>,
        /// The articles' numeric ids (`legacyArticleId`); at most 100.
        article_id: Option<IntegerList>,
        /// true: `articleAttributes`, the article's criteria.
        attributs: Option<bool>,
        /// true: `directArticle`, the article's number, brand, names, state and flags.
        basic_data: Option<bool>,
        /// true: `articleDocuments`, its documents and pictures.
        documents: Option<bool>,
        /// true: `eanNumber`, its EAN/GTIN codes.
        ean_numbers: Option<bool>,
        /// true: `immediateAttributs`, the criteria shown at once (every criterion).
        immediate_attributs: Option<bool>,
        /// true: `immediateInfo`; partscat keeps no article notes, so it is empty.
        immediate_info: Option<bool>,
        /// true: `articleInfo`; partscat keeps no article notes, so it is empty.
        info: Option<bool>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// true: `mainArticle`, the kits the article is part of.
        main_articles: Option<bool>,
        /// true: `normalAustauschPrice`, its exchange prices (price type `exchange`).
        normal_austausch_price: Option<bool>,
        /// true: `oenNumbers`, its OE numbers with their makers.
        oe_numbers: Option<bool>,
        /// Only prices valid on this day (YYYYMMDD).
        price_date: Option<i32>,
        /// true: `articlePrices`, its prices other than exchange prices.
        prices: Option<bool>,
        /// true: `replacedByNumber`, the numbers that replace it.
        replaced_by_numbers: Option<bool>,
        /// true: `replacedNumber`, the articles it replaces.
        replaced_numbers: Option<bool>,
        /// true: `articleThumbnails`, its pictures.
        thumbnails: Option<bool>,
        /// true: `usageNumbers2`, its trade numbers.
        usage_numbers: Option<bool>,
    }
);
