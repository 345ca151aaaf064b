//! `--dense-parts`, shared by `lectern build` and `lectern eval`: whether the bundle's dense
//! index is written in parts (`bundle::DenseParts`).

use lectern::bundle::DenseParts;

#[derive(clap::Args)]
pub struct DensePartsArg {
    /// Write the dense index in parts fetched per question (`always`), in one file (`never`),
    /// or by size: in parts above 2,500 vectors (`auto`, the default). For tests and
    /// `lectern eval` of the parts on small sites.
    #[arg(long = "dense-parts", value_enum, default_value_t = DensePartsChoice::Auto)]
    choice: DensePartsChoice,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum DensePartsChoice {
    Auto,
    Always,
    Never,
}

impl DensePartsArg {
    pub fn get(&self) -> DenseParts {
        match self.choice {
            DensePartsChoice::Auto => DenseParts::BySize,
            DensePartsChoice::Always => DenseParts::Always,
            DensePartsChoice::Never => DenseParts::Never,
        }
    }
}
