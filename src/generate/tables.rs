//! The fixed vocabulary of generated catalogues: brands, generic articles, vehicle makers and
//! their models, competitor makers. Names of the maker's brands and competitors are invented.

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

/// A vehicle maker, its OE number patterns and its models (model series): name, first year,
/// last year (0 = still built), body style.
pub struct Make {
    pub id: u32,
    pub name: &'static str,
    pub oe_patterns: &'static [&'static str],
    pub models: &'static [(&'static str, u16, u16, &'static str)],
    /// Indexes into `ENGINES` of the engines this make fits.
    pub engines: &'static [usize],
}

pub const MAKES: [Make; 12] = [
    Make {
        id: 1,
        name: "VW",
        oe_patterns: &["#@0 ### ### @", "#@# ### ###"],
        models: &[
            ("GOLF VII (5G1, BQ1, BE1, BE2)", 2012, 2020, "Hatchback"),
            ("POLO (6R1, 6C1)", 2009, 2017, "Hatchback"),
            ("PASSAT B8 (3G2, CB2)", 2014, 0, "Estate"),
            ("TIGUAN (AD1, AX1)", 2016, 0, "SUV"),
        ],
        engines: &[0, 2, 4, 6],
    },
    Make {
        id: 2,
        name: "AUDI",
        oe_patterns: &["#@0 ### ### @", "## ### ### @"],
        models: &[
            ("A3 Sportback (8VA, 8VF)", 2012, 2020, "Hatchback"),
            ("A4 B9 (8W2, 8WC)", 2015, 0, "Saloon"),
            ("Q5 (FYB, FYG)", 2016, 0, "SUV"),
        ],
        engines: &[0, 2, 4, 6],
    },
    Make {
        id: 3,
        name: "BMW",
        oe_patterns: &["## ## # ### ###", "## ## ### ###"],
        models: &[
            ("3 (F30, F80)", 2011, 2018, "Saloon"),
            ("5 (G30, F90)", 2016, 0, "Saloon"),
            ("X1 (F48)", 2014, 2022, "SUV"),
        ],
        engines: &[7, 9],
    },
    Make {
        id: 4,
        name: "MERCEDES-BENZ",
        oe_patterns: &["@ ### ### ## ##", "@ ### ### ### ##"],
        models: &[
            ("C-CLASS (W205)", 2013, 2021, "Saloon"),
            ("E-CLASS (W213)", 2016, 0, "Saloon"),
            ("A-CLASS (W176)", 2012, 2018, "Hatchback"),
        ],
        engines: &[7, 9, 3],
    },
    Make {
        id: 5,
        name: "RENAULT",
        oe_patterns: &["## ## ### ##@", "77## ### ###"],
        models: &[
            ("CLIO IV (BH_)", 2012, 2019, "Hatchback"),
            ("MEGANE IV (B9A/M/N_)", 2015, 0, "Hatchback"),
            ("CAPTUR I (J5_, H5_)", 2013, 2019, "SUV"),
        ],
        engines: &[1, 3],
    },
    Make {
        id: 6,
        name: "PEUGEOT",
        oe_patterns: &["#### ## ##", "####.@#"],
        models: &[
            ("208 I (CA_, CC_)", 2012, 2019, "Hatchback"),
            ("308 II (LB_, LP_)", 2013, 0, "Hatchback"),
            ("3008 (MC_, MR_)", 2016, 0, "SUV"),
        ],
        engines: &[5, 1],
    },
    Make {
        id: 7,
        name: "FORD",
        oe_patterns: &["# ### ###", "@#@#-####-@@"],
        models: &[
            ("FOCUS III", 2010, 2018, "Hatchback"),
            ("FIESTA VII (J5, JK)", 2017, 0, "Hatchback"),
            ("KUGA II (DM2)", 2012, 2019, "SUV"),
        ],
        engines: &[0, 5],
    },
    Make {
        id: 8,
        name: "OPEL",
        oe_patterns: &["## ### ###", "# ### ###"],
        models: &[
            ("ASTRA K (B16)", 2015, 2022, "Hatchback"),
            ("CORSA E (X15)", 2014, 2019, "Hatchback"),
            ("INSIGNIA B (Z18)", 2017, 0, "Saloon"),
        ],
        engines: &[2, 5],
    },
    Make {
        id: 9,
        name: "TOYOTA",
        oe_patterns: &["#####-#####", "#####-@####"],
        models: &[
            ("COROLLA (_E21_)", 2018, 0, "Saloon"),
            ("YARIS (_P13_)", 2010, 2020, "Hatchback"),
            ("RAV 4 V (_A5_, _H5_)", 2018, 0, "SUV"),
        ],
        engines: &[8],
    },
    Make {
        id: 10,
        name: "SKODA",
        oe_patterns: &["#@0 ### ### @", "#@# ### ###"],
        models: &[
            ("OCTAVIA III (5E3, NL3, NR3)", 2012, 2020, "Estate"),
            ("FABIA III (NJ3)", 2014, 0, "Hatchback"),
        ],
        engines: &[0, 2, 4, 6],
    },
    Make {
        id: 11,
        name: "FIAT",
        oe_patterns: &["########", "#########"],
        models: &[
            ("500 (312_)", 2007, 0, "Hatchback"),
            ("PANDA (312_, 319_)", 2012, 0, "Hatchback"),
        ],
        engines: &[1, 3],
    },
    Make {
        id: 12,
        name: "VOLVO",
        oe_patterns: &["#######", "########"],
        models: &[
            ("XC60 I (156)", 2008, 2017, "SUV"),
            ("V60 I (155, 157)", 2010, 2018, "Estate"),
        ],
        engines: &[6, 7],
    },
];

