//! The configuration search's message protocol between the page and its Web Workers: a
//! [`SearchRequest`] names one shard of the search's groups, [`SearchReply`]s carry progress and then that
//! shard's rows. Pure and native-testable; both directions are postcard bytes ([`crate::protocol::codec`]).
//!
//! The page splits the search over as many workers as the machine has cores (at most
//! [`SHARDS_MAX`]); shard k of n takes the groups whose index is k modulo n, so every shard gets
//! GPUs of every size and the shards finish together.

use serde::{Deserialize, Serialize};

use crate::core::search::{groups, search_group, Found, Group, SearchSpec};
use crate::protocol::codec::{from_bytes, to_bytes, Numbered};

/// The most workers one search is split over.
pub const SHARDS_MAX: u8 = 8;
/// Groups a worker searches between two progress replies.
const GROUPS_PER_PROGRESS: usize = 12;

/// Page -> worker: search shard `shard` of `shards` on `spec`; every reply names `seq` and `shard`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchRequest {
    pub seq: u32,
    pub shard: u8,
    pub shards: u8,
    pub spec: SearchSpec,
}

/// A worker's reply to request `seq`, shard `shard`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SearchReply {
    /// `done` of the shard's `total` groups are searched.
    Progress { seq: u32, shard: u8, done: u32, total: u32 },
    /// The shard's rows and count of configurations evaluated.
    Done { seq: u32, shard: u8, found: Found },
}

impl SearchReply {
    /// The request this answers.
    pub fn seq(&self) -> u32 {
        match self {
            SearchReply::Progress { seq, .. } | SearchReply::Done { seq, .. } => *seq,
        }
    }
}

impl Numbered for SearchRequest {
    fn seq(&self) -> u32 {
        self.seq
    }
}

impl Numbered for SearchReply {
    fn seq(&self) -> u32 {
        SearchReply::seq(self)
    }
}

/// A request as posted.
pub fn encode_request(request: &SearchRequest) -> Vec<u8> {
    to_bytes(request)
}

/// A posted request, if the bytes are one.
pub fn decode_request(bytes: &[u8]) -> Option<SearchRequest> {
    from_bytes(bytes)
}

/// A reply as posted.
pub fn encode_reply(reply: &SearchReply) -> Vec<u8> {
    to_bytes(reply)
}

/// A posted reply, if the bytes are one.
pub fn decode_reply(bytes: &[u8]) -> Option<SearchReply> {
    from_bytes(bytes)
}

/// The groups of shard `shard` of `shards` (index modulo `shards`); with one shard, all of them.
pub fn shard_groups(shard: u8, shards: u8) -> Vec<Group> {
    let shards = usize::from(shards.clamp(1, SHARDS_MAX));
    let shard = usize::from(shard) % shards;
    groups().into_iter().enumerate().filter(|(i, _)| i % shards == shard).map(|(_, g)| g).collect()
}

/// Searches the request's shard, posting progress every few groups and then the rows.
pub fn respond(request: &SearchRequest, mut post: impl FnMut(Vec<u8>)) {
    let mine = shard_groups(request.shard, request.shards);
    let total = mine.len() as u32;
    let (seq, shard) = (request.seq, request.shard);
    let mut found = Found::default();
    for (i, group) in mine.iter().enumerate() {
        found.merge(search_group(&request.spec, group));
        let done = i + 1;
        if done % GROUPS_PER_PROGRESS == 0 && done < mine.len() {
            post(encode_reply(&SearchReply::Progress { seq, shard, done: done as u32, total }));
        }
    }
    post(encode_reply(&SearchReply::Done { seq, shard, found }));
}
