//! Examples for the OpenAPI document, taken from the demo catalogue, so a developer browsing
//! `/docs` sees real-looking answers. Nested types compose their parts' examples.

use poem_openapi::types::Example;

use super::data_set::DataSetOrAll;
use super::export_rows::*;
use super::imports::{JobKind, JobProgress, JobState, JobStatus, Mode, Report};
use super::lookups::{CrossDirection, CrossReference};
use crate::import::ImportType;
use crate::server::answers::prices::{
    ArticlePrices, ArticleRef, KitComponentPrice, KitPrice, KitPriceSource,
};
use crate::server::answers::records::*;
use crate::server::problem::ProblemDetails;

impl Example for ProblemDetails {
    fn example() -> Self {
        ProblemDetails {
            kind: "about:blank".into(),
            title: "Bad Request".into(),
            status: 400,
            detail: "parameter `brand_id` must be a positive integer (1 or more)".into(),
            parameter: Some("brand_id".into()),
        }
    }
}

impl Example for Criterion {
    fn example() -> Self {
        Criterion {
            name: "Width".into(),
            value: "105".into(),
            unit: "mm".into(),
        }
    }
}

impl Example for Media {
    fn example() -> Self {
        Media {
            kind: "image".into(),
            set: String::new(),
            position: 0,
            uri: "media/1/0986494958.jpg".into(),
            description: "Brake Pad Set, disc brake".into(),
        }
    }
}

impl Example for ArticleNumber {
    fn example() -> Self {
        ArticleNumber {
            kind: CrossKind::Oe,
            number: "2800 67 91".into(),
            manufacturer_id: Some(6),
            manufacturer_name: Some("PEUGEOT".into()),
        }
    }
}

impl Example for Article {
    fn example() -> Self {
        Article {
            brand_id: 1,
            brand_name: "Veltra Brakes".into(),
            reference: "0 986 494 958".into(),
            normalised_reference: "0986494958".into(),
            genart: 402,
            genart_name: "Brake Pad Set, disc brake".into(),
            description: "Brake Pad Set, disc brake, front axle".into(),
            status: ArticleStatus::Active,
            eans: vec!["4019847588639".into()],
            packaging_unit: 1,
            replaced_by: Vec::new(),
            criteria: vec![Criterion::example()],
            numbers: vec![ArticleNumber::example()],
            prices: vec![Price::example()],
            media: vec![Media::example()],
        }
    }
}

impl Example for ArticleSummary {
    fn example() -> Self {
        ArticleSummary {
            brand_id: 1,
            brand_name: "Veltra Brakes".into(),
            reference: "0 986 494 958".into(),
            genart: 402,
            genart_name: "Brake Pad Set, disc brake".into(),
            description: "Brake Pad Set, disc brake, front axle".into(),
            status: ArticleStatus::Active,
        }
    }
}

impl Example for ArticleRef {
    fn example() -> Self {
        ArticleRef {
            brand_id: 1,
            brand_name: "Veltra Brakes".into(),
            reference: "0 986 494 958".into(),
            genart: 402,
            genart_name: "Brake Pad Set, disc brake".into(),
        }
    }
}

impl Example for Vehicle {
    fn example() -> Self {
        Vehicle {
            ktype: "10219".into(),
            make: "AUDI".into(),
            model: "A3 Sportback (8VA, 8VF)".into(),
            type_name: "1.0 TSI".into(),
            engine: "CHZD".into(),
            fuel: "Petrol".into(),
            kw: 70,
            hp: 95,
            ccm: 999,
            year_from: "2013-08".into(),
            year_to: Some("2020-03".into()),
        }
    }
}

impl Example for CrossReference {
    fn example() -> Self {
        CrossReference {
            direction: CrossDirection::FromArticle,
            brand_id: 1,
            brand_name: "Veltra Brakes".into(),
            article_reference: "0 986 494 958".into(),
            genart: 402,
            genart_name: "Brake Pad Set, disc brake".into(),
            kind: CrossKind::Competitor,
            number: "FN 717/5".into(),
            manufacturer_id: Some(102),
            manufacturer_name: Some("FILTRA NORD".into()),
        }
    }
}

impl Example for Fitment {
    fn example() -> Self {
        Fitment {
            ktype: "10570".into(),
            position: "front axle".into(),
            quantity: 1,
            notes: String::new(),
        }
    }
}

impl Example for FlatCatalogueRow {
    fn example() -> Self {
        let mut row = FlatCatalogueRow {
            brand_id: 1,
            brand_name: "Veltra Brakes".into(),
            reference: "0 986 494 958".into(),
            genart: 402,
            genart_name: "Brake Pad Set, disc brake".into(),
            description: "Brake Pad Set, disc brake, front axle".into(),
            status: "active".into(),
            ean: "4019847588639".into(),
            position: "front axle".into(),
            quantity: Some(1),
            ..Default::default()
        };
        row.set_vehicle(&Vehicle::example());
        row
    }
}

