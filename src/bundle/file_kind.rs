//! The kinds of file in a bundle, named once: the stem and extension of their
//! content-addressed names (`terms.<hash>.bin`), and what each is for. The writer names files
//! by kind, the reader says which kind a bad file is, and the CLI groups files by kind.

use super::checksum::content_addressed_name;

/// Every file of a bundle but `manifest.json` (the one fixed name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// What ranking needs of every chunk (`ChunkTable`), loaded with the manifest.
    ChunkTable,
    /// Which chunks are on which page (`ChunkTable::pages`): fetched only by a search asked
    /// from a page (its sections rank higher), never by the search box.
    PageTable,
    /// BM25 postings of a range of terms (`lexical::shards`).
    TermShard,
    /// A catalog page of term shards.
    TermCatalog,
    /// The metadata of consecutive chunks.
    MetaShard,
    /// The text of the same chunks.
    TextShard,
    /// A catalog page of chunk shards (a metadata and a text shard each).
    ChunkCatalog,
    /// The metadata and text of consecutive chunks, by number, with its proof (format 5:
    /// `numbered_shards`).
    ChunkShard,
    /// int8 vectors and HNSW graph (`dense::DenseIndex`): a small site's dense index, whole.
    Dense,
    /// The head of a dense index in parts (`dense::partitioned`): centroids, fetched at open.
    DenseHead,
    /// One part of a dense index in parts: a partition's codes or a shard of int8 rows.
    DensePart,
    /// A catalog page of dense index parts.
    DenseCatalog,
    /// The compact model's head (`embed::compact`).
    Model,
    /// Rows of the model's word table.
    WordShard,
    /// The list of the word table's shards.
    WordCatalog,
    /// The model's tokenizer.
    Tokenizer,
}

impl FileKind {
    pub const ALL: [FileKind; 16] = [
        FileKind::ChunkTable,
        FileKind::PageTable,
        FileKind::TermShard,
        FileKind::TermCatalog,
        FileKind::MetaShard,
        FileKind::TextShard,
        FileKind::ChunkCatalog,
        FileKind::ChunkShard,
        FileKind::Dense,
        FileKind::DenseHead,
        FileKind::DensePart,
        FileKind::DenseCatalog,
        FileKind::Model,
        FileKind::WordShard,
        FileKind::WordCatalog,
        FileKind::Tokenizer,
    ];

    /// The start of the file's name.
    pub fn stem(self) -> &'static str {
        match self {
            FileKind::ChunkTable => "chunk-table",
            FileKind::PageTable => "page-table",
            FileKind::TermShard => "terms",
            FileKind::TermCatalog => "term-catalog",
            FileKind::MetaShard => "meta",
            FileKind::TextShard => "text",
            FileKind::ChunkCatalog => "chunk-catalog",
            FileKind::ChunkShard => "chunks",
            FileKind::Dense => "dense",
            FileKind::DenseHead => "dense-head",
            FileKind::DensePart => "dense-part",
            FileKind::DenseCatalog => "dense-catalog",
            FileKind::Model => "model",
            FileKind::WordShard => "words",
            FileKind::WordCatalog => "words-catalog",
            FileKind::Tokenizer => "tokenizer",
        }
    }

    /// The end of the file's name, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            FileKind::TermShard | FileKind::Dense | FileKind::DenseHead | FileKind::DensePart | FileKind::WordShard => {
                "bin"
            }
            FileKind::Model => "lcm",
            FileKind::ChunkTable
            | FileKind::PageTable
            | FileKind::TermCatalog
            | FileKind::MetaShard
            | FileKind::TextShard
            | FileKind::ChunkCatalog
            | FileKind::ChunkShard
            | FileKind::DenseCatalog
            | FileKind::WordCatalog
            | FileKind::Tokenizer => "json",
        }
    }

    /// What the file is, in a few words (singular).
    pub fn role(self) -> &'static str {
        match self {
            FileKind::ChunkTable => "chunk table",
            FileKind::PageTable => "page table",
            FileKind::TermShard => "term shard",
            FileKind::TermCatalog => "term catalog page",
            FileKind::MetaShard => "metadata shard",
            FileKind::TextShard => "text shard",
            FileKind::ChunkCatalog => "chunk catalog page",
            FileKind::ChunkShard => "chunk shard",
            FileKind::Dense => "dense index",
            FileKind::DenseHead => "dense index head",
            FileKind::DensePart => "dense index part",
            FileKind::DenseCatalog => "dense catalog page",
            FileKind::Model => "model",
            FileKind::WordShard => "word-table shard",
            FileKind::WordCatalog => "word-table catalog page",
            FileKind::Tokenizer => "tokenizer",
        }
    }

    /// One of many alike files that catalog pages list and a reader fetches on demand.
    pub fn is_shard(self) -> bool {
        matches!(
            self,
            FileKind::TermShard
                | FileKind::MetaShard
                | FileKind::TextShard
                | FileKind::ChunkShard
                | FileKind::DensePart
                | FileKind::WordShard
        )
    }

    /// A catalog page: a list of shards.
    pub fn is_catalog(self) -> bool {
        matches!(self, FileKind::TermCatalog | FileKind::ChunkCatalog | FileKind::DenseCatalog | FileKind::WordCatalog)
    }

    /// The content-addressed name of a file of this kind holding `bytes`.
    pub fn name_for(self, bytes: &[u8]) -> String {
        content_addressed_name(self.stem(), self.extension(), bytes)
    }

    /// The kind of the file called `name` (`None` for `manifest.json` and foreign names).
    pub fn of(name: &str) -> Option<FileKind> {
        let (stem, rest) = name.split_once('.')?;
        let extension = rest.rsplit_once('.').map_or(rest, |(_, extension)| extension);
        FileKind::ALL.into_iter().find(|kind| kind.stem() == stem && kind.extension() == extension)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_known_by_the_names_it_gives() {
        for kind in FileKind::ALL {
            assert_eq!(FileKind::of(&kind.name_for(b"some bytes")), Some(kind), "{kind:?}");
        }
        assert_eq!(FileKind::of(crate::bundle::MANIFEST_FILE), None);
        assert_eq!(FileKind::of("words-catalog.0123456789ab.json"), Some(FileKind::WordCatalog));
        assert_eq!(FileKind::of("words.0123456789ab.bin"), Some(FileKind::WordShard));
        assert_eq!(FileKind::of("terms.0123456789ab.json"), None);
        assert_eq!(FileKind::of("chunks.17.0123456789ab.json"), Some(FileKind::ChunkShard));
    }
}
