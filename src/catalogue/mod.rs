//! What a parts catalogue holds, independent of how it is stored or served.

pub mod criteria;
pub mod documents;
pub mod model;
pub mod reference;
pub mod target_type;
pub mod texts;
pub mod tree;
pub mod values;

pub use criteria::{CriterionDefinition, CriterionType, KeyValue};
pub use model::*;
pub use reference::{CrossHit, NumberMatch, normalise_reference};
pub use target_type::TargetType;
pub use texts::{ArticleText, TextKind, Translation};
pub use values::{Amount, Date, LIST_SEPARATOR, YearMonth, utc_timestamp};
