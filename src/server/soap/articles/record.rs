//! An article as `getArticles` answers it: Pegasus's `ArticleRecord`, with the parts its
//! include flags ask for, mapped from the service's article detail.

use super::messages::{ArticleRecord, GetArticlesRequest, PartsListArticle};
use super::pegasus;
use crate::catalogue as model;
use crate::catalogue::documents::document_ids;
use crate::server::soap::vehicles::records::linkage_target;
use crate::service::articles::article_detail::{ArticleDetail, NamedNumber, Parts};
use crate::service::articles::kit_parts::KitPart;
use crate::service::media_links::MediaLinks;

pub struct Includes {
    misc: bool,
    generic_articles: bool,
    criteria: bool,
    gtins: bool,
    trade: bool,
    oem: bool,
    comparable: bool,
    replaces: bool,
    replaced_by: bool,
    pdfs: bool,
    images: bool,
    prices: bool,
    linkages: bool,
    pub parts_list: bool,
    pub part_of_kits: bool,
    text: bool,
}

impl Includes {
    pub fn of(r: &GetArticlesRequest) -> Includes {
        let all = r.include_all.unwrap_or(false);
        let flag = |f: Option<bool>| all || f.unwrap_or(false);
        Includes {
            misc: flag(r.include_misc),
            generic_articles: flag(r.include_generic_articles),
            criteria: flag(r.include_article_criteria),
            gtins: flag(r.include_gtins),
            trade: flag(r.include_trade_numbers),
            oem: flag(r.include_oem_numbers),
            comparable: flag(r.include_comparable_numbers),
            replaces: flag(r.include_replaces_articles),
            replaced_by: flag(r.include_replaced_by_articles),
            pdfs: flag(r.include_pdfs),
            images: flag(r.include_images),
            prices: flag(r.include_prices),
            linkages: flag(r.include_linkages),
            parts_list: flag(r.include_parts_list_articles),
            part_of_kits: flag(r.include_part_of_kits),
            text: flag(r.include_article_text),
        }
    }
}

impl Includes {
    /// The parts of an article these flags need read.
    pub fn parts(&self) -> Parts {
        Parts {
            numbers: self.oem || self.comparable || self.trade,
            criteria: self.criteria,
            prices: self.prices,
            media: self.pdfs || self.images,
            applications: self.linkages,
            // The media's numbers are made of the article's id.
            id: self.generic_articles || self.pdfs || self.images,
            replaced: self.replaces,
        }
    }
}

/// The record of one article, with the parts `inc` asks for; `linkages_total`: how many
/// vehicle types it fits, of which `d` holds the page asked; `links` the media's addresses.
pub fn record(
    d: ArticleDetail,
    linkages_total: u32,
    inc: &Includes,
    links: &MediaLinks,
) -> ArticleRecord {
    let a = d.article;
    let key = &a.key;
    let brand_name = d.brand_name;
    let (oem_numbers, comparable_numbers, trade_numbers) = numbers(d.numbers, inc);
    let (pdfs, images) = media(d.id, &d.media, inc, links);
    let genart_name = d.genart_name;
    let status_name = d.status_name;
    let (linkages, total_linkages) = if inc.linkages {
        let linked = (a.genart, genart_name.as_str());
        (linkages(d.applications, linked), Some(linkages_total))
    } else {
        (Vec::new(), None)
    };
    let same_brand = |number: String| pegasus::ArticleRef {
        article_number: number,
        data_supplier_id: Some(key.brand_id),
        mfr_id: key.brand_id,
        mfr_name: brand_name.clone(),
    };
    ArticleRecord {
        data_supplier_id: key.brand_id,
        article_number: a.reference.clone(),
        mfr_id: key.brand_id,
        misc: inc
            .misc
            .then(|| pegasus::MiscArticleData::of(&a, status_name)),
        generic_articles: if inc.generic_articles {
            vec![pegasus::GenericArticleRef {
                generic_article_id: pegasus::number(a.genart),
                generic_article_description: genart_name.clone(),
                legacy_article_id: d.id as i32,
            }]
        } else {
            Vec::new()
        },
        // The article's description is its one text.
        article_text: if inc.text && !a.description.is_empty() {
            vec![pegasus::ArticleText {
                information_type_key: 0,
                is_immediate_display: true,
                text: vec![a.description.clone()],
            }]
        } else {
            Vec::new()
        },
        gtins: if inc.gtins {
            a.eans.clone()
        } else {
            Vec::new()
        },
        trade_numbers,
        oem_numbers,
        replaces_articles: d
            .replaced
            .into_iter()
            .map(|old| same_brand(old.reference))
            .collect(),
        replaced_by_articles: if inc.replaced_by {
            a.replaced_by.iter().cloned().map(same_brand).collect()
        } else {
            Vec::new()
        },
        article_criteria: d.criteria.iter().map(pegasus::CriteriaRecord::of).collect(),
        linkages,
        pdfs,
        images,
        comparable_numbers,
        search_query_matches: Vec::new(),
        links: Vec::new(),
        total_linkages,
        prices: d.prices.iter().map(pegasus::PriceRecord::of).collect(),
        article_logistics_criteria: Vec::new(),
        normalised_article_number: key.reference.clone(),
        mfr_name: brand_name,
        parts_list_articles: Vec::new(),
        part_of_kits: Vec::new(),
    }
}

