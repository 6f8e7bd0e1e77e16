//! What a world family keeps beside its map of cells, as files and the document carry it: a
//! voxel world's volume, a hex world's cognitive map. Each family names its payload as
//! [`WorldFamily::Data`](super::WorldFamily::Data) ([`NoData`] where it has none), and
//! [`AnyData`], generated from the family list, carries any family's through opened files,
//! projects and the document, so none of them has a field per family.

use super::WorldFamily;
use std::any::Any;

/// The payload of a family that keeps nothing beside its cells: no value of it exists.
#[derive(Clone, Debug, PartialEq)]
pub enum NoData {}

/// Generates [`AnyData`] from the family list.
macro_rules! declare_any_data {
    ( ; $($v:ident $({ $($pf:ident : $pt:ty),* })? / $f:ident : $world:ty => $space:ty, $name:literal, $title:literal;)*) => {
        /// One family's own payload.
        #[derive(Clone, Debug, PartialEq)]
        pub enum AnyData {
            $($v(<$world as WorldFamily>::Data),)*
        }

        impl AnyData {
            fn as_any(&self) -> &dyn Any {
                match self {
                    $(AnyData::$v(d) => d,)*
                }
            }

            fn as_any_mut(&mut self) -> &mut dyn Any {
                match self {
                    $(AnyData::$v(d) => d,)*
                }
            }

            /// The family's name (as files give it) whose payload this is.
            pub fn family_name(&self) -> &'static str {
                match self {
                    $(AnyData::$v(_) => $name,)*
                }
            }
        }
    };
}
crate::for_each_family!(declare_any_data);

impl AnyData {
    /// The payload, if it is a `T` (a [`Volume`](crate::map::volume::Volume), a
    /// [`CognitiveMap`](crate::map::CognitiveMap)).
    pub fn get<T: 'static>(&self) -> Option<&T> {
        self.as_any().downcast_ref()
    }

    /// The payload, if it is a `T`, to change.
    pub fn get_mut<T: 'static>(&mut self) -> Option<&mut T> {
        self.as_any_mut().downcast_mut()
    }
}

/// `T`, from optional data of any family.
pub fn data_of<T: 'static>(data: &Option<AnyData>) -> Option<&T> {
    data.as_ref()?.get()
}

/// `T`, from optional data of any family, to change.
pub fn data_of_mut<T: 'static>(data: &mut Option<AnyData>) -> Option<&mut T> {
    data.as_mut()?.get_mut()
}
