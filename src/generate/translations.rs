//! The texts of generated catalogues in other languages: German and French in full, and
//! Bulgarian in part (the generic articles' names only), so that a reader asking for
//! Bulgarian sees the fallback to English for every other text.

use super::Writer;
use super::tables::{GENARTS, GenArt};
use super::vehicle_tables::{ASSEMBLY_GROUPS, MAKES, model_series_id};

/// The languages written, after English.
pub const LANGUAGES: [&str; 3] = ["de", "fr", "bg"];

/// An English text and its German, French and Bulgarian ones ("": none in that language).
type Entry = (&'static str, &'static str, &'static str, &'static str);

/// Every English text of the generated rows that reads differently in another language:
/// generic articles, nodes of the tree, criteria, their text values, fitting positions,
/// article statuses, link attributes, kinds of number, fuels, body styles and construction
/// types, engine kinds.
const DICTIONARY: &[Entry] = &[
    // Generic articles.
    (
        "Brake Disc",
        "Bremsscheibe",
        "Disque de frein",
        "Спирачен диск",
    ),
    (
        "Brake Pad Set, disc brake",
        "Bremsbelagsatz, Scheibenbremse",
        "Jeu de plaquettes de frein, frein à disque",
        "Спирачни накладки, дискови спирачки",
    ),
    (
        "Brake Shoe Set",
        "Bremsbackensatz",
        "Jeu de mâchoires de frein",
        "Комплект спирачни челюсти",
    ),
    (
        "Brake Set, disc brake",
        "Bremsensatz, Scheibenbremse",
        "Kit de freins, frein à disque",
        "Спирачен комплект, дискови спирачки",
    ),
    ("Oil Filter", "Ölfilter", "Filtre à huile", "Маслен филтър"),
    (
        "Air Filter",
        "Luftfilter",
        "Filtre à air",
        "Въздушен филтър",
    ),
    (
        "Fuel Filter",
        "Kraftstofffilter",
        "Filtre à carburant",
        "Горивен филтър",
    ),
    (
        "Filter, interior air",
        "Filter, Innenraumluft",
        "Filtre, air de l'habitacle",
        "Филтър, въздух за вътрешно пространство",
    ),
    (
        "Exhaust Pipe",
        "Abgasrohr",
        "Tuyau d'échappement",
        "Изпускателна тръба",
    ),
    (
        "Catalytic Converter",
        "Katalysator",
        "Catalyseur",
        "Катализатор",
    ),
    (
        "Middle Silencer",
        "Mittelschalldämpfer",
        "Silencieux central",
        "Среден шумозаглушител",
    ),
    (
        "End Silencer",
        "Endschalldämpfer",
        "Silencieux arrière",
        "Краен шумозаглушител",
    ),
    (
        "Mounting Kit, silencer",
        "Montagesatz, Schalldämpfer",
        "Kit de montage, silencieux",
        "Монтажен комплект, шумозаглушител",
    ),
    (
        "Exhaust System",
        "Abgasanlage",
        "Système d'échappement",
        "Изпускателна система",
    ),
    ("Shock Absorber", "Stoßdämpfer", "Amortisseur", "Амортисьор"),
    (
        "Track Control Arm",
        "Lenker, Radaufhängung",
        "Bras de liaison, suspension de roue",
        "Носач, окачване на колелата",
    ),
    // Nodes of the tree (those not named as a generic article above).
    ("Brake System", "Bremsanlage", "Système de freinage", ""),
    ("Disc Brake", "Scheibenbremse", "Frein à disque", ""),
    ("Brake Pads", "Bremsbeläge", "Plaquettes de frein", ""),
    ("Brake Discs", "Bremsscheiben", "Disques de frein", ""),
    ("Brake Caliper", "Bremssattel", "Étrier de frein", ""),
    ("Brake Sets", "Bremsensätze", "Kits de freins", ""),
    ("Drum Brake", "Trommelbremse", "Frein à tambour", ""),
    ("Brake Shoes", "Bremsbacken", "Mâchoires de frein", ""),
    (
        "Brake Hydraulics",
        "Bremshydraulik",
        "Hydraulique de freinage",
        "",
    ),
    ("Filters", "Filter", "Filtres", ""),
    (
        "Cabin Air Filter",
        "Innenraumfilter",
        "Filtre d'habitacle",
        "",
    ),
    ("Exhaust Pipes", "Abgasrohre", "Tuyaux d'échappement", ""),
    ("Silencers", "Schalldämpfer", "Silencieux", ""),
    ("Mounting Parts", "Montageteile", "Pièces de montage", ""),
    (
        "Complete Exhaust Systems",
        "Komplette Abgasanlagen",
        "Systèmes d'échappement complets",
        "",
    ),
    (
        "Suspension / Damping",
        "Federung / Dämpfung",
        "Suspension / Amortissement",
        "",
    ),
    ("Shock Absorbers", "Stoßdämpfer", "Amortisseurs", ""),
    (
        "Suspension Springs",
        "Fahrwerksfedern",
        "Ressorts de suspension",
        "",
    ),
    (
        "Steering / Wheel Suspension",
        "Lenkung / Radaufhängung",
        "Direction / Suspension de roue",
        "",
    ),
    ("Control Arms", "Lenker", "Bras de suspension", ""),
    ("Ball Joints", "Traggelenke", "Rotules de suspension", ""),
    ("Engine", "Motor", "Moteur", ""),
    ("Lubrication", "Schmierung", "Lubrification", ""),
    ("Air Supply", "Luftversorgung", "Alimentation en air", ""),
    (
        "Fuel Supply System",
        "Kraftstoffversorgung",
        "Alimentation en carburant",
        "",
    ),
    // Criteria and their text values.
    (
        "Brake Disc Diameter",
        "Bremsscheibendurchmesser",
        "Diamètre du disque de frein",
        "",
    ),
    (
        "Brake Disc Thickness",
        "Bremsscheibendicke",
        "Épaisseur du disque de frein",
        "",
    ),
    ("Number of Holes", "Lochanzahl", "Nombre de trous", ""),
    ("Width", "Breite", "Largeur", ""),
    ("Height", "Höhe", "Hauteur", ""),
    ("Thickness", "Dicke", "Épaisseur", ""),
    ("Diameter", "Durchmesser", "Diamètre", ""),
    (
        "Outer Diameter",
        "Außendurchmesser",
        "Diamètre extérieur",
        "",
    ),
    ("Length", "Länge", "Longueur", ""),
    ("Material", "Material", "Matériau", ""),
    ("Emission Standard", "Abgasnorm", "Norme antipollution", ""),
    (
        "Shock Absorber Type",
        "Stoßdämpferart",
        "Type d'amortisseur",
        "",
    ),
    (
        "Aluminised steel",
        "Aluminiumbeschichteter Stahl",
        "Acier aluminisé",
        "",
    ),
    ("Stainless steel", "Edelstahl", "Acier inoxydable", ""),
    ("Steel", "Stahl", "Acier", ""),
    ("Gas Pressure", "Gasdruck", "Pression de gaz", ""),
    ("Oil Pressure", "Öldruck", "Pression d'huile", ""),
    ("Twin-Tube", "Zweirohr", "Bitube", ""),
    // Fitting positions.
    ("front axle", "Vorderachse", "essieu avant", ""),
    ("rear axle", "Hinterachse", "essieu arrière", ""),
    (
        "front axle left",
        "Vorderachse links",
        "essieu avant gauche",
        "",
    ),
    ("front", "vorne", "avant", ""),
    ("centre", "Mitte", "centre", ""),
    ("rear", "hinten", "arrière", ""),
    // Article statuses.
    ("active", "lieferbar", "disponible", ""),
    ("announced", "angekündigt", "annoncé", ""),
    ("discontinued", "ausgelaufen", "abandonné", ""),
    // Model series whose names are words, not only proper names.
    ("C-CLASS (W205)", "C-KLASSE (W205)", "CLASSE C (W205)", ""),
    ("E-CLASS (W213)", "E-KLASSE (W213)", "CLASSE E (W213)", ""),
    ("A-CLASS (W176)", "A-KLASSE (W176)", "CLASSE A (W176)", ""),
    // A link's attributes.
    ("Quantity", "Menge", "Quantité", ""),
    ("Notes", "Hinweise", "Remarques", ""),
    // Kinds of number a search matched.
    ("Article number", "Artikelnummer", "Numéro d'article", ""),
    ("OE number", "OE-Nummer", "Numéro OE", ""),
    ("Trade number", "Handelsnummer", "Numéro commercial", ""),
    (
        "Comparable number",
        "Vergleichsnummer",
        "Numéro de comparaison",
        "",
    ),
    (
        "Replaces number",
        "Ersetzt Nummer",
        "Remplace le numéro",
        "",
    ),
    (
        "Replaced by number",
        "Ersetzt durch Nummer",
        "Remplacé par le numéro",
        "",
    ),
    ("EAN number", "EAN-Nummer", "Numéro EAN", ""),
    // Vehicles: fuels, body styles, construction types, engine kinds.
    ("Petrol", "Benzin", "Essence", ""),
    ("Diesel", "Diesel", "Diesel", ""),
    (
        "Petrol/Electric",
        "Benzin/Elektro",
        "Essence/Électrique",
        "",
    ),
    ("Hatchback", "Schrägheck", "Bicorps", ""),
    ("Estate", "Kombi", "Break", ""),
    ("Saloon", "Stufenheck", "Berline", ""),
    ("SUV", "SUV", "SUV", ""),
    (
        "Closed Off-Road Vehicle",
        "Geländewagen geschlossen",
        "Véhicule tout-terrain fermé",
        "",
    ),
    ("Estate Car", "Kombilimousine", "Break", ""),
    ("Otto", "Otto", "Otto", ""),
    ("Otto/Electric", "Otto/Elektro", "Otto/Électrique", ""),
    // Media: the kinds of an article's documents.
    ("Picture", "Bild", "Image", ""),
    ("Document", "Dokument", "Document", ""),
    ("360° picture", "360°-Bild", "Image 360°", ""),
];

