//! A distributor pulls exports: JSON or CSV, with stable columns, a file name, compression
//! on request, and a scan that stops when the client goes away.

mod common;

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::server::{DEMO_KEY, Served, client};
use common::{generate, import, path};

/// Brand 1's articles and their link counts, from the demo's own CSV files.
fn demo_brand_1() -> (usize, usize) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo");
    let mut articles = csv::Reader::from_path(format!("{dir}/articles.csv")).unwrap();
    let refs: Vec<String> = articles
        .records()
        .map(|r| r.unwrap())
        .filter(|r| &r[0] == "1")
        .map(|r| r[1].to_owned())
        .collect();
    let mut links: HashMap<String, usize> = HashMap::new();
    let mut reader = csv::Reader::from_path(format!("{dir}/links.csv")).unwrap();
    for r in reader
        .records()
        .map(|r| r.unwrap())
        .filter(|r| &r[0] == "1")
    {
        *links.entry(r[1].to_owned()).or_default() += 1;
    }
    let flat = refs
        .iter()
        .map(|r| links.get(r).copied().unwrap_or(1))
        .sum();
    (refs.len(), flat)
}

fn csv_rows(text: &str) -> (Vec<String>, Vec<csv::StringRecord>) {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let rows = reader.records().map(|r| r.unwrap()).collect();
    (header, rows)
}

#[test]
fn every_export_streams_json_and_csv_with_stable_columns() {
    let s = Served::demo(&[]);
    let (articles, flat_rows) = demo_brand_1();
    // The documented column sets (docs/exports.md); a change here breaks distributors.
    let exports: [(&str, &str, &str); 7] = [
        (
            "/svc/exportCatalogue?brand_id=1",
            "catalogue-1",
            "brand_id,brand_name,reference,normalised_reference,genart,genart_name,description,status,eans,packaging_unit,replaced_by,list_price,currency,oe_numbers,ktypes",
        ),
        (
            "/svc/exportCatalogue?brand_id=1&is_flat_export=true",
            "catalogue-1-flat",
            "brand_id,brand_name,reference,genart,genart_name,description,status,ean,ktype,make,model,type_name,engine,fuel,kw,hp,ccm,year_from,year_to,position,quantity",
        ),
        (
            "/svc/exportGolda?brand_id=1",
            "golda-1",
            "reference,brand_id,brand_name,genart,genart_name,ktype,make,model,year_from,year_to,ean,price,currency",
        ),
        (
            "/svc/exportAtc?brand_id=1",
            "atc-1",
            "brand_id,brand_name,reference,genart,genart_name,criterion,value,unit",
        ),
        (
            "/svc/exportRefConcurrente?manufacturer_id=102",
            "competitor-refs-102",
            "manufacturer_id,manufacturer_name,competitor_number,brand_id,brand_name,reference,genart,genart_name,description",
        ),
        (
            "/svc/exportRefConcurrenteInterne?manufacturer_id=102&brand_id=2",
            "competitor-refs-102-brand-2",
            "manufacturer_id,manufacturer_name,competitor_number,brand_id,brand_name,reference,genart,genart_name,description",
        ),
        (
            "/svc/DMM?brand_id=1",
            "dmm-1",
            "brand_id,brand_name,reference,genart,genart_name,images,documents,spin_sets,spin_frames",
        ),
    ];
    let c = client();
    for (route, stem, columns) in exports {
        let json = s.get(route);
        assert_eq!(json.status, 200, "{route}: {}", json.text());
        assert_eq!(json.header("content-type"), "application/json", "{route}");
        assert_eq!(
            json.header("content-disposition"),
            format!("attachment; filename=\"{stem}.json\""),
            "{route}"
        );
        let rows = json.json();
        let rows = rows.as_array().unwrap();
        assert!(!rows.is_empty(), "{route}");

        let csv = if route.contains("Concurrente") || route.contains("DMM") {
            s.fetch(c.get(s.url(route)).header("Accept", "text/csv"))
        } else {
            s.get(&format!("{route}&is_csv_export=true"))
        };
        assert_eq!(csv.status, 200, "{route}");
        assert!(
            csv.header("content-type").starts_with("text/csv"),
            "{route}"
        );
        assert_eq!(
            csv.header("content-disposition"),
            format!("attachment; filename=\"{stem}.csv\""),
            "{route}"
        );
        let text = csv.text();
        assert!(text.ends_with("\r\n"), "{route}: RFC 4180 line ends");
        let (header, records) = csv_rows(&text);
        assert_eq!(header.join(","), columns, "{route}");
        assert_eq!(
            records.len(),
            rows.len(),
            "{route}: CSV and JSON hold the same rows"
        );
        assert!(records.iter().all(|r| r.len() == header.len()), "{route}");
        if route.contains("Interne") {
            assert!(records.iter().all(|r| &r[3] == "2"), "only brand 2's rows");
        }
    }
    // Every article of the brand once; flat: once per vehicle it fits.
    assert_eq!(
        s.get("/svc/exportCatalogue?brand_id=1")
            .json()
            .as_array()
            .unwrap()
            .len(),
        articles
    );
    let flat = s
        .get("/svc/exportCatalogue?brand_id=1&is_flat_export=true")
        .json();
    assert_eq!(flat.as_array().unwrap().len(), flat_rows);
    let nested = s.get("/svc/exportCatalogue?brand_id=1").json();
    let first = &nested[0];
    for field in ["criteria", "numbers", "prices", "media", "vehicles"] {
        assert!(first[field].is_array(), "{field}");
    }
}

