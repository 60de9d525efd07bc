//! An article's documents and images as `getArticles` answers them (`includePDFs`,
//! `includeImages`).

use poem_openapi::Object;
use serde::Serialize;

use crate::catalogue::{self as model, MediaKind};
use crate::service::media_links::{MediaLinks, Variant};

/// A document of an article (`includePDFs`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "PDFRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct PdfRecord {
    /// The file's name, the last part of its URI.
    pub file_name: String,
    /// `document`.
    pub type_description: String,
    /// Its caption.
    pub header_description: String,
    /// Where the file is: partscat's documents route, signed for this file (a browser
    /// fetches it without the provider's key).
    pub url: String,
}

/// An image, or a frame of a 360-degree set (`includeImages`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "ImageRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ImageRecord {
    /// The file's name, the last part of its URI.
    pub file_name: String,
    /// `image`, or `spin360` for a frame of a 360-degree set.
    pub type_description: String,
    /// Its caption.
    pub header_description: String,
    /// The picture fitted within 50 pixels: partscat's documents route with `size=50`, signed
    /// for this file (a browser fetches it without the provider's key); a picture within the
    /// size already, or not a JPEG or PNG, is answered as it is.
    #[oai(rename = "imageURL50")]
    #[serde(rename = "imageURL50")]
    pub image_url_50: String,
    /// The picture fitted within 100 pixels, as `imageURL50` says.
    #[oai(rename = "imageURL100")]
    #[serde(rename = "imageURL100")]
    pub image_url_100: String,
    /// The picture fitted within 200 pixels, as `imageURL50` says.
    #[oai(rename = "imageURL200")]
    #[serde(rename = "imageURL200")]
    pub image_url_200: String,
    /// The picture fitted within 400 pixels, as `imageURL50` says.
    #[oai(rename = "imageURL400")]
    #[serde(rename = "imageURL400")]
    pub image_url_400: String,
    /// The picture fitted within 800 pixels, as `imageURL50` says.
    #[oai(rename = "imageURL800")]
    #[serde(rename = "imageURL800")]
    pub image_url_800: String,
    /// The 360 set a frame belongs to; empty for an image.
    pub set: String,
    /// Order within the article (frames: within the set).
    pub position: u32,
}

pub fn file_name(uri: &str) -> String {
    uri.rsplit('/').next().unwrap_or(uri).to_owned()
}

impl ImageRecord {
    pub fn of(m: &model::Media, doc_id: u64, links: &MediaLinks) -> ImageRecord {
        let sized = |px| links.address(doc_id, Variant::Sized(px));
        ImageRecord {
            file_name: file_name(&m.uri),
            type_description: match m.kind {
                MediaKind::Spin360 => "spin360",
                _ => "image",
            }
            .into(),
            header_description: m.description.clone(),
            image_url_50: sized(50),
            image_url_100: sized(100),
            image_url_200: sized(200),
            image_url_400: sized(400),
            image_url_800: sized(800),
            set: m.set.clone(),
            position: m.position,
        }
    }
}

impl PdfRecord {
    pub fn of(m: &model::Media, doc_id: u64, links: &MediaLinks) -> PdfRecord {
        PdfRecord {
            file_name: file_name(&m.uri),
            type_description: "document".into(),
            header_description: m.description.clone(),
            url: links.address(doc_id, Variant::File),
        }
    }
}
