//! Model presets, each from its published `config.json` and model card.

use super::{Attention, ModelSpec, Moe, SlidingWindow};

/// Every model preset, in menu order. The first is the default.
pub const MODELS: &[ModelSpec] = &[
    ModelSpec {
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
        context_tokens_max: 131_072,
        source: "meta-llama/Llama-3.1-8B config.json: num_hidden_layers 32, hidden_size 4096, \
                 num_attention_heads 32, num_key_value_heads 8, head_dim 128, intermediate_size 14336, \
                 vocab_size 128256, max_position_embeddings 131072; 8.03B parameters (model card)",
    },
    ModelSpec {
        id: "llama-3.1-70b",
        name: "Llama 3.1 70B",
        params: 70.55e9,
        active_params: 70.55e9,
        layers: 80,
        hidden_size: 8192,
        heads: 64,
        attention: Attention::Gqa { kv_heads: 8, head_dim: 128 },
        ffn_size: 28_672,
        moe: None,
        vocab_size: 128_256,
        tied_embeddings: false,
        qkv_bias: false,
        sliding_window: None,
        context_tokens_max: 131_072,
        source: "meta-llama/Llama-3.1-70B config.json: num_hidden_layers 80, hidden_size 8192, \
                 num_attention_heads 64, num_key_value_heads 8, head_dim 128, intermediate_size 28672, \
                 vocab_size 128256, max_position_embeddings 131072, tie_word_embeddings false; 70.55B \
                 parameters (model card / safetensors total)",
    },
    ModelSpec {
        id: "llama-3.1-405b",
        name: "Llama 3.1 405B",
        params: 405.85e9,
        active_params: 405.85e9,
        layers: 126,
        hidden_size: 16_384,
        heads: 128,
        attention: Attention::Gqa { kv_heads: 8, head_dim: 128 },
        ffn_size: 53_248,
        moe: None,
        vocab_size: 128_256,
        tied_embeddings: false,
        qkv_bias: false,
        sliding_window: None,
        context_tokens_max: 131_072,
        source: "meta-llama/Llama-3.1-405B config.json: num_hidden_layers 126, hidden_size 16384, \
                 num_attention_heads 128, num_key_value_heads 8, head_dim 128, intermediate_size 53248, \
                 vocab_size 128256, max_position_embeddings 131072, tie_word_embeddings false; 405.85B \
                 parameters (model card / safetensors total)",
    },
    ModelSpec {
        id: "llama-3.2-1b",
        name: "Llama 3.2 1B",
        params: 1.236e9,
        active_params: 1.236e9,
        layers: 16,
        hidden_size: 2048,
        heads: 32,
        attention: Attention::Gqa { kv_heads: 8, head_dim: 64 },
        ffn_size: 8192,
        moe: None,
        vocab_size: 128_256,
        tied_embeddings: true,
        qkv_bias: false,
        sliding_window: None,
        context_tokens_max: 131_072,
        source: "meta-llama/Llama-3.2-1B config.json: num_hidden_layers 16, hidden_size 2048, \
                 num_attention_heads 32, num_key_value_heads 8, head_dim 64, intermediate_size 8192, \
                 vocab_size 128256, max_position_embeddings 131072, tie_word_embeddings true; 1.236B \
                 parameters (model card / safetensors total)",
    },
    ModelSpec {
        id: "llama-3.2-3b",
        name: "Llama 3.2 3B",
        params: 3.213e9,
        active_params: 3.213e9,
        layers: 28,
        hidden_size: 3072,
        heads: 24,
        attention: Attention::Gqa { kv_heads: 8, head_dim: 128 },
        ffn_size: 8192,
        moe: None,
        vocab_size: 128_256,
        tied_embeddings: true,
        qkv_bias: false,
        sliding_window: None,
        context_tokens_max: 131_072,
        source: "meta-llama/Llama-3.2-3B config.json: num_hidden_layers 28, hidden_size 3072, \
                 num_attention_heads 24, num_key_value_heads 8, head_dim 128, intermediate_size 8192, \
                 vocab_size 128256, max_position_embeddings 131072, tie_word_embeddings true; 3.213B \
                 parameters (model card / safetensors total)",
    },
    ModelSpec {
        id: "mistral-7b",
        name: "Mistral 7B v0.3",
        params: 7.248e9,
        active_params: 7.248e9,
        layers: 32,
        hidden_size: 4096,
        heads: 32,
        attention: Attention::Gqa { kv_heads: 8, head_dim: 128 },
        ffn_size: 14_336,
        moe: None,
        vocab_size: 32_768,
        tied_embeddings: false,
        qkv_bias: false,
        sliding_window: None,
        context_tokens_max: 32_768,
        source: "mistralai/Mistral-7B-v0.3 config.json: num_hidden_layers 32, hidden_size 4096, \
                 num_attention_heads 32, num_key_value_heads 8, head_dim 128, intermediate_size 14336, \
                 vocab_size 32768, max_position_embeddings 32768, sliding_window null; 7.248B parameters \
                 (model card / safetensors total)",
    },
    ModelSpec {
        id: "mixtral-8x7b",
        name: "Mixtral 8x7B",
        params: 46.70e9,
        active_params: 12.88e9,
        layers: 32,
        hidden_size: 4096,
        heads: 32,
        attention: Attention::Gqa { kv_heads: 8, head_dim: 128 },
        ffn_size: 14_336,
        moe: Some(Moe { experts: 8, top_k: 2, shared_experts: 0, expert_ffn_size: 14_336, dense_layers: 0 }),
        vocab_size: 32_000,
        tied_embeddings: false,
        qkv_bias: false,
        sliding_window: None,
        context_tokens_max: 32_768,
        source: "mistralai/Mixtral-8x7B-v0.1 config.json: num_hidden_layers 32, hidden_size 4096, \
                 num_attention_heads 32, num_key_value_heads 8, head_dim 128, intermediate_size 14336 \
                 per expert, num_local_experts 8, num_experts_per_tok 2, vocab_size 32000, \
                 max_position_embeddings 32768, sliding_window null; 46.70B total / 12.88B active \
                 parameters (Mistral AI announcement: 46.7B total, 12.9B per token)",
    },
    ModelSpec {
        id: "qwen2.5-7b",
        name: "Qwen2.5 7B",
        params: 7.62e9,
        active_params: 7.62e9,
        layers: 28,
        hidden_size: 3584,
        heads: 28,
        attention: Attention::Gqa { kv_heads: 4, head_dim: 128 },
        ffn_size: 18_944,
        moe: None,
        vocab_size: 152_064,
        tied_embeddings: false,
        qkv_bias: true,
        sliding_window: None,
        context_tokens_max: 32_768,
        source: "Qwen/Qwen2.5-7B-Instruct config.json: num_hidden_layers 28, hidden_size 3584, \
                 num_attention_heads 28, num_key_value_heads 4 (head_dim 128), intermediate_size 18944, \
                 vocab_size 152064, max_position_embeddings 32768, tie_word_embeddings false, \
                 use_sliding_window false, QKV biases; 7.62B parameters (model card: 7.61B, safetensors \
                 total 7.62B)",
    },
    ModelSpec {
        id: "qwen2.5-72b",
        name: "Qwen2.5 72B",
        params: 72.71e9,
        active_params: 72.71e9,
        layers: 80,
        hidden_size: 8192,
        heads: 64,
        attention: Attention::Gqa { kv_heads: 8, head_dim: 128 },
        ffn_size: 29_568,
        moe: None,
        vocab_size: 152_064,
        tied_embeddings: false,
        qkv_bias: true,
        sliding_window: None,
        context_tokens_max: 32_768,
        source: "Qwen/Qwen2.5-72B-Instruct config.json: num_hidden_layers 80, hidden_size 8192, \
                 num_attention_heads 64, num_key_value_heads 8 (head_dim 128), intermediate_size 29568, \
                 vocab_size 152064, max_position_embeddings 32768, tie_word_embeddings false, \
                 use_sliding_window false, QKV biases; 72.71B parameters (model card: 72.7B)",
    },
    ModelSpec {
        id: "qwen3-8b",
        name: "Qwen3 8B",
        params: 8.19e9,
        active_params: 8.19e9,
        layers: 36,
        hidden_size: 4096,
        heads: 32,
        attention: Attention::Gqa { kv_heads: 8, head_dim: 128 },
        ffn_size: 12_288,
        moe: None,
        vocab_size: 151_936,
        tied_embeddings: false,
        qkv_bias: false,
        sliding_window: None,
        context_tokens_max: 40_960,
        source: "Qwen/Qwen3-8B config.json: num_hidden_layers 36, hidden_size 4096, num_attention_heads 32, \
                 num_key_value_heads 8, head_dim 128, intermediate_size 12288, vocab_size 151936, \
                 max_position_embeddings 40960, tie_word_embeddings false, use_sliding_window false; \
                 8.19B parameters (model card: 8.2B)",
    },
    ModelSpec {
        id: "qwen3-32b",
        name: "Qwen3 32B",
        params: 32.76e9,
        active_params: 32.76e9,
        layers: 64,
        hidden_size: 5120,
        heads: 64,
        attention: Attention::Gqa { kv_heads: 8, head_dim: 128 },
        ffn_size: 25_600,
        moe: None,
        vocab_size: 151_936,
        tied_embeddings: false,
        qkv_bias: false,
        sliding_window: None,
        context_tokens_max: 40_960,
        source:
            "Qwen/Qwen3-32B config.json: num_hidden_layers 64, hidden_size 5120, num_attention_heads 64, \
                 num_key_value_heads 8, head_dim 128 (not 5120/64), intermediate_size 25600, vocab_size \
                 151936, max_position_embeddings 40960, tie_word_embeddings false, use_sliding_window \
                 false; 32.76B parameters (model card: 32.8B)",
    },
    ModelSpec {
        id: "qwen3-30b-a3b",
        name: "Qwen3 30B-A3B",
        params: 30.53e9,
        active_params: 3.35e9,
        layers: 48,
        hidden_size: 2048,
        heads: 32,
        attention: Attention::Gqa { kv_heads: 4, head_dim: 128 },
        ffn_size: 6144,
        moe: Some(Moe { experts: 128, top_k: 8, shared_experts: 0, expert_ffn_size: 768, dense_layers: 0 }),
        vocab_size: 151_936,
        tied_embeddings: false,
        qkv_bias: false,
        sliding_window: None,
        context_tokens_max: 40_960,
        source: "Qwen/Qwen3-30B-A3B config.json: num_hidden_layers 48, hidden_size 2048, \
                 num_attention_heads 32, num_key_value_heads 4, head_dim 128, num_experts 128, \
                 num_experts_per_tok 8, moe_intermediate_size 768, decoder_sparse_step 1 and no \
                 mlp_only_layers (intermediate_size 6144 unused), vocab_size 151936, \
                 max_position_embeddings 40960, tie_word_embeddings false; 30.53B total / 3.35B active \
                 (model card: 30.5B total, 3.3B activated)",
    },
    ModelSpec {
        id: "qwen3-235b-a22b",
        name: "Qwen3 235B-A22B",
        params: 235.1e9,
        active_params: 22.2e9,
        layers: 94,
        hidden_size: 4096,
        heads: 64,
        attention: Attention::Gqa { kv_heads: 4, head_dim: 128 },
        ffn_size: 12_288,
        moe: Some(Moe { experts: 128, top_k: 8, shared_experts: 0, expert_ffn_size: 1536, dense_layers: 0 }),
        vocab_size: 151_936,
        tied_embeddings: false,
        qkv_bias: false,
        sliding_window: None,
        context_tokens_max: 40_960,
        source: "Qwen/Qwen3-235B-A22B config.json: num_hidden_layers 94, hidden_size 4096, \
                 num_attention_heads 64, num_key_value_heads 4, head_dim 128, num_experts 128, \
                 num_experts_per_tok 8, moe_intermediate_size 1536, decoder_sparse_step 1 and no \
                 mlp_only_layers (intermediate_size 12288 unused), vocab_size 151936, \
                 max_position_embeddings 40960, tie_word_embeddings false; 235.1B total / 22.2B active \
                 (model card: 235B total, 22B activated)",
    },
    ModelSpec {
        id: "gemma-2-9b",
        name: "Gemma 2 9B",
        params: 9.24e9,
        active_params: 9.24e9,
        layers: 42,
        hidden_size: 3584,
        heads: 16,
        attention: Attention::Gqa { kv_heads: 8, head_dim: 256 },
        ffn_size: 14_336,
        moe: None,
        vocab_size: 256_000,
        tied_embeddings: true,
        qkv_bias: false,
        sliding_window: Some(SlidingWindow { window_tokens: 4096, sliding_layers: 21 }),
        context_tokens_max: 8192,
        source: "google/gemma-2-9b config.json: num_hidden_layers 42, hidden_size 3584, \
                 num_attention_heads 16, num_key_value_heads 8, head_dim 256, intermediate_size 14336, \
                 vocab_size 256000, max_position_embeddings 8192, sliding_window 4096 on alternate \
                 layers (21 of 42), tied embeddings; 9.24B parameters (model card / safetensors total)",
    },
    ModelSpec {
        id: "gemma-2-27b",
        name: "Gemma 2 27B",
        params: 27.23e9,
        active_params: 27.23e9,
        layers: 46,
        hidden_size: 4608,
        heads: 32,
        attention: Attention::Gqa { kv_heads: 16, head_dim: 128 },
        ffn_size: 36_864,
        moe: None,
        vocab_size: 256_000,
        tied_embeddings: true,
        qkv_bias: false,
        sliding_window: Some(SlidingWindow { window_tokens: 4096, sliding_layers: 23 }),
        context_tokens_max: 8192,
        source: "google/gemma-2-27b config.json: num_hidden_layers 46, hidden_size 4608, \
                 num_attention_heads 32, num_key_value_heads 16, head_dim 128, intermediate_size 36864, \
                 vocab_size 256000, max_position_embeddings 8192, sliding_window 4096 on alternate \
                 layers (23 of 46), tied embeddings; 27.23B parameters (model card / safetensors total)",
    },
    ModelSpec {
        id: "deepseek-v3",
        name: "DeepSeek-V3",
        params: 671.0e9,
        active_params: 37.6e9,
        layers: 61,
        hidden_size: 7168,
        heads: 128,
        attention: Attention::Mla {
            kv_lora_rank: 512,
            q_lora_rank: 1536,
            rope_head_dim: 64,
            nope_head_dim: 128,
            v_head_dim: 128,
        },
        ffn_size: 18_432,
        moe: Some(Moe { experts: 256, top_k: 8, shared_experts: 1, expert_ffn_size: 2048, dense_layers: 3 }),
        vocab_size: 129_280,
        tied_embeddings: false,
        qkv_bias: false,
        sliding_window: None,
        context_tokens_max: 163_840,
        source: "deepseek-ai/DeepSeek-V3 config.json: num_hidden_layers 61, hidden_size 7168, \
                 num_attention_heads 128, kv_lora_rank 512, q_lora_rank 1536, qk_rope_head_dim 64, \
                 qk_nope_head_dim 128, v_head_dim 128, intermediate_size 18432 (first_k_dense_replace 3 \
                 dense layers), n_routed_experts 256, num_experts_per_tok 8, n_shared_experts 1, \
                 moe_intermediate_size 2048, vocab_size 129280, max_position_embeddings 163840; 671B total \
                 (technical report, excluding the 14B multi-token-prediction module) / 37.6B active \
                 (report: 37B activated)",
    },
    ModelSpec {
        id: "gpt-oss-20b",
        name: "gpt-oss-20b",
        params: 20.9e9,
        active_params: 4.19e9,
        layers: 24,
        hidden_size: 2880,
        heads: 64,
        attention: Attention::Gqa { kv_heads: 8, head_dim: 64 },
        ffn_size: 2880,
        moe: Some(Moe { experts: 32, top_k: 4, shared_experts: 0, expert_ffn_size: 2880, dense_layers: 0 }),
        vocab_size: 201_088,
        tied_embeddings: false,
        qkv_bias: true,
        sliding_window: Some(SlidingWindow { window_tokens: 128, sliding_layers: 12 }),
        context_tokens_max: 131_072,
        source: "openai/gpt-oss-20b config.json: num_hidden_layers 24, hidden_size 2880, \
                 num_attention_heads 64, num_key_value_heads 8, head_dim 64, num_local_experts 32, \
                 num_experts_per_tok 4, intermediate_size 2880, vocab_size 201088, \
                 max_position_embeddings 131072, sliding_window 128 on alternate layer_types (12 of 24), \
                 attention_bias true; 20.9B total / 4.19B active (model card: 20.91B total, 3.61B active \
                 excluding the 0.58B embedding table)",
    },
    ModelSpec {
        id: "gpt-oss-120b",
        name: "gpt-oss-120b",
        params: 116.8e9,
        active_params: 5.71e9,
        layers: 36,
        hidden_size: 2880,
        heads: 64,
        attention: Attention::Gqa { kv_heads: 8, head_dim: 64 },
        ffn_size: 2880,
        moe: Some(Moe { experts: 128, top_k: 4, shared_experts: 0, expert_ffn_size: 2880, dense_layers: 0 }),
        vocab_size: 201_088,
        tied_embeddings: false,
        qkv_bias: true,
        sliding_window: Some(SlidingWindow { window_tokens: 128, sliding_layers: 18 }),
        context_tokens_max: 131_072,
        source: "openai/gpt-oss-120b config.json: num_hidden_layers 36, hidden_size 2880, \
                 num_attention_heads 64, num_key_value_heads 8, head_dim 64, num_local_experts 128, \
                 num_experts_per_tok 4, intermediate_size 2880, vocab_size 201088, \
                 max_position_embeddings 131072, sliding_window 128 on alternate layer_types (18 of 36), \
                 attention_bias true; 116.8B total / 5.71B active (model card: 116.83B total, 5.13B \
                 active excluding the 0.58B embedding table)",
    },
    ModelSpec {
        id: "deepseek-r1",
        name: "DeepSeek-R1",
        params: 671.0e9,
        active_params: 37.6e9,
        layers: 61,
        hidden_size: 7168,
        heads: 128,
        attention: Attention::Mla {
            kv_lora_rank: 512,
            q_lora_rank: 1536,
            rope_head_dim: 64,
            nope_head_dim: 128,
            v_head_dim: 128,
        },
        ffn_size: 18_432,
        moe: Some(Moe { experts: 256, top_k: 8, shared_experts: 1, expert_ffn_size: 2048, dense_layers: 3 }),
        vocab_size: 129_280,
        tied_embeddings: false,
        qkv_bias: false,
        sliding_window: None,
        context_tokens_max: 163_840,
        source: "deepseek-ai/DeepSeek-R1 config.json (DeepseekV3ForCausalLM: DeepSeek-V3's architecture, \
                 field for field): num_hidden_layers 61, hidden_size 7168, num_attention_heads 128, \
                 kv_lora_rank 512, q_lora_rank 1536, qk_rope_head_dim 64, qk_nope_head_dim 128, v_head_dim \
                 128, intermediate_size 18432 (first_k_dense_replace 3), n_routed_experts 256, \
                 num_experts_per_tok 8, n_shared_experts 1, moe_intermediate_size 2048, vocab_size 129280, \
                 max_position_embeddings 163840; 671B total / 37.6B active as DeepSeek-V3 (model card: \
                 671B total, 37B activated)",
    },
    ModelSpec {
        id: "kimi-k2",
        name: "Kimi K2",
        params: 1026.4e9,
        active_params: 32.86e9,
        layers: 61,
        hidden_size: 7168,
        heads: 64,
        attention: Attention::Mla {
            kv_lora_rank: 512,
            q_lora_rank: 1536,
            rope_head_dim: 64,
            nope_head_dim: 128,
            v_head_dim: 128,
        },
        ffn_size: 18_432,
        moe: Some(Moe { experts: 384, top_k: 8, shared_experts: 1, expert_ffn_size: 2048, dense_layers: 1 }),
        vocab_size: 163_840,
        tied_embeddings: false,
        qkv_bias: false,
        sliding_window: None,
        context_tokens_max: 131_072,
        source: "moonshotai/Kimi-K2-Instruct config.json (DeepSeek-V3's architecture): num_hidden_layers \
                 61, hidden_size 7168, num_attention_heads 64, kv_lora_rank 512, q_lora_rank 1536, \
                 qk_rope_head_dim 64, qk_nope_head_dim 128, v_head_dim 128, intermediate_size 18432 \
                 (first_k_dense_replace 1), n_routed_experts 384, num_experts_per_tok 8, n_shared_experts \
                 1, moe_intermediate_size 2048, vocab_size 163840, 131072 tokens (model card: 128K \
                 context); 1,026.4B total / 32.86B active counted from this config, embedding and output \
                 head included (model card: 1T total, 32B activated; the Kimi K2.5 report rounds the K2 \
                 backbone to 1.04T, 1.3% above what the config's tensors hold)",
    },
    ModelSpec {
        id: "glm-4.5",
        name: "GLM-4.5",
        params: 355.0e9,
        active_params: 33.63e9,
        layers: 92,
        hidden_size: 5120,
        heads: 96,
        attention: Attention::Gqa { kv_heads: 8, head_dim: 128 },
        ffn_size: 12_288,
        moe: Some(Moe { experts: 160, top_k: 8, shared_experts: 1, expert_ffn_size: 1536, dense_layers: 3 }),
        vocab_size: 151_552,
        tied_embeddings: false,
        qkv_bias: true,
        sliding_window: None,
        context_tokens_max: 131_072,
        source: "zai-org/GLM-4.5 config.json (Glm4MoeForCausalLM): num_hidden_layers 92, hidden_size 5120, \
                 num_attention_heads 96, num_key_value_heads 8, head_dim 128, attention_bias true, \
                 intermediate_size 12288 (first_k_dense_replace 3), n_routed_experts 160, \
                 num_experts_per_tok 8, n_shared_experts 1, moe_intermediate_size 1536, vocab_size 151552, \
                 tie_word_embeddings false, 128K context; 355B total (model card; the config counts \
                 352.8B without its one multi-token-prediction layer) / 33.63B active counted from the \
                 config (model card: 32B activated, which the config matches, 32.08B, without the 1.55B \
                 embedding and output head)",
    },
    // Llama 4 interleaves its MoE layers (every second layer, interleave_moe_layer_step 2); the
    // arithmetic only counts them, so the 24 dense layers are written as `dense_layers`.
    ModelSpec {
        id: "llama-4-maverick",
        name: "Llama 4 Maverick",
        params: 400.0e9,
        active_params: 17.19e9,
        layers: 48,
        hidden_size: 5120,
        heads: 40,
        attention: Attention::Gqa { kv_heads: 8, head_dim: 128 },
        ffn_size: 16_384,
        moe: Some(Moe { experts: 128, top_k: 1, shared_experts: 1, expert_ffn_size: 8192, dense_layers: 24 }),
        vocab_size: 202_048,
        tied_embeddings: false,
        qkv_bias: false,
        // Chunked attention (attention_chunk_size 8192) on the 36 RoPE layers of 48 (every fourth
        // layer is global, NoPE), approximated as a sliding window: a chunk holds at most 8192
        // tokens, as the window does, but fewer right after a chunk boundary.
        sliding_window: Some(SlidingWindow { window_tokens: 8192, sliding_layers: 36 }),
        context_tokens_max: 1_048_576,
        source: "meta-llama/Llama-4-Maverick-17B-128E config.json text_config: num_hidden_layers 48, \
                 hidden_size 5120, num_attention_heads 40, num_key_value_heads 8, head_dim 128, \
                 interleave_moe_layer_step 2 (24 MoE layers), num_local_experts 128, num_experts_per_tok \
                 1 plus one shared expert, intermediate_size 8192 (experts), intermediate_size_mlp 16384 \
                 (dense layers), vocab_size 202048, attention_chunk_size 8192 on 3 of 4 layers, \
                 max_position_embeddings 1048576; 400B total (model card) / 17.19B active counted from \
                 the config, embedding and output head included (model card: 17B activated)",
    },
    ModelSpec {
        id: "qwen3-coder-480b",
        name: "Qwen3-Coder 480B-A35B",
        params: 480.0e9,
        active_params: 35.5e9,
        layers: 62,
        hidden_size: 6144,
        heads: 96,
        attention: Attention::Gqa { kv_heads: 8, head_dim: 128 },
        ffn_size: 8192,
        moe: Some(Moe { experts: 160, top_k: 8, shared_experts: 0, expert_ffn_size: 2560, dense_layers: 0 }),
        vocab_size: 151_936,
        tied_embeddings: false,
        qkv_bias: false,
        sliding_window: None,
        context_tokens_max: 262_144,
        source: "Qwen/Qwen3-Coder-480B-A35B-Instruct config.json: num_hidden_layers 62, hidden_size 6144, \
                 num_attention_heads 96, num_key_value_heads 8, head_dim 128, num_experts 160, \
                 num_experts_per_tok 8, moe_intermediate_size 2560, shared_expert_intermediate_size 0, \
                 decoder_sparse_step 1 and no mlp_only_layers (intermediate_size 8192 unused), vocab_size \
                 151936, max_position_embeddings 262144, tie_word_embeddings false; 480B total (config \
                 count 480.2B) / 35.5B active counted from the config (model card: 480B total, 35B \
                 activated)",
    },
];
