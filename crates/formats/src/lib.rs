//! # Skeletal skinning: the file formats
//!
//! Files in and out of the method's model and clips (`skinning-method`): glTF 2.0
//! ([`gltf_import`], [`gltf_export`], chapter 9), id's MD5 ([`md5_import`], [`md5_export`],
//! chapter 10), what a surface looks like ([`material`]: colours, textures and their pictures), and
//! the dump ([`dump`], chapter 4), every number of every frame as JSON. A file you did not write
//! may be anything (chapter 16): [`model_folder`] keeps a model's other files inside its folder,
//! and [`budget`] bounds what one model may cost in memory.

pub mod budget;
pub mod dump;
pub mod gltf_export;
pub mod gltf_import;
pub mod material;
pub mod md5_export;
pub mod md5_import;
pub mod model_folder;