/// `english` in `language` (one of `LANGUAGES`); none where it has no text there or reads
/// the same.
pub fn translated(english: &str, language: &str) -> Option<&'static str> {
    let (_, de, fr, bg) = DICTIONARY.iter().find(|e| e.0 == english)?;
    let text = match language {
        "de" => *de,
        "fr" => *fr,
        "bg" => *bg,
        _ => "",
    };
    (!text.is_empty() && text != english).then_some(text)
}

/// The files of the texts in other languages.
pub struct TextFiles {
    pub texts: Writer,
    pub article_texts: Writer,
}

/// The texts of the generic articles, the tree's nodes and every term, in every language.
pub fn write_texts(f: &mut TextFiles) -> csv::Result<()> {
    let genarts = GENARTS.iter().map(|g| ("genart", g.id, g.name));
    let nodes = ASSEMBLY_GROUPS
        .iter()
        .map(|(id, _, name, _)| ("assembly_group", *id, *name));
    let series = MAKES.iter().flat_map(|make| {
        make.models
            .iter()
            .enumerate()
            .map(move |(i, model)| ("model_series", model_series_id(make, i), model.0))
    });
    for (kind, id, english) in genarts.chain(nodes).chain(series) {
        for language in LANGUAGES {
            if let Some(text) = translated(english, language) {
                f.texts
                    .write_record([kind, &id.to_string(), language, text])?;
            }
        }
    }
    let named: Vec<&str> = GENARTS
        .iter()
        .map(|g| g.name)
        .chain(ASSEMBLY_GROUPS.iter().map(|n| n.2))
        .chain(
            MAKES
                .iter()
                .flat_map(|m| m.models.iter().map(|model| model.0)),
        )
        .collect();
    for (english, ..) in DICTIONARY.iter().filter(|e| !named.contains(&e.0)) {
        for language in LANGUAGES {
            if let Some(text) = translated(english, language) {
                f.texts.write_record(["term", english, language, text])?;
            }
        }
    }
    Ok(())
}

/// An article's description in each language that has every part of it.
pub fn write_article_texts(
    f: &mut TextFiles,
    brand: &str,
    reference: &str,
    g: &GenArt,
) -> csv::Result<()> {
    for language in LANGUAGES {
        let Some(name) = translated(g.name, language) else {
            continue;
        };
        let description = match g.position {
            "" => name.to_owned(),
            position => match translated(position, language) {
                Some(p) => format!("{name}, {p}"),
                None => continue,
            },
        };
        f.article_texts
            .write_record([brand, reference, language, &description])?;
    }
    Ok(())
}
