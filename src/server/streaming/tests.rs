use super::*;

fn csv(cells: &[&str]) -> String {
    written(cells, false)
}

fn written(cells: &[&str], spreadsheet: bool) -> String {
    let mut out = Vec::new();
    let mut line = CsvLine {
        out: &mut out,
        first: true,
        spreadsheet,
    };
    for c in cells {
        line.text(c);
    }
    line.end();
    String::from_utf8(out).unwrap()
}

#[test]
fn for_spreadsheets_codes_and_dates_stay_text_and_amounts_numbers() {
    let cells = [
        "4022287577583",
        "0986494958",
        "2016-03",
        "2026-01-31",
        "3/4",
        "12.50",
        "42",
        "0",
        "W 121/86",
        "4022287577583|4026800733562",
    ];
    assert_eq!(
        written(&cells, true),
        "\"=\"\"4022287577583\"\"\",\"=\"\"0986494958\"\"\",\"=\"\"2016-03\"\"\",\
         \"=\"\"2026-01-31\"\"\",\"=\"\"3/4\"\"\",12.50,42,0,W 121/86,4022287577583|4026800733562\r\n"
    );
    assert_eq!(written(&cells, false), format!("{}\r\n", cells.join(",")));
}

#[test]
fn formulas_are_neutralised_and_numbers_kept() {
    for (input, expected) in [
        ("=1+1", "'=1+1"),
        ("+49 30 1234", "'+49 30 1234"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("-12.50", "-12.50"),
        ("-", "'-"),
        ("-inf", "'-inf"),
        ("0 986 494 048", "0 986 494 048"),
        (
            "=HYPERLINK(\"x\",\"y\")",
            "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\"",
        ),
    ] {
        assert_eq!(csv(&[input]), format!("{expected}\r\n"), "{input}");
    }
    assert_eq!(csv(&["\tx"]), "'\tx\r\n");
}

#[test]
fn csv_cells_are_quoted_per_rfc_4180() {
    assert_eq!(
        csv(&["a,b", "say \"hi\"", "plain", "two\nlines"]),
        "\"a,b\",\"say \"\"hi\"\"\",plain,\"two\nlines\"\r\n"
    );
}
