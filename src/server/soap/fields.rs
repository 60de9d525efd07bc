//! What the operations' requests and answers (each in its family's `messages`) are made of:
//! the `request!` and `record_list!` forms, and Pegasus's list of numbers. Field names follow
//! the TecDoc Pegasus 3.0 service where it has the concept (`dataSupplierIds`,
//! `linkageTargetId`, `perPage`); each doc comment is the field's documentation in the XSD.

use poem_openapi::Object;
use serde::{Deserialize, Serialize};

macro_rules! request {
    ($(#[$doc:meta])* $name:ident { $($(#[$fdoc:meta])* $field:ident : $ty:ty),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, poem_openapi::Object, serde::Deserialize, serde::Serialize)]
        #[oai(rename_all = "camelCase")]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        pub struct $name {
            /// The ProviderId the call is made for (the `provider` query parameter is also
            /// accepted).
            #[oai(default)]
            #[serde(default)]
            pub provider: Option<String>,
            $($(#[$fdoc])* pub $field: $ty,)*
        }
    };
}

/// Pegasus answers a list as `data`, a sequence whose items are `array` elements: in JSON
/// `{"data": {"array": [...]}}`.
macro_rules! record_list {
    ($(#[$doc:meta])* $answer:ident, $seq:ident, $seq_name:literal, $record:ty) => {
        /// The records of a list answer.
        #[derive(Debug, Clone, poem_openapi::Object, serde::Serialize)]
        #[oai(rename = $seq_name)]
        pub struct $seq {
            /// The records, in id order.
            pub array: Vec<$record>,
        }

        $(#[$doc])*
        #[derive(Debug, Clone, poem_openapi::Object, serde::Serialize)]
        pub struct $answer {
            /// The records.
            pub data: $seq,
        }

        impl $answer {
            pub fn of(array: Vec<$record>) -> $answer {
                $answer {
                    data: $seq { array },
                }
            }
        }
    };
}

/// A sequence of records inside a record, as Pegasus nests lists (`{"array": [...]}`).
macro_rules! seq {
    ($(#[$doc:meta])* $seq:ident, $name:literal, $record:ty) => {
        $(#[$doc])*
        #[derive(Debug, Clone, poem_openapi::Object, serde::Serialize)]
        #[oai(rename = $name)]
        pub struct $seq {
            /// The records.
            pub array: Vec<$record>,
        }
    };
}

/// A list of numbers, as Pegasus sends it (`{"array": [...]}`).
#[derive(Debug, Clone, Object, Deserialize, Serialize)]
#[oai(rename = "integerList")]
#[serde(deny_unknown_fields)]
pub struct IntegerList {
    /// The numbers; at most 100 different ones (repeats are merged).
    #[oai(validator(max_items = 100))]
    pub array: Vec<i64>,
}
