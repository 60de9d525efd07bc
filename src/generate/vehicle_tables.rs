//! The vehicles' vocabulary of generated catalogues: vehicle makers, their models (model
//! series) and engines, and the passenger-car assembly-group tree with the generic articles
//! placed in it.

use super::tables::{BRAKE_DISC, BRAKE_KIT, BRAKE_PADS, EXHAUST_SYSTEM};

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
