//! Pictures for the demo catalogue's media rows, drawn rather than shipped: a disc in the
//! colour of the article's generic article, and for a 360-degree set one frame per step of a
//! turn (the bolt holes and a mark go round). They fill the media store on `serve --demo`
//! where it lacks a URI, with the documents (`leaflets`), so the catalogue browser has
//! images, spin sets and documents to show on a LAN with no media source. Being content-addressed, the store keeps each drawing once.

use std::collections::HashMap;
use std::f64::consts::TAU;

use crate::catalogue::{Media, MediaKind};
use crate::media::{MediaStore, Stored};
use crate::store::Store;

/// Width and height, in pixels.
const SIDE: usize = 200;

/// A drawing: the generic article it is coloured for, and the frame of how many it is.
type Drawing = (u32, u32, u32);

/// Draws every picture and writes every document (`leaflets`) the demo catalogue's media
/// rows name and `media` lacks; returns how many URIs it added.
pub fn fill_media_store(store: &Store, media: &MediaStore) -> Result<usize, String> {
    let catalogue = store.catalogue();
    let rows: Vec<Media> = catalogue
        .records::<Media>()
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let mut frames: HashMap<(&crate::catalogue::ArticleKey, &str), u32> = HashMap::new();
    for m in rows.iter().filter(|m| m.kind == MediaKind::Spin360) {
        *frames.entry((&m.article, m.set.as_str())).or_default() += 1;
    }
    // Each drawing is made once; the rows that show it name the file already stored.
    let mut drawn: HashMap<Drawing, Stored> = HashMap::new();
    let mut added = 0;
    for m in &rows {
        if media.lookup(&m.uri).is_some() {
            continue;
        }
        let Some(article) = catalogue.article(&m.article).map_err(|e| e.to_string())? else {
            continue;
        };
        if m.kind == MediaKind::Document {
            let lines = [article.reference.clone(), article.description.clone()];
            let part = media.partial_path(&m.uri);
            std::fs::write(&part, super::leaflets::leaflet(&m.description, &lines))
                .and_then(|()| media.admit_remade(&m.uri, &part, "application/pdf"))
                .map_err(|e| e.to_string())?;
            added += 1;
            continue;
        }
        let drawing = match m.kind {
            MediaKind::Spin360 => {
                let of = frames.get(&(&m.article, m.set.as_str())).copied();
                (article.genart, m.position, of.unwrap_or(1).max(1))
            }
            _ => (article.genart, 0, 1),
        };
        match drawn.get(&drawing) {
            Some(stored) => media.name_remade(&m.uri, stored),
            None => {
                let part = media.partial_path(&m.uri);
                std::fs::write(&part, picture(drawing).map_err(|e| e.to_string())?)
                    .and_then(|()| media.admit_remade(&m.uri, &part, "image/png"))
                    .map(|stored| {
                        drawn.insert(drawing, stored);
                    })
            }
        }
        .map_err(|e| e.to_string())?;
        added += 1;
    }
    Ok(added)
}

/// A disc seen from the front, turned by `frame / of` of a full turn, as a PNG.
fn picture((genart, frame, of): Drawing) -> Result<Vec<u8>, png::EncodingError> {
    let turn = TAU * f64::from(frame) / f64::from(of);
    let hue = f64::from(genart.wrapping_mul(47) % 360);
    let tint = |light: f64| colour(hue, 0.25, light);
    let centre = SIDE as f64 / 2.0;
    let holes: Vec<(f64, f64)> = (0..5)
        .map(|k| turn + TAU * f64::from(k) / 5.0)
        .map(|a| (centre + 26.0 * a.cos(), centre + 26.0 * a.sin()))
        .collect();
    let mark = (centre + 76.0 * turn.cos(), centre + 76.0 * turn.sin());
    let mut pixels = Vec::with_capacity(SIDE * SIDE * 3);
    for y in 0..SIDE {
        for x in 0..SIDE {
            let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
            // Distances squared: compared with radii squared.
            let r = (px - centre).powi(2) + (py - centre).powi(2);
            let near = |(hx, hy): (f64, f64), radius: f64| {
                (px - hx).powi(2) + (py - hy).powi(2) < radius * radius
            };
            let ring = |from: f64, to: f64| (from * from..to * to).contains(&r);
            let rgb = if r > 92.0 * 92.0 {
                [246, 246, 246]
            } else if near(mark, 7.0) {
                colour(hue, 0.8, 0.45)
            } else if ring(88.0, 93.0) || ring(60.0, 64.0) {
                tint(0.35)
            } else if r < 12.0 * 12.0 || holes.iter().any(|&h| near(h, 5.5)) {
                [246, 246, 246]
            } else if r < 40.0 * 40.0 {
                tint(0.75)
            } else {
                tint(0.6)
            };
            pixels.extend_from_slice(&rgb);
        }
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, SIDE as u32, SIDE as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&pixels)?;
    writer.finish()?;
    Ok(out)
}

/// An RGB colour from hue (degrees), saturation and lightness (0 to 1).
fn colour(hue: f64, saturation: f64, light: f64) -> [u8; 3] {
    let chroma = (1.0 - (2.0 * light - 1.0).abs()) * saturation;
    let h = hue / 60.0;
    let x = chroma * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (chroma, x, 0.0),
        1 => (x, chroma, 0.0),
        2 => (0.0, chroma, x),
        3 => (0.0, x, chroma),
        4 => (x, 0.0, chroma),
        _ => (chroma, 0.0, x),
    };
    let m = light - chroma / 2.0;
    [r, g, b].map(|c| ((c + m) * 255.0).round().clamp(0.0, 255.0) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_of_a_turn_differ_and_a_frame_is_drawn_the_same_each_time() {
        let first = picture((7, 0, 36)).unwrap();
        assert_eq!(&first[1..4], b"PNG");
        assert_eq!(first, picture((7, 0, 36)).unwrap());
        assert_ne!(first, picture((7, 9, 36)).unwrap());
        assert_ne!(first, picture((8, 0, 36)).unwrap());
    }
}
