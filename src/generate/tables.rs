//! The fixed vocabulary of generated catalogues: brands, generic articles, competitor
//! makers (the vehicles' are in `vehicle_tables`). Names of the maker's brands and
//! competitors are invented.

/// The maker's brands: id and name.
pub const BRANDS: [(u32, &str); 4] = [
    (1, "Veltra Brakes"),
    (2, "Norvik Filters"),
    (3, "Astrel Exhaust"),
    (4, "Korda Chassis"),
];

pub struct GenArt {
    pub id: u32,
    pub name: &'static str,
    pub brand: u32,
    /// How the brand writes references of this genart: `#` a digit, `@` a capital, else literal.
    pub patterns: &'static [&'static str],
    /// Typical list price in euro cents.
    pub price_cents: u32,
    /// Criteria: name, unit, low and high value.
    pub criteria: &'static [(&'static str, &'static str, u32, u32)],
    pub position: &'static str,
}

pub const BRAKE_DISC: u32 = 82;
pub const BRAKE_PADS: u32 = 402;
pub const BRAKE_KIT: u32 = 3500;
pub const EXHAUST_SYSTEM: u32 = 4050;
/// The exhaust-system components, in the order a kit lists them.
pub const EXHAUST_PARTS: [u32; 5] = [4000, 4010, 4020, 4030, 4040];

pub const GENARTS: [GenArt; 16] = [
    GenArt {
        id: BRAKE_DISC,
        name: "Brake Disc",
        patterns: &["0 986 479 ###", "0 986 478 ###"],
        brand: 1,
        price_cents: 4590,
        criteria: &[
            ("Brake Disc Diameter", "mm", 240, 380),
            ("Brake Disc Thickness", "mm", 10, 32),
            ("Number of Holes", "", 4, 6),
        ],
        position: "front axle",
    },
    GenArt {
        id: BRAKE_PADS,
        name: "Brake Pad Set, disc brake",
        patterns: &["0 986 494 ###", "0 986 495 ###"],
        brand: 1,
        price_cents: 3890,
        criteria: &[
            ("Width", "mm", 90, 160),
            ("Height", "mm", 45, 75),
            ("Thickness", "mm", 15, 20),
        ],
        position: "front axle",
    },
    GenArt {
        id: 70,
        name: "Brake Shoe Set",
        patterns: &["0 986 487 ###"],
        brand: 1,
        price_cents: 5250,
        criteria: &[("Diameter", "mm", 180, 260), ("Width", "mm", 30, 45)],
        position: "rear axle",
    },
    GenArt {
        id: BRAKE_KIT,
        name: "Brake Set, disc brake",
        patterns: &["0 986 A## ###"],
        brand: 1,
        price_cents: 0,
        criteria: &[],
        position: "front axle",
    },
    GenArt {
        id: 7,
        name: "Oil Filter",
        patterns: &["W ###/##", "W ###", "HU ###/# x"],
        brand: 2,
        price_cents: 890,
        criteria: &[("Height", "mm", 60, 140), ("Outer Diameter", "mm", 60, 95)],
        position: "",
    },
    GenArt {
        id: 8,
        name: "Air Filter",
        patterns: &["C ## ###", "C ##/###"],
        brand: 2,
        price_cents: 1690,
        criteria: &[("Length", "mm", 200, 350), ("Width", "mm", 120, 250)],
        position: "",
    },
    GenArt {
        id: 9,
        name: "Fuel Filter",
        patterns: &["WK ###/#", "WK ###"],
        brand: 2,
        price_cents: 2190,
        criteria: &[("Height", "mm", 80, 200)],
        position: "",
    },
    GenArt {
        id: 424,
        name: "Filter, interior air",
        patterns: &["CU ####", "CUK ####"],
        brand: 2,
        price_cents: 1450,
        criteria: &[("Length", "mm", 180, 300), ("Width", "mm", 150, 250)],
        position: "",
    },
    GenArt {
        id: 4000,
        name: "Exhaust Pipe",
        patterns: &["EX-1##.###"],
        brand: 3,
        price_cents: 6490,
        criteria: &[("Length", "mm", 300, 1400), ("Material", "", 0, 0)],
        position: "front",
    },
    GenArt {
        id: 4010,
        name: "Catalytic Converter",
        patterns: &["EX-2##.###"],
        brand: 3,
        price_cents: 28900,
        criteria: &[("Emission Standard", "", 0, 0)],
        position: "front",
    },
    GenArt {
        id: 4020,
        name: "Middle Silencer",
        patterns: &["EX-3##.###"],
        brand: 3,
        price_cents: 9890,
        criteria: &[("Length", "mm", 400, 1200)],
        position: "centre",
    },
    GenArt {
        id: 4030,
        name: "End Silencer",
        patterns: &["EX-4##.###"],
        brand: 3,
        price_cents: 11490,
        criteria: &[("Length", "mm", 300, 900)],
        position: "rear",
    },
    GenArt {
        id: 4040,
        name: "Mounting Kit, silencer",
        patterns: &["EX-5##.###"],
        brand: 3,
        price_cents: 1990,
        criteria: &[],
        position: "",
    },
    GenArt {
        id: EXHAUST_SYSTEM,
        name: "Exhaust System",
        patterns: &["EX-9##.##@"],
        brand: 3,
        price_cents: 0,
        criteria: &[],
        position: "",
    },
    GenArt {
        id: 854,
        name: "Shock Absorber",
        patterns: &["KD 31-####", "3## ###"],
        brand: 4,
        price_cents: 5990,
        criteria: &[
            ("Shock Absorber Type", "", 0, 0),
            ("Length", "mm", 280, 560),
        ],
        position: "front axle",
    },
    GenArt {
        id: 273,
        name: "Track Control Arm",
        patterns: &["KD 27-####", "KD 27-####-@"],
        brand: 4,
        price_cents: 4790,
        criteria: &[("Length", "mm", 250, 450)],
        position: "front axle left",
    },
];

/// Text values for criteria that are not measures.
pub fn criterion_text(name: &str, pick: u64) -> &'static str {
    let choices: &[&str] = match name {
        "Material" => &["Aluminised steel", "Stainless steel", "Steel"],
        "Emission Standard" => &["Euro 4", "Euro 5", "Euro 6"],
        "Shock Absorber Type" => &["Gas Pressure", "Oil Pressure", "Twin-Tube"],
        _ => &[""],
    };
    choices[(pick % choices.len() as u64) as usize]
}

/// Other parts makers whose numbers the catalogue cross-references (invented names).
pub const COMPETITORS: [(u32, &str, &[&str]); 6] = [
    (101, "BRENNOR", &["BR ####", "BR-#####"]),
    (102, "FILTRA NORD", &["FN ###/#", "FN-####"]),
    (103, "ECOSIL", &["ES ### ###", "ES-####-##"]),
    (104, "DAMPTEK", &["DT ### ###", "DT####"]),
    (105, "AXTOR", &["AX ###.##", "AX-###-##"]),
    (106, "LUMARO", &["LM #####", "LM-###@"]),
];
