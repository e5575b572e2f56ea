//! Labelled, block-sparse tensors for atomistic machine learning: the safe Rust API of
//! metatensor, on metatensor-go's `libmetatensor` (through the `metatensor-sys` crate).
//!
//! This crate has the API of the reference's `metatensor` crate 0.5.1, so that code written
//! against it builds on this one unchanged. The C calls go through `checked_gen.rs`, generated
//! from the spec of the ABI; every other file is hand-written.
#![doc = include_str!("../README.md")]
#![warn(clippy::undocumented_unsafe_blocks)]

pub use metatensor_sys as c_api;

// generated (gen/rust) with the spec's line layout: rustfmt leaves it as it is
#[rustfmt::skip]
mod checked_gen;
use checked_gen as checked;

#[macro_use]
mod out;

#[macro_use]
mod iterators;

pub mod errors;
pub use self::errors::Error;

pub mod data;
pub use self::data::{Array, EmptyArray, MtsArray};
pub use self::data::{ArrayRef, ArrayRefMut};

mod labels;
#[cfg(feature = "rayon")]
pub use self::labels::LabelsParIter;
pub use self::labels::{LabelValue, Labels};
pub use self::labels::{LabelsFixedSizeIter, LabelsIter};

mod labels_builder;
pub use self::labels_builder::LabelsBuilder;

mod block;
pub use self::block::{BlockData, LazyMetadata};
pub use self::block::{GradientsIter, GradientsMutIter};
pub use self::block::{TensorBlock, TensorBlockRef, TensorBlockRefMut};
pub use self::block::{TensorBlockData, TensorBlockDataMut};

mod tensor;
pub use self::tensor::TensorMap;
pub use self::tensor::{TensorMapInfoIter, TensorMapIter, TensorMapIterMut};
#[cfg(feature = "rayon")]
pub use self::tensor::{TensorMapParIter, TensorMapParIterMut};

pub mod io;
