//! An article's documents and images as `getArticles` answers them (`includePDFs`,
//! `includeImages`).

use poem_openapi::Object;
use serde::Serialize;

use crate::catalogue::{self as model, MediaKind};

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
    /// Where the file is (relative to the maker's media base).
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
    /// The image's URI: partscat keeps one size, so the five sizes name the same file.
    #[oai(rename = "imageURL50")]
    #[serde(rename = "imageURL50")]
    pub image_url_50: String,
    /// The same URI.
    #[oai(rename = "imageURL100")]
    #[serde(rename = "imageURL100")]
    pub image_url_100: String,
    /// The same URI.
    #[oai(rename = "imageURL200")]
    #[serde(rename = "imageURL200")]
    pub image_url_200: String,
    /// The same URI.
    #[oai(rename = "imageURL400")]
    #[serde(rename = "imageURL400")]
    pub image_url_400: String,
    /// The same URI.
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
    pub fn of(m: &model::Media) -> ImageRecord {
        ImageRecord {
            file_name: file_name(&m.uri),
            type_description: match m.kind {
                MediaKind::Spin360 => "spin360",
                _ => "image",
            }
            .into(),
            header_description: m.description.clone(),
            image_url_50: m.uri.clone(),
            image_url_100: m.uri.clone(),
            image_url_200: m.uri.clone(),
            image_url_400: m.uri.clone(),
            image_url_800: m.uri.clone(),
            set: m.set.clone(),
            position: m.position,
        }
    }
}

impl PdfRecord {
    pub fn of(m: &model::Media) -> PdfRecord {
        PdfRecord {
            file_name: file_name(&m.uri),
            type_description: "document".into(),
            header_description: m.description.clone(),
            url: m.uri.clone(),
        }
    }
}
