//! A request's field as a use case takes it: its value, with its name on the wire, so that
//! the use case decides what the value may be and the error names the field as the client
//! wrote it, while no service file names a wire field.

use super::ServiceError;

#[derive(Debug, Clone, Copy)]
pub struct Field<T> {
    pub name: &'static str,
    pub value: T,
}

impl<T> Field<T> {
    pub fn new(name: &'static str, value: T) -> Field<T> {
        Field { name, value }
    }
}

impl<T> Field<Option<T>> {
    /// The value, which the question cannot go without.
    pub fn required(self) -> Result<Field<T>, ServiceError> {
        match self.value {
            Some(value) => Ok(Field::new(self.name, value)),
            None => Err(ServiceError::bad_parameter(self.name, "is required")),
        }
    }

    /// The value, where the field is given, as `read` reads it.
    pub fn map<U>(
        self,
        read: impl FnOnce(Field<T>) -> Result<U, ServiceError>,
    ) -> Result<Option<U>, ServiceError> {
        self.value
            .map(|value| read(Field::new(self.name, value)))
            .transpose()
    }
}

impl Field<i64> {
    /// The value as the store's `u32` id; out of range is a bad parameter naming the field.
    pub fn id(self) -> Result<u32, ServiceError> {
        u32::try_from(self.value).map_err(|_| {
            ServiceError::bad_parameter(
                self.name,
                format!("{} is not an id (1 to 4294967295)", self.value),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_in_the_stores_range_and_a_required_field_is_given() {
        assert_eq!(Field::new("a", 7_i64).id().unwrap(), 7);
        let negative = Field::new("a", -1_i64).id().unwrap_err();
        assert!(
            negative.to_string().contains("-1 is not an id"),
            "{negative}"
        );
        assert!(Field::new("a", None::<i64>).required().is_err());
        let given = Field::new("a", Some(5_i64)).map(Field::id).unwrap();
        assert_eq!(given, Some(5));
    }
}
