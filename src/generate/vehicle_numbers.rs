//! The numbers that name a generated vehicle type from outside the catalogue: registration
//! plates and key numbers (`plates`) and VIN patterns (`vins`).

use super::vehicle_tables::MAKES;
use super::{Files, Rng, Vehicle};

/// A German key number (HSN/TSN) for every vehicle type, a few shared by two types, and a
/// British plate for about half. Drawn from a generator of their own, so the other files
/// stay as they were before plates existed.
pub(super) fn write_plates(f: &mut Files, seed: u64, vehicles: &[Vehicle]) -> csv::Result<()> {
    let mut rng = Rng(seed ^ 0x504C_4154_4553);
    let mut last_key = String::new();
    for v in vehicles {
        let hsn = 400 + MAKES[v.make].id * 37;
        if last_key.is_empty() || !rng.percent(10) {
            last_key = format!("{hsn:04}/{}", rng.pattern("@@#"));
        }
        f.plates.write_record(["DE", &last_key, &v.ktype, ""])?;
        if rng.percent(50) {
            f.plates
                .write_record(["GB", &rng.pattern("@@## @@@"), &v.ktype, ""])?;
        }
    }
    Ok(())
}

/// Each make's world manufacturer identifier (a VIN's first three characters), in `MAKES`'
/// order.
const WMIS: [&str; 12] = [
    "WVW", "WAU", "WBA", "WDD", "VF1", "VF3", "WF0", "W0L", "JTD", "TMB", "ZFA", "YV1",
];

/// A VIN pattern for every vehicle type: its make's WMI, a model code of its own, and the
/// check digit left open (`?`), so any VIN of the type, whatever its year and serial, names
/// it. Drawn from a generator of their own, so the other files stay as they were before VIN
/// patterns existed.
pub(super) fn write_vins(f: &mut Files, seed: u64, vehicles: &[Vehicle]) -> csv::Result<()> {
    const VIN_CHARACTERS: &[u8] = b"ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
    let mut rng = Rng(seed ^ 0x5649_4E53);
    for v in vehicles {
        let code: String = (0..5)
            .map(|_| char::from(*rng.pick(VIN_CHARACTERS)))
            .collect();
        f.vins
            .write_record([format!("{}{code}?", WMIS[v.make]), v.ktype.clone()])?;
    }
    Ok(())
}