/// The OE, comparable and trade numbers the includes ask for.
fn numbers(
    all: Vec<NamedNumber>,
    inc: &Includes,
) -> (
    Vec<pegasus::ArticleRef>,
    Vec<pegasus::ArticleRef>,
    Vec<String>,
) {
    let (mut oem, mut comparable, mut trade) = (Vec::new(), Vec::new(), Vec::new());
    let reference = |x: &NamedNumber| pegasus::ArticleRef {
        article_number: x.number.number.clone(),
        data_supplier_id: None,
        mfr_id: x.number.manufacturer_id.unwrap_or(0),
        mfr_name: x.manufacturer_name.clone().unwrap_or_default(),
    };
    for x in all {
        match x.number.kind {
            model::CrossKind::Oe if inc.oem => oem.push(reference(&x)),
            model::CrossKind::Trade if inc.trade => trade.push(x.number.number),
            model::CrossKind::Competitor | model::CrossKind::Internal if inc.comparable => {
                comparable.push(reference(&x))
            }
            _ => {}
        }
    }
    (oem, comparable, trade)
}

/// The documents and images the includes ask for, of the article `article_id`.
fn media(
    article_id: u32,
    all: &[model::Media],
    inc: &Includes,
    links: &MediaLinks,
) -> (Vec<pegasus::PdfRecord>, Vec<pegasus::ImageRecord>) {
    let (mut pdfs, mut images) = (Vec::new(), Vec::new());
    for (m, doc_id) in all.iter().zip(document_ids(article_id, all)) {
        match m.kind {
            model::MediaKind::Document if inc.pdfs => {
                pdfs.push(pegasus::PdfRecord::of(m, doc_id, links))
            }
            model::MediaKind::Image | model::MediaKind::Spin360 if inc.images => {
                images.push(pegasus::ImageRecord::of(m, doc_id, links))
            }
            _ => {}
        }
    }
    (pdfs, images)
}

/// The vehicle types the article fits, of its generic article `linked`.
fn linkages(
    applications: Vec<(model::Link, model::Vehicle)>,
    linked: (u32, &str),
) -> Vec<pegasus::ArticleLinkageRecord> {
    applications
        .into_iter()
        .map(|(link, v)| {
            pegasus::ArticleLinkageRecord::new(
                linked,
                linkage_target(&v),
                link.position,
                link.quantity,
                link.notes,
            )
        })
        .collect()
}

impl PartsListArticle {
    pub fn of(part: KitPart) -> PartsListArticle {
        PartsListArticle {
            data_supplier_id: part.article.key.brand_id,
            mfr_name: part.brand_name,
            article_number: part.article.reference,
            legacy_article_id: pegasus::number(part.article_id),
            generic_article_id: pegasus::number(part.article.genart),
            generic_article_description: part.genart_name,
            quantity: part.quantity,
        }
    }
}
