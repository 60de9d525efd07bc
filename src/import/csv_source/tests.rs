use super::*;

/// The line of each row, or of each row the reader refuses.
fn lines_of(text: &str) -> Vec<u64> {
    let spec = ColumnSpec {
        columns: const { &[must("a"), must("b")] },
    };
    let bytes = text.as_bytes().to_vec();
    let total = bytes.len() as u64;
    let mut source = open(
        Box::new(Cursor::new(bytes)),
        total,
        &spec,
        &Limits::default(),
    )
    .unwrap();
    let mut lines = Vec::new();
    source
        .for_each_row(|row| {
            lines.push(match row {
                Ok(row) => row.line,
                Err((line, _)) => line,
            });
            Ok(())
        })
        .unwrap();
    lines
}

#[test]
fn fields_are_read_without_the_spaces_around_them() {
    let spec = ColumnSpec {
        columns: const { &[must("a"), must("b")] },
    };
    let text = b" a , b \n  12 ,\t x y \n".to_vec();
    let total = text.len() as u64;
    let mut source = open(
        Box::new(Cursor::new(text)),
        total,
        &spec,
        &Limits::default(),
    )
    .unwrap();
    let mut fields = Vec::new();
    source
        .for_each_row(|row| {
            let row = row.map_err(|(_, e)| e)?;
            fields.push((row.get("a").to_owned(), row.get("b").to_owned()));
            Ok(())
        })
        .unwrap();
    assert_eq!(fields, [("12".to_owned(), "x y".to_owned())]);
}

#[test]
fn rows_carry_the_files_own_line_numbers_whatever_the_line_ends() {
    let rows = ["1,2", "3,4", "5", "\"six\nlines\",7", "8,9"];
    for end in ["\n", "\r\n"] {
        let text = format!("a,b{end}{}{end}", rows.join(end));
        assert_eq!(lines_of(&text), [2, 3, 4, 5, 7], "{end:?}");
        let with_bom = format!("\u{feff}{text}");
        assert_eq!(lines_of(&with_bom), [2, 3, 4, 5, 7], "BOM, {end:?}");
    }
    // Without a final line end, and with a row that spans three lines.
    assert_eq!(lines_of("a,b\r\n\"x\r\ny\r\nz\",1\r\n2,3"), [2, 5]);
}

#[test]
fn an_over_long_field_is_a_rejected_row_and_an_endless_row_stops_the_file() {
    let spec = ColumnSpec {
        columns: const { &[must("reference"), must("name")] },
    };
    let read = |text: String| {
        let total = text.len() as u64;
        let input = Box::new(Cursor::new(text.into_bytes()));
        let mut source = open(input, total, &spec, &Limits::default())?;
        let mut outcomes = Vec::new();
        source.for_each_row(|row| {
            outcomes.push(
                row.map(|r| r.line)
                    .map_err(|(line, m)| format!("{line}: {m}")),
            );
            Ok(())
        })?;
        Ok::<_, String>(outcomes)
    };
    let name = "n".repeat(600);
    let outcomes = read(format!("reference,name\nA1,fine\nA2,{name}\n")).unwrap();
    assert_eq!(outcomes[0], Ok(2));
    let e = outcomes[1].clone().unwrap_err();
    assert!(e.starts_with("3: column 'name' is 600 bytes"), "{e}");
    assert!(e.contains("limits.text_bytes"), "{e}");

    let endless = format!("reference,name\nA1,fine\nA2,\"{}\"\n", "x".repeat(1 << 20));
    let e = read(endless).unwrap_err();
    assert!(e.starts_with("line 3: a row over the limit"), "{e}");
    let e = read(format!("reference,{}\n", "n".repeat(70_000))).unwrap_err();
    assert!(e.contains("header row is over the limit"), "{e}");
}

#[test]
fn delimiter_follows_the_header() {
    assert_eq!(sniff_delimiter(b"brand_id;name\n"), b';');
    assert_eq!(sniff_delimiter(b"brand_id,name\n"), b',');
    assert_eq!(sniff_delimiter(b"\"a;b\",c\n"), b',');
    assert_eq!(sniff_delimiter(b"name\n"), b',');
}
