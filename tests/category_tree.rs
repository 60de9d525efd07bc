//! The catalogue team imports model series, the assembly-group tree and where each generic
//! article sits in it: rows that break the tree are rejected by their line, a tree whose
//! nodes are still referred to keeps them, and `check` says what a catalogue lacks.

mod common;

use std::fs;
use std::path::Path;

use common::*;

/// Imports `body` as a file of `data_set`; the report's errors as (line, message).
fn rejected(data: &Path, dir: &Path, data_set: &str, body: &str) -> Vec<(u64, String)> {
    let file = dir.join(format!("{data_set}.csv"));
    fs::write(&file, body).unwrap();
    let (ok, report) = import(data, &["--type", data_set, path(&file)]);
    assert!(!ok, "{data_set}: {report}");
    report["files"][0]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["line"].as_u64().unwrap(),
                e["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn rows_that_break_the_tree_are_rejected_by_their_line_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let (data, _, checksum) = generated_store(dir.path());

    let errors = rejected(
        &data,
        dir.path(),
        "assembly_groups",
        "node_id,parent_id,target_type,name,sort\n\
         900002,900001,passenger_car,Child before its parent,2\n\
         900001,100001,passenger_car,Parking Brake,1\n\
         900003,999999,passenger_car,Under nothing,3\n\
         900004,900003,passenger_car,Under a rejected node,4\n\
         900005,900006,passenger_car,Loop A,5\n\
         900006,900005,passenger_car,Loop B,6\n\
         900007,100001,commercial,A truck node under a car node,7\n\
         900008,900008,passenger_car,Its own parent,8\n",
    );
    let lines: Vec<u64> = errors.iter().map(|(l, _)| *l).collect();
    assert_eq!(lines, vec![4, 5, 6, 7, 8, 9], "{errors:?}");
    assert!(
        errors[0]
            .1
            .contains("parent, node 999999, is not in the catalogue"),
        "{errors:?}"
    );
    assert!(
        errors[2]
            .1
            .contains("makes a cycle (900005 → 900006 → 900005)"),
        "{errors:?}"
    );
    assert!(
        errors[4].1.contains("target type P, node 900007 of C"),
        "{errors:?}"
    );
    assert!(errors[5].1.contains("its own parent"), "{errors:?}");

    let errors = rejected(
        &data,
        dir.path(),
        "genart_groups",
        "genart_id,node_id\n402,100011\n402,777777\n999,100011\n",
    );
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(errors[0].0, 3);
    assert!(errors[0].1.contains("assembly group 777777"), "{errors:?}");
    assert!(errors[1].1.contains("genart 999"), "{errors:?}");

    let errors = rejected(
        &data,
        dir.path(),
        "model_series",
        "model_series_id,manufacturer_id,name,year_from,year_to\n\
         5001,9999,NOWHERE,2020-01,\n\
         5002,1,BACKWARDS,2020-01,2019-12\n",
    );
    assert!(errors[0].1.contains("manufacturer 9999"), "{errors:?}");
    assert!(errors[1].1.contains("'year_to' is before"), "{errors:?}");

    let errors = rejected(
        &data,
        dir.path(),
        "vehicles",
        "ktype,make,model,year_from,model_series_id,target_type,kw,kw_to\n\
         99001,VW,GOLF,2020-01,424242,,,\n\
         99002,VW,GOLF,2020-01,101,lorry,,\n\
         99003,VW,GOLF,2020-01,101,,90,80\n",
    );
    assert!(errors[0].1.contains("model series 424242"), "{errors:?}");
    assert!(errors[1].1.contains("'lorry' is not one of"), "{errors:?}");
    assert!(
        errors[2].1.contains("column 'kw_to': 80 is below 90"),
        "{errors:?}"
    );

    assert_eq!(check(&data), (true, checksum), "nothing was written");
}

#[test]
fn a_tree_file_may_list_children_first_and_moves_keep_the_tree_sound() {
    let dir = tempfile::tempdir().unwrap();
    let (data, _, _) = generated_store(dir.path());
    let file = dir.path().join("assembly_groups.csv");
    fs::write(
        &file,
        "node_id,parent_id,name\n\
         900002,900001,Handbrake Cable\n\
         900001,100001,Parking Brake\n",
    )
    .unwrap();
    let (ok, report) = import(&data, &["--type", "assembly_groups", path(&file)]);
    assert!(ok, "{report}");
    assert_eq!(report["files"][0]["added"], 2, "{report}");

    // Moving an existing node under its own child is a cycle through the catalogue's tree.
    let errors = rejected(
        &data,
        dir.path(),
        "assembly_groups",
        "node_id,parent_id,name\n900001,900002,Parking Brake\n",
    );
    assert_eq!(errors[0].0, 2);
    assert!(errors[0].1.contains("makes a cycle"), "{errors:?}");

    // A node with children, or with generic articles placed under it, is not retired alone.
    let remove = dir.path().join("remove.csv");
    fs::write(
        &remove,
        "node_id,parent_id,name,change\n100010,100001,Disc Brake,remove\n",
    )
    .unwrap();
    let o = partscat(&[
        "import",
        "--data",
        path(&data),
        "--type",
        "assembly_groups",
        path(&remove),
    ]);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("node 100011: its parent, node 100010, is not in the catalogue"),
        "{}",
        text(&o)
    );
    assert!(check(&data).0);
}

#[test]
fn check_says_what_a_catalogue_without_the_tree_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("files");
    generate(300, 7, &files);
    for later in ["model_series", "assembly_groups", "genart_groups"] {
        fs::remove_file(files.join(format!("{later}.csv"))).unwrap();
    }
    // The vehicles as a catalogue without model series lists them.
    let vehicles = fs::read_to_string(files.join("vehicles.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(vehicles.as_bytes());
    let header: Vec<String> = rows.headers().unwrap().iter().map(str::to_owned).collect();
    let series = header.iter().position(|c| c == "model_series_id").unwrap();
    let mut out = csv::Writer::from_path(files.join("vehicles.csv")).unwrap();
    out.write_record(&header).unwrap();
    for row in rows.records() {
        let mut row: Vec<String> = row.unwrap().iter().map(str::to_owned).collect();
        row[series].clear();
        out.write_record(&row).unwrap();
    }
    out.flush().unwrap();

    let data = dir.path().join("data");
    let (ok, report) = import(&data, &[path(&files)]);
    assert!(ok, "{report}");
    let o = partscat(&["check", "--json", "--data", path(&data)]);
    assert!(o.status.success(), "{}", text(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let lacks: Vec<&str> = report["lacks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(lacks.len(), 3, "{lacks:?}");
    assert!(lacks[0].starts_with("no model series"), "{lacks:?}");
    assert!(
        lacks[1].contains("vehicles belong to no model series"),
        "{lacks:?}"
    );
    assert!(lacks[2].starts_with("no assembly groups"), "{lacks:?}");

    // A generated catalogue has all of it.
    let (whole, _, _) = generated_store(&dir.path().join("whole"));
    let o = partscat(&["check", "--json", "--data", path(&whole)]);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["lacks"], serde_json::json!([]), "{report}");
}