#[test]
fn csv_for_spreadsheets_has_a_bom_and_keeps_codes_and_dates_as_text() {
    let s = Served::demo(&[]);
    let golda = "/svc/exportGolda?brand_id=1&is_csv_export=true";
    let plain = s.get(golda);
    assert_eq!(plain.status, 200);
    assert!(plain.body.starts_with(b"reference,"), "no BOM unless asked");
    let (_, rows) = csv_rows(&plain.text());
    let ean = rows
        .iter()
        .map(|r| r[10].to_owned())
        .find(|e| e.len() == 13)
        .unwrap();
    let year = rows
        .iter()
        .map(|r| r[8].to_owned())
        .find(|y| y.contains('-'))
        .unwrap();

    let for_sheets = s.get(&format!("{golda}&bom=true&spreadsheet=true"));
    assert_eq!(for_sheets.status, 200);
    assert!(for_sheets.body.starts_with(b"\xEF\xBB\xBFreference,"));
    let text = String::from_utf8(for_sheets.body[3..].to_vec()).unwrap();
    let (_, rows) = csv_rows(&text);
    let cells: Vec<String> = rows
        .iter()
        .flat_map(|r| r.iter().map(str::to_owned).collect::<Vec<_>>())
        .collect();
    // What a spreadsheet reads as text: the EAN whole, the month as written.
    assert!(cells.contains(&format!("=\"{ean}\"")), "{ean}");
    assert!(cells.contains(&format!("=\"{year}\"")), "{year}");
    // Prices stay numbers.
    assert!(
        rows.iter()
            .any(|r| !r[11].is_empty() && !r[11].starts_with('='))
    );

    // A setting makes it the default; a request still says otherwise.
    let s = Served::demo_with_env(&[], &[("PARTSCAT_CSV_BOM", "true")]);
    assert!(s.get(golda).body.starts_with(b"\xEF\xBB\xBF"));
    assert!(
        s.get(&format!("{golda}&bom=false"))
            .body
            .starts_with(b"reference,")
    );
    let bad = s.get(&format!("{golda}&spreadsheet=maybe"));
    assert_eq!(bad.status, 400);
    assert_eq!(bad.json()["parameter"], "spreadsheet");
}

#[test]
fn large_bodies_are_compressed_when_the_client_asks() {
    let s = Served::demo(&[]);
    let c = client();
    let route = "/svc/exportCatalogue?brand_id=1";
    let plain = s.get(route);
    assert_eq!(plain.header("content-encoding"), "");
    let gz = s.fetch(c.get(s.url(route)).header("Accept-Encoding", "gzip"));
    assert_eq!(gz.header("content-encoding"), "gzip");
    assert!(
        gz.body.len() * 4 < plain.body.len(),
        "gzip makes it much smaller"
    );
    let mut unpacked = Vec::new();
    flate2::read::GzDecoder::new(&gz.body[..])
        .read_to_end(&mut unpacked)
        .unwrap();
    assert_eq!(unpacked, plain.body);

    let br = s.fetch(
        c.get(s.url(route))
            .header("Accept-Encoding", "gzip;q=0.5, br"),
    );
    assert_eq!(br.header("content-encoding"), "br");
    // Lookups are compressed too once they are large; small answers go out as they are.
    let ktype = s.fetch(
        c.get(s.url("/svc/getArticlesByKtype/10219"))
            .header("Accept-Encoding", "gzip"),
    );
    assert_eq!(ktype.header("content-encoding"), "gzip");
    let small = s.fetch(
        c.get(s.url("/svc/getCrossRefsOrArticle/NOSUCH?mainref"))
            .header("Accept-Encoding", "gzip"),
    );
    assert_eq!(small.header("content-encoding"), "");
}

#[test]
fn a_client_that_disconnects_mid_export_stops_the_scan() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("csv");
    generate(40_000, 7, &files);
    let data = dir.path().join("data");
    let (ok, _) = import(&data, &[path(&files)]);
    assert!(ok);
    // `--demo` on a store that holds a catalogue only adds the demo provider.
    let s = Served::start(&data, &["--demo", "--demo-key", DEMO_KEY]);

    let address = s.base.trim_start_matches("http://").to_owned();
    let mut stream = TcpStream::connect(&address).unwrap();
    write!(
        stream,
        "GET /svc/exportCatalogue?brand_id=1&is_flat_export=true&provider=demo&api_key={DEMO_KEY} HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .unwrap();
    let mut first = [0u8; 64 * 1024];
    stream.read_exact(&mut first).unwrap();
    assert!(String::from_utf8_lossy(&first).starts_with("HTTP/1.1 200"));
    drop(stream);

    let deadline = Instant::now() + Duration::from_secs(30);
    while !s
        .log_text()
        .contains("export stopped: the client disconnected")
    {
        assert!(
            !s.log_text().contains("export sent"),
            "the scan ran to its end: {}",
            s.log_text()
        );
        assert!(
            Instant::now() < deadline,
            "no stop logged: {}",
            s.log_text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
