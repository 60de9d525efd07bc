//! A request's field as a use case takes it: its value, with its name on the wire, so that
//! the use case decides what the value may be and the error names the field as the client
//! wrote it, while no service file names a wire field.

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
