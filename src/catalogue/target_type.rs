//! What kind of thing a vehicle type is, and the letters TecDoc writes the kinds and their
//! groups with.

use serde::Serialize;

/// What kind of thing a vehicle type is, by TecDoc's linkage-target codes. Each kind has
/// its own assembly-group tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetType {
    /// `P`
    PassengerCar,
    /// `L`
    LightCommercial,
    /// `B`
    Motorcycle,
    /// `C`
    Commercial,
    /// `T`
    Tractor,
    /// `M`
    Engine,
    /// `A`
    Axle,
    /// `K`
    BodyType,
}

impl TargetType {
    pub const ALL: [TargetType; 8] = [
        TargetType::PassengerCar,
        TargetType::LightCommercial,
        TargetType::Motorcycle,
        TargetType::Commercial,
        TargetType::Tractor,
        TargetType::Engine,
        TargetType::Axle,
        TargetType::BodyType,
    ];

    /// TecDoc's one-letter code (`linkageTargetType`, `linkingTargetType`).
    pub fn code(self) -> char {
        match self {
            TargetType::PassengerCar => 'P',
            TargetType::LightCommercial => 'L',
            TargetType::Motorcycle => 'B',
            TargetType::Commercial => 'C',
            TargetType::Tractor => 'T',
            TargetType::Engine => 'M',
            TargetType::Axle => 'A',
            TargetType::BodyType => 'K',
        }
    }

    /// The letter TecDoc 3.0 answers a type's own kind by (`subLinkageTargetType`): `V` a
    /// passenger car, the kind's letter otherwise.
    pub fn sub_code(self) -> char {
        match self {
            TargetType::PassengerCar => 'V',
            other => other.code(),
        }
    }

    /// The letter of TecDoc's group the kind belongs to (`linkageTargetType`): `P` passenger
    /// cars, light commercial vehicles and motorcycles, `O` commercial vehicles and tractors;
    /// an engine, axle or body type is a group of its own.
    pub fn group_code(self) -> char {
        match self {
            TargetType::PassengerCar | TargetType::LightCommercial | TargetType::Motorcycle => 'P',
            TargetType::Commercial | TargetType::Tractor => 'O',
            other => other.code(),
        }
    }

    /// The one assembly-group tree `kinds` name: a kind's own, or the tree of TecDoc's group
    /// (`P`: the passenger cars', `O`: the commercial vehicles'); None for kinds of two trees.
    pub fn tree_of(kinds: &[TargetType]) -> Option<TargetType> {
        match kinds {
            [one] => Some(*one),
            [first, rest @ ..] if rest.iter().all(|k| k.group_code() == first.group_code()) => {
                match first.group_code() {
                    'P' => Some(TargetType::PassengerCar),
                    'O' => Some(TargetType::Commercial),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The kinds a request's code names, as TecDoc's letters do: a kind (`V` a passenger car,
    /// `L`, `B`, `C`, `T`, `M`, `A`, `K`), the groups `P` (passenger cars, light commercial
    /// vehicles and motorcycles) and `O` (commercial vehicles and tractors), `U` (any), or
    /// several letters together (`PO`, `VOLB`: every kind any of them names).
    pub fn named_by(code: &str) -> Option<&'static [TargetType]> {
        /// Every set of kinds, by the bits of `ALL`'s positions, in `ALL`'s order.
        static SETS: std::sync::LazyLock<Vec<Vec<TargetType>>> = std::sync::LazyLock::new(|| {
            (0..1usize << TargetType::ALL.len())
                .map(|bits| {
                    let mut kinds = TargetType::ALL.to_vec();
                    let mut at = 0;
                    kinds.retain(|_| {
                        at += 1;
                        bits & (1 << (at - 1)) != 0
                    });
                    kinds
                })
                .collect()
        });
        let bit = |kind: TargetType| {
            1usize << TargetType::ALL.iter().position(|k| *k == kind).unwrap_or(0)
        };
        let mut bits = 0;
        for letter in code.chars() {
            bits |= match letter.to_ascii_uppercase() {
                'P' => {
                    bit(TargetType::PassengerCar)
                        | bit(TargetType::LightCommercial)
                        | bit(TargetType::Motorcycle)
                }
                'O' => bit(TargetType::Commercial) | bit(TargetType::Tractor),
                'U' => (1 << TargetType::ALL.len()) - 1,
                letter => bit(*TargetType::ALL.iter().find(|k| k.sub_code() == letter)?),
            };
        }
        (bits != 0).then(|| SETS[bits].as_slice())
    }
}
