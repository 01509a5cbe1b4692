//! The configuration search's message protocol between the page and its Web Workers: a
//! [`SearchRequest`] names one shard of the search's groups, [`SearchReply`]s carry progress and then that
//! shard's rows. Pure and native-testable; both directions are postcard bytes ([`crate::protocol::codec`]).
//!
//! The page splits the search over as many workers as the machine has cores (at most
//! [`crate::core::search::SHARDS_MAX`]); which groups a shard searches is the model's
//! ([`crate::core::search::shard_groups`]).

use serde::{Deserialize, Serialize};

use crate::core::search::{search_groups, shard_groups, Found, SearchSpec};
use crate::protocol::codec::{from_bytes, to_bytes, Numbered};

/// Groups a worker searches between two progress replies.
const GROUPS_PER_PROGRESS: u32 = 12;

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

/// Searches the request's shard, posting progress every few groups and then the rows.
pub fn respond(request: &SearchRequest, mut post: impl FnMut(Vec<u8>)) {
    let (seq, shard) = (request.seq, request.shard);
    let mine = shard_groups(request.shard, request.shards);
    let found = search_groups(&request.spec, &mine, |done, total| {
        if done % GROUPS_PER_PROGRESS == 0 && done < total {
            post(encode_reply(&SearchReply::Progress { seq, shard, done, total }));
        }
    });
    post(encode_reply(&SearchReply::Done { seq, shard, found }));
}