impl Example for GoldaRow {
    fn example() -> Self {
        GoldaRow {
            reference: "0 986 494 958".into(),
            brand_id: 1,
            brand_name: "Veltra Brakes".into(),
            genart: 402,
            genart_name: "Brake Pad Set, disc brake".into(),
            ktype: "10219".into(),
            make: "AUDI".into(),
            model: "A3 Sportback (8VA, 8VF)".into(),
            year_from: "2013-08".into(),
            year_to: "2020-03".into(),
            ean: "4019847588639".into(),
            price: "61.07".into(),
            currency: "EUR".into(),
        }
    }
}

impl Example for AtcRow {
    fn example() -> Self {
        AtcRow {
            brand_id: 1,
            brand_name: "Veltra Brakes".into(),
            reference: "0 986 494 958".into(),
            genart: 402,
            genart_name: "Brake Pad Set, disc brake".into(),
            criterion: "Width".into(),
            value: "105".into(),
            unit: "mm".into(),
        }
    }
}

impl Example for CompetitorReferenceRow {
    fn example() -> Self {
        CompetitorReferenceRow {
            manufacturer_id: 102,
            manufacturer_name: "FILTRA NORD".into(),
            competitor_number: "FN 717/5".into(),
            brand_id: 1,
            brand_name: "Veltra Brakes".into(),
            reference: "0 986 494 958".into(),
            genart: 402,
            genart_name: "Brake Pad Set, disc brake".into(),
            description: "Brake Pad Set, disc brake, front axle".into(),
        }
    }
}

impl Example for DmmArticle {
    fn example() -> Self {
        DmmArticle {
            brand_id: 1,
            brand_name: "Veltra Brakes".into(),
            reference: "0 986 494 958".into(),
            genart: 402,
            genart_name: "Brake Pad Set, disc brake".into(),
            images: vec![DmmFile {
                position: 0,
                uri: "media/1/0986494958.jpg".into(),
                description: "Brake Pad Set, disc brake".into(),
            }],
            documents: Vec::new(),
            spin_sets: Vec::new(),
        }
    }
}

impl Example for Price {
    fn example() -> Self {
        Price {
            price_type: "list".into(),
            currency: "EUR".into(),
            amount: "61.07".into(),
            valid_from: Some("2026-01-01".into()),
            valid_to: None,
        }
    }
}

impl Example for ArticlePrices {
    fn example() -> Self {
        ArticlePrices {
            article: ArticleRef::example(),
            prices: vec![Price::example()],
        }
    }
}

impl Example for KitComponentPrice {
    fn example() -> Self {
        KitComponentPrice {
            article: ArticleRef {
                brand_id: 1,
                brand_name: "Veltra Brakes".into(),
                reference: "0 986 478 849".into(),
                genart: 82,
                genart_name: "Brake Disc".into(),
            },
            quantity: 2,
            unit_amount: Some("70.68".into()),
            currency: Some("EUR".into()),
        }
    }
}

impl Example for KitPrice {
    fn example() -> Self {
        KitPrice {
            kit: Some(ArticleRef {
                brand_id: 1,
                brand_name: "Veltra Brakes".into(),
                reference: "0 986 A45 240".into(),
                genart: 3500,
                genart_name: "Brake Kit".into(),
            }),
            source: KitPriceSource::Own,
            currency: Some("EUR".into()),
            amount: Some("117.63".into()),
            components: vec![KitComponentPrice::example()],
        }
    }
}

impl Example for Report {
    fn example() -> Self {
        Report {
            verdict: "committed".into(),
            data_version: Some(2),
            import_type: "prices".into(),
            rows: 2502,
            added: 0,
            changed: 1,
            unchanged: 2501,
            removed: 0,
            rejected: 0,
            errors: Vec::new(),
            left_out: Default::default(),
        }
    }
}

impl Example for JobStatus {
    fn example() -> Self {
        JobStatus {
            id: 1,
            kind: JobKind::Import,
            state: JobState::Succeeded,
            import_type: Some(DataSetOrAll::of(Some(ImportType::Prices))),
            brand_id: None,
            publish: None,
            download360: None,
            file_id: Some("prices.csv".into()),
            mode: Some(Mode::Merge),
            dry_run: Some(false),
            refresh: None,
            started_by: "demo".into(),
            status_url: "/svc/jobs/1".into(),
            started_at: 1_795_000_000,
            finished_at: Some(1_795_000_001),
            progress: JobProgress {
                phase: "finished".into(),
                bytes_read: 131_072,
                bytes_total: 131_072,
                files_done: None,
                files_total: None,
            },
            report: Some(Report::example()),
            files: None,
            sync: None,
            dmm: None,
            error: None,
        }
    }
}
