//! Model presets, each from its published `config.json` and model card.

use super::{Attention, ModelSpec};

/// Every model preset, in menu order. The first is the default.
pub const MODELS: &[ModelSpec] = &[ModelSpec {
    id: "llama-3.1-8b",
    name: "Llama 3.1 8B",
    params: 8.03e9,
    active_params: 8.03e9,
    layers: 32,
    hidden_size: 4096,
    heads: 32,
    attention: Attention::Gqa { kv_heads: 8, head_dim: 128 },
    ffn_size: 14_336,
    moe: None,
    vocab_size: 128_256,
    tied_embeddings: false,
    qkv_bias: false,
    sliding_window: None,
    max_context_tokens: 131_072,
    source: "meta-llama/Llama-3.1-8B config.json: num_hidden_layers 32, hidden_size 4096, \
             num_attention_heads 32, num_key_value_heads 8, head_dim 128, intermediate_size 14336, \
             vocab_size 128256, max_position_embeddings 131072; 8.03B parameters (model card)",
}];
