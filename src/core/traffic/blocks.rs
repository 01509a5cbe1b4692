//! Prefix block hashes for traces that carry none, and the FNV-1a 64 hash they (and a trace's
//! content hash) are built on.
//!
//! A session's context grows append-only: turn k's prompt is turn k-1's prompt, its answer and the
//! new message, so the first full blocks of every turn are the same blocks. Block `i` of session `s`
//! is therefore [`session_block_hash`]`(s, i)` in every turn that covers it, for each *full* block of
//! [`SYNTH_BLOCK_TOKENS`] tokens inside the prompt (a partial last block is never shared, as in
//! vLLM's prefix cache). A shared prefix named by a trace (`prefix_id`, `prefix_tokens`) is the same
//! with [`prefix_block_hash`] over the prefix's full blocks. The two kinds are kept apart by a tag
//! byte, so session 3's block 0 is never prefix 3's block 0.

/// Tokens per synthesized block: vLLM's default KV block size.
pub const SYNTH_BLOCK_TOKENS: u32 = 16;
/// Tokens per block of Mooncake's `hash_ids` (and of any trace that gives `hash_ids`).
pub const MOONCAKE_BLOCK_TOKENS: u32 = 512;

/// FNV-1a, 64 bits: offset basis 0xcbf29ce484222325, prime 0x100000001b3, one byte at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fnv1a(pub u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// The hash after `bytes`.
    pub fn bytes(mut self, bytes: &[u8]) -> Fnv1a {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        self
    }

    /// The hash after `x`'s 4 little-endian bytes.
    pub fn u32(self, x: u32) -> Fnv1a {
        self.bytes(&x.to_le_bytes())
    }

    /// The hash after `x`'s 8 little-endian bytes.
    pub fn u64(self, x: u64) -> Fnv1a {
        self.bytes(&x.to_le_bytes())
    }
}

/// The tag byte before a session's blocks.
const SESSION_TAG: u8 = b'S';
/// The tag byte before a named prefix's blocks.
const PREFIX_TAG: u8 = b'P';

/// Block `index` of session `session`: FNV-1a 64 over the byte `S`, the session and the index (each
/// 4 bytes, little-endian).
pub fn session_block_hash(session: u32, index: u32) -> u64 {
    Fnv1a::default().bytes(&[SESSION_TAG]).u32(session).u32(index).0
}

/// Block `index` of the shared prefix `prefix`: as [`session_block_hash`] with the byte `P`.
pub fn prefix_block_hash(prefix: u32, index: u32) -> u64 {
    Fnv1a::default().bytes(&[PREFIX_TAG]).u32(prefix).u32(index).0
}

/// Full blocks of `block_tokens` tokens inside `tokens` tokens (0 when `block_tokens` is 0).
pub fn full_blocks(tokens: u32, block_tokens: u32) -> u32 {
    tokens.checked_div(block_tokens).unwrap_or(0)
}

/// A session turn's prompt blocks: [`session_block_hash`]`(session, i)` for each full block of the
/// prompt, leading block first.
pub fn session_blocks(session: u32, prompt_tokens: u32, block_tokens: u32) -> impl Iterator<Item = u64> {
    (0..full_blocks(prompt_tokens, block_tokens)).map(move |i| session_block_hash(session, i))
}

/// A named prefix's blocks: [`prefix_block_hash`]`(prefix, i)` for each full block of its
/// `prefix_tokens`, leading block first.
pub fn prefix_blocks(prefix: u32, prefix_tokens: u32, block_tokens: u32) -> impl Iterator<Item = u64> {
    (0..full_blocks(prefix_tokens, block_tokens)).map(move |i| prefix_block_hash(prefix, i))
}
