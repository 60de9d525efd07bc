//! The demo catalogue's documents, written rather than shipped: a one-page PDF for each
//! document row, titled with the row's caption and naming the article, so every address the
//! demo's answers give leads to a file.

use std::fmt::Write as _;

/// Printable ASCII, the PDF string's escapes doubled; anything else a question mark (the
/// page's font is the standard Helvetica, in its standard encoding).
fn pdf_text(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '(' | ')' | '\\' => format!("\\{c}"),
            ' '..='~' => c.to_string(),
            _ => "?".into(),
        })
        .collect()
}

/// A one-page A4 PDF: `title` large, then each of `lines`.
pub fn leaflet(title: &str, lines: &[String]) -> Vec<u8> {
    let mut content = format!("BT /F1 20 Tf 72 760 Td ({}) Tj ET\n", pdf_text(title));
    for (i, line) in lines.iter().enumerate() {
        let y = 720 - 18 * i;
        let _ = writeln!(content, "BT /F1 12 Tf 72 {y} Td ({}) Tj ET", pdf_text(line));
    }
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>".to_owned(),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_owned(),
        format!("<< /Length {} >>\nstream\n{content}endstream", content.len()),
    ];
    let mut out = String::from("%PDF-1.4\n");
    let mut offsets = Vec::with_capacity(objects.len());
    for (i, object) in objects.iter().enumerate() {
        offsets.push(out.len());
        let _ = write!(out, "{} 0 obj\n{object}\nendobj\n", i + 1);
    }
    let xref = out.len();
    let _ = write!(out, "xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
    for offset in offsets {
        let _ = writeln!(out, "{offset:010} 00000 n ");
    }
    let _ = write!(
        out,
        "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
        objects.len() + 1
    );
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leaflet_is_a_pdf_whose_table_points_at_its_objects() {
        let pdf = leaflet(
            "Mounting (front)",
            &["BOSCH 0 986 A45 240".into(), "Größe".into()],
        );
        let text = String::from_utf8(pdf).unwrap();
        assert!(text.starts_with("%PDF-1.4\n") && text.ends_with("%%EOF\n"));
        assert!(text.contains("(Mounting \\(front\\)) Tj"));
        assert!(text.contains("(Gr??e) Tj"));
        let xref: usize = text
            .rsplit("startxref\n")
            .next()
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(text[xref..].starts_with("xref\n0 6\n"));
        for (n, entry) in text[xref..].lines().skip(3).take(5).enumerate() {
            let offset: usize = entry[..10].parse().unwrap();
            assert!(
                text[offset..].starts_with(&format!("{} 0 obj", n + 1)),
                "{entry}"
            );
        }
    }
}