/// Engine variants: type name, engine codes, fuel, kW, ccm.
pub const ENGINES: [(&str, &str, &str, u16, u32); 10] = [
    ("1.0 TSI", "CHZD|DKRF", "Petrol", 70, 999),
    ("1.2 TCe", "H5F 408", "Petrol", 88, 1197),
    ("1.4 TSI", "CZCA", "Petrol", 92, 1395),
    ("1.5 dCi", "K9K 608", "Diesel", 66, 1461),
    ("1.6 TDI", "CLHA|DDYA", "Diesel", 81, 1598),
    ("1.6 HDi", "DV6C", "Diesel", 84, 1560),
    ("2.0 TDI", "CRLB|DFGA", "Diesel", 110, 1968),
    ("2.0 i", "B48B20A", "Petrol", 135, 1998),
    ("1.8 Hybrid", "2ZR-FXE", "Petrol/Electric", 90, 1798),
    ("3.0 d", "N57D30A", "Diesel", 190, 2993),
];

/// Other parts makers whose numbers the catalogue cross-references (invented names).
pub const COMPETITORS: [(u32, &str, &[&str]); 6] = [
    (101, "BRENNOR", &["BR ####", "BR-#####"]),
    (102, "FILTRA NORD", &["FN ###/#", "FN-####"]),
    (103, "ECOSIL", &["ES ### ###", "ES-####-##"]),
    (104, "DAMPTEK", &["DT ### ###", "DT####"]),
    (105, "AXTOR", &["AX ###.##", "AX-###-##"]),
    (106, "LUMARO", &["LM #####", "LM-###@"]),
];

/// The model series id of a make's model: the make's id, then the model's place.
pub fn model_series_id(make: &Make, model: usize) -> u32 {
    make.id * 100 + model as u32 + 1
}

/// TecDoc's engine kind for a fuel.
pub fn engine_kind(fuel: &str) -> &'static str {
    match fuel {
        "Diesel" => "Diesel",
        "Petrol/Electric" => "Otto/Electric",
        _ => "Otto",
    }
}

/// What TecDoc calls the construction of a body style.
pub fn construction_type(body_style: &str) -> &'static str {
    match body_style {
        "SUV" => "Closed Off-Road Vehicle",
        "Estate" => "Estate Car",
        "Saloon" => "Saloon",
        _ => "Hatchback",
    }
}

/// The passenger-car assembly-group tree: node id, parent (0: a root), name, and the generic
/// articles placed under it. Siblings sort in this order.
pub const ASSEMBLY_GROUPS: [(u32, u32, &str, &[u32]); 32] = [
    (100001, 0, "Brake System", &[]),
    (100010, 100001, "Disc Brake", &[]),
    (100011, 100010, "Brake Pads", &[BRAKE_PADS]),
    (100012, 100010, "Brake Discs", &[BRAKE_DISC]),
    (100013, 100010, "Brake Caliper", &[]),
    (100014, 100010, "Brake Sets", &[BRAKE_KIT]),
    (100020, 100001, "Drum Brake", &[]),
    (100021, 100020, "Brake Shoes", &[70]),
    (100030, 100001, "Brake Hydraulics", &[]),
    (100100, 0, "Filters", &[]),
    (100101, 100100, "Oil Filter", &[7]),
    (100102, 100100, "Air Filter", &[8]),
    (100103, 100100, "Fuel Filter", &[9]),
    (100104, 100100, "Cabin Air Filter", &[424]),
    (100200, 0, "Exhaust System", &[]),
    (100201, 100200, "Exhaust Pipes", &[4000]),
    (100202, 100200, "Catalytic Converter", &[4010]),
    (100203, 100200, "Silencers", &[4020, 4030]),
    (100204, 100200, "Mounting Parts", &[4040]),
    (
        100205,
        100200,
        "Complete Exhaust Systems",
        &[EXHAUST_SYSTEM],
    ),
    (100300, 0, "Suspension / Damping", &[]),
    (100301, 100300, "Shock Absorbers", &[854]),
    (100302, 100300, "Suspension Springs", &[]),
    (100400, 0, "Steering / Wheel Suspension", &[]),
    (100401, 100400, "Control Arms", &[273]),
    (100402, 100400, "Ball Joints", &[]),
    (100500, 0, "Engine", &[]),
    (100510, 100500, "Lubrication", &[]),
    (100511, 100510, "Oil Filter", &[7]),
    (100520, 100500, "Air Supply", &[]),
    (100521, 100520, "Air Filter", &[8]),
    (100530, 100500, "Fuel Supply System", &[9]),
];
