//! Model and GPU presets agree with their sources: parameter counts from the config match the
//! published ones, KV per token matches the reference table, and every GPU carries sane numbers.

use goodput_lab::core::model::{
    config_active_param_count, config_param_count, expected_experts, expert_params, kv_elements_per_seq,
    kv_elements_per_token, moe_layers,
};
use goodput_lab::core::presets::{gpu_by_id, model_by_id, GpuSpec, ModelSpec, GPUS, GPU_PRICES, MODELS};

/// Asserts `actual` is within relative tolerance `rel` of `expected`, naming `what` when not.
fn assert_close(actual: f64, expected: f64, rel: f64, what: &str) {
    let err = (actual - expected).abs() / expected.abs().max(f64::MIN_POSITIVE);
    assert!(err <= rel, "{what}: got {actual}, expected {expected} (relative error {err:.3e} > {rel:.0e})");
}

fn model(id: &str) -> &'static ModelSpec {
    model_by_id(id).unwrap_or_else(|| panic!("model preset {id} missing"))
}

fn gpu(id: &str) -> &'static GpuSpec {
    gpu_by_id(id).unwrap_or_else(|| panic!("GPU preset {id} missing"))
}

/// KV bytes per token at BF16, in KiB, from the "KV/token BF16 (calc)" column of presets.md.
const KV_KIB_PER_TOKEN_BF16: &[(&str, f64)] = &[
    ("llama-3.1-8b", 128.0),
    ("llama-3.1-70b", 320.0),
    ("llama-3.1-405b", 504.0),
    ("llama-3.2-1b", 32.0),
    ("llama-3.2-3b", 112.0),
    ("mistral-7b", 128.0),
    ("mixtral-8x7b", 128.0),
    ("qwen2.5-7b", 56.0),
    ("qwen2.5-72b", 320.0),
    ("qwen3-8b", 144.0),
    ("qwen3-32b", 256.0),
    ("qwen3-30b-a3b", 96.0),
    ("qwen3-235b-a22b", 188.0),
    ("gemma-2-9b", 336.0),
    ("gemma-2-27b", 368.0),
    // (512 latent + 64 RoPE key) x 61 layers x 2 bytes = 70,272 B.
    ("deepseek-v3", 68.625),
    ("gpt-oss-20b", 48.0),
    ("gpt-oss-120b", 72.0),
    // DeepSeek-V3's architecture: the same latent and RoPE key over 61 layers.
    ("deepseek-r1", 68.625),
    // (512 latent + 64 RoPE key) x 61 layers x 2 bytes, as DeepSeek-V3.
    ("kimi-k2", 68.625),
    // 2 x 8 KV heads x 128 x 92 layers x 2 bytes = 376,832 B.
    ("glm-4.5", 368.0),
    // 2 x 8 x 128 x 48 layers x 2 bytes = 196,608 B (per token at full context, before the chunks cap it).
    ("llama-4-maverick", 192.0),
    // 2 x 8 x 128 x 62 layers x 2 bytes = 253,952 B.
    ("qwen3-coder-480b", 248.0),
];

/// (id, HBM GB, bandwidth TB/s) for every GPU in presets.md's table.
const GPU_MEMORY: &[(&str, f64, f64)] = &[
    ("h100-sxm", 80.0, 3.35),
    ("h100-pcie", 80.0, 2.0),
    ("h100-nvl", 94.0, 3.9),
    ("h200-sxm", 141.0, 4.8),
    ("h200-nvl", 141.0, 4.8),
    ("a100-40gb", 40.0, 1.555),
    ("a100-80gb", 80.0, 2.039),
    ("l40s", 48.0, 0.864),
    ("l4", 24.0, 0.300),
    ("b200", 180.0, 7.7),
    ("gb200", 186.0, 8.0),
    ("gb300", 288.0, 8.0),
    ("b300", 270.0, 7.7),
    ("mi300x", 192.0, 5.3),
    ("mi325x", 256.0, 6.0),
    ("mi355x", 288.0, 8.0),
    ("tpu-v5e", 16.0, 0.819),
    ("tpu-v6e", 32.0, 1.638),
];

fn moe_models() -> impl Iterator<Item = &'static ModelSpec> {
    MODELS.iter().filter(|m| m.moe.is_some())
}

#[test]
fn every_models_config_parameter_count_is_within_one_percent_of_its_published_total_and_active() {
    let mut offenders = Vec::new();
    for m in MODELS {
        for (what, counted, published) in [
            ("total", config_param_count(m), m.params),
            ("active", config_active_param_count(m), m.active_params),
        ] {
            let err = (counted - published) / published;
            println!(
                "{:<16} {what:<6} config {:>9.4}B published {:>9.4}B {:+.2}%",
                m.id,
                counted / 1e9,
                published / 1e9,
                100.0 * err
            );
            if err.abs() > 0.01 {
                offenders.push(format!(
                    "{} {what}: config counts {:.4}B, published {:.4}B ({:+.2}%)",
                    m.id,
                    counted / 1e9,
                    published / 1e9,
                    100.0 * err
                ));
            }
        }
    }
    assert!(offenders.is_empty(), "parameter counts off by more than 1%:\n{}", offenders.join("\n"));
}

#[test]
fn dense_models_publish_active_equal_to_total_and_moe_models_fewer_active() {
    for m in MODELS {
        if m.moe.is_some() {
            assert!(
                m.active_params < m.params,
                "{}: MoE active {} not below total {}",
                m.id,
                m.active_params,
                m.params
            );
        } else {
            assert_eq!(m.active_params, m.params, "{}: dense model with active != total", m.id);
        }
    }
}

#[test]
fn kv_bytes_per_token_at_bf16_match_the_reference_table_for_every_model() {
    assert_eq!(KV_KIB_PER_TOKEN_BF16.len(), MODELS.len(), "reference table and MODELS differ in length");
    for &(id, kib) in KV_KIB_PER_TOKEN_BF16 {
        let bytes = kv_elements_per_token(model(id)) * 2.0;
        assert_close(bytes, kib * 1024.0, 1e-9, &format!("{id} KV bytes per token at BF16"));
    }
}

#[test]
fn deepseek_v3_caches_one_latent_plus_one_rope_key_per_layer() {
    assert_close(kv_elements_per_token(model("deepseek-v3")), (512.0 + 64.0) * 61.0, 1e-12, "MLA elements");
}

#[test]
fn gemma_2_9b_sliding_layers_cap_their_kv_at_the_4096_token_window() {
    let m = model("gemma-2-9b");
    let per_layer_token = kv_elements_per_token(m) / 42.0;
    let at_8192 = kv_elements_per_seq(m, 8192);
    assert_close(at_8192, per_layer_token * (21.0 * 8192.0 + 21.0 * 4096.0), 1e-12, "gemma-2-9b at 8192");
    assert!(at_8192 < kv_elements_per_token(m) * 8192.0, "sliding window saves nothing at 8192 tokens");
    for ctx in [1, 1000, 4096] {
        assert_close(
            kv_elements_per_seq(m, ctx),
            kv_elements_per_token(m) * f64::from(ctx),
            1e-12,
            &format!("gemma-2-9b at {ctx} tokens (inside the window)"),
        );
    }
}

#[test]
fn gpt_oss_120b_sliding_layers_cap_their_kv_at_the_128_token_window() {
    let m = model("gpt-oss-120b");
    let per_layer_token = kv_elements_per_token(m) / 36.0;
    assert_close(
        kv_elements_per_seq(m, 128),
        kv_elements_per_token(m) * 128.0,
        1e-12,
        "gpt-oss-120b at 128 tokens (the window)",
    );
    let at_2048 = kv_elements_per_seq(m, 2048);
    assert_close(at_2048, per_layer_token * (18.0 * 2048.0 + 18.0 * 128.0), 1e-12, "gpt-oss-120b at 2048");
    assert!(at_2048 < kv_elements_per_token(m) * 2048.0, "sliding window saves nothing at 2048 tokens");
}

#[test]
fn models_without_sliding_window_hold_every_token_in_every_layer() {
    for m in MODELS.iter().filter(|m| m.sliding_window.is_none()) {
        let ctx = m.context_tokens_max;
        assert_close(
            kv_elements_per_seq(m, ctx),
            kv_elements_per_token(m) * f64::from(ctx),
            1e-12,
            &format!("{} KV at {ctx} tokens", m.id),
        );
    }
}

#[test]
fn one_token_reads_top_k_experts_and_many_tokens_read_all_of_them_monotonically() {
    assert!(moe_models().count() >= 6, "expected the six MoE presets");
    for m in moe_models() {
        let moe = m.moe.unwrap();
        let (e, k) = (moe.experts, moe.top_k);
        assert_close(expected_experts(e, k, 1.0), f64::from(k), 1e-12, &format!("{} experts at B=1", m.id));
        let many = expected_experts(e, k, 10_000.0);
        assert!((many - f64::from(e)).abs() < 1e-6, "{}: {many} experts at B=10,000, expected {e}", m.id);
        let mut last = 0.0;
        for b in 1..=2048 {
            let now = expected_experts(e, k, f64::from(b));
            assert!(now >= last, "{}: expected experts fell from {last} to {now} at B={b}", m.id);
            last = now;
        }
    }
}

#[test]
fn published_moe_counts_split_into_a_dense_part_and_config_sized_experts() {
    for m in moe_models() {
        let moe = m.moe.unwrap();
        let (e, k) = (f64::from(moe.experts), f64::from(moe.top_k));
        let p = expert_params(m);
        let dense = m.params - p * e;
        assert!(dense > 0.0, "{}: published counts leave a negative dense part {dense}", m.id);
        assert_close(p * (e - k), m.params - m.active_params, 1e-9, &format!("{} routed difference", m.id));
        assert_close(dense + p * e, m.params, 1e-9, &format!("{} total from dense + E experts", m.id));
        assert_close(
            dense + p * k,
            m.active_params,
            1e-9,
            &format!("{} active from dense + k experts", m.id),
        );
        // One routed expert's gated MLP, summed over the MoE layers, from the config.
        let from_config =
            f64::from(moe_layers(m)) * 3.0 * f64::from(m.hidden_size) * f64::from(moe.expert_ffn_size);
        assert_close(
            p,
            from_config,
            0.01,
            &format!("{} one expert's parameters (published vs config)", m.id),
        );
    }
}

#[test]
fn preset_ids_are_unique_lowercase_and_hyphenated() {
    let ids: Vec<&str> = MODELS.iter().map(|m| m.id).chain(GPUS.iter().map(|g| g.id)).collect();
    for (i, id) in ids.iter().enumerate() {
        assert!(!id.is_empty(), "empty preset id");
        assert!(
            id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-'),
            "preset id {id:?} is not lowercase and hyphenated"
        );
        assert!(!ids[..i].contains(id), "preset id {id} appears twice");
    }
}

#[test]
fn the_issues_presets_exist_and_the_defaults_stay_first() {
    for id in ["llama-3.1-8b", "llama-3.1-70b", "qwen3-30b-a3b", "deepseek-v3"] {
        model(id);
    }
    for id in ["h100-sxm", "h200-sxm", "a100-80gb", "mi300x", "b200"] {
        gpu(id);
    }
    assert_eq!(MODELS[0].id, "llama-3.1-8b");
    assert_eq!(GPUS[0].id, "h100-sxm");
}

#[test]
fn every_source_is_non_empty_and_quotes_a_number() {
    let sources = MODELS.iter().map(|m| (m.id, m.source)).chain(GPUS.iter().map(|g| (g.id, g.source)));
    for (id, source) in sources {
        assert!(!source.trim().is_empty(), "{id}: empty source");
        assert!(source.chars().any(|c| c.is_ascii_digit()), "{id}: source quotes no number: {source}");
    }
}

#[test]
fn every_gpu_has_positive_finite_rates_and_lower_precision_is_never_slower() {
    for g in GPUS {
        for (what, v) in [
            ("HBM", g.hbm_bytes),
            ("bandwidth", g.hbm_bandwidth_bytes_per_s),
            ("BF16", g.bf16_flop_per_s),
            ("interconnect", g.interconnect_bytes_per_s),
        ] {
            assert!(v.is_finite() && v > 0.0, "{}: {what} {v} is not positive and finite", g.id);
        }
        if let Some(fp8) = g.fp8_flop_per_s {
            assert!(fp8.is_finite() && fp8 >= g.bf16_flop_per_s, "{}: FP8 {fp8} below BF16", g.id);
        }
        if let Some(fp4) = g.fp4_flop_per_s {
            assert!(fp4.is_finite() && fp4 > 0.0, "{}: FP4 {fp4} not positive and finite", g.id);
            if let Some(fp8) = g.fp8_flop_per_s {
                assert!(fp4 >= fp8, "{}: FP4 {fp4} below FP8 {fp8}", g.id);
            }
        }
    }
}

#[test]
fn every_gpu_in_the_reference_table_is_present_with_its_hbm_and_bandwidth() {
    assert_eq!(GPU_MEMORY.len(), GPUS.len(), "reference table and GPUS differ in length");
    for &(id, gb, tb_per_s) in GPU_MEMORY {
        let g = gpu(id);
        assert_close(g.hbm_bytes, gb * 1e9, 1e-12, &format!("{id} HBM bytes"));
        assert_close(g.hbm_bandwidth_bytes_per_s, tb_per_s * 1e12, 1e-12, &format!("{id} bandwidth"));
    }
}

#[test]
fn tpus_have_no_fp8_rate_since_their_int8_figure_is_not_fp8() {
    for id in ["tpu-v5e", "tpu-v6e"] {
        assert_eq!(gpu(id).fp8_flop_per_s, None, "{id} FP8");
        assert_eq!(gpu(id).fp4_flop_per_s, None, "{id} FP4");
    }
}

#[test]
fn interconnect_is_half_the_bidirectional_datasheet_figure() {
    // (id, bidirectional GB/s as the source quotes it)
    let bidirectional = [
        ("h100-sxm", 900.0),
        ("h100-pcie", 128.0),
        ("h100-nvl", 600.0),
        ("h200-sxm", 900.0),
        ("h200-nvl", 900.0),
        ("a100-40gb", 600.0),
        ("a100-80gb", 600.0),
        ("l40s", 64.0),
        ("l4", 64.0),
        ("b200", 1800.0),
        ("gb200", 1800.0),
        // 130 TB/s over 72 GPUs.
        ("gb300", 1800.0),
        ("b300", 1800.0),
        ("mi300x", 7.0 * 128.0),
        ("mi325x", 7.0 * 128.0),
        // 7 x 153.6 = 1,075.2, quoted as 1,075 GB/s.
        ("mi355x", 1075.0),
        ("tpu-v5e", 1600.0 / 8.0),
        ("tpu-v6e", 3584.0 / 8.0),
    ];
    for (id, gb_per_s) in bidirectional {
        assert_close(
            gpu(id).interconnect_bytes_per_s,
            gb_per_s * 1e9 / 2.0,
            1e-12,
            &format!("{id} interconnect"),
        );
    }
}

#[test]
fn every_gpu_preset_has_a_sourced_price() {
    let price_ids: Vec<&str> = GPU_PRICES.iter().map(|p| p.gpu_id).collect();
    let gpu_ids: Vec<&str> = GPUS.iter().map(|g| g.id).collect();
    assert_eq!(price_ids, gpu_ids, "GPU_PRICES ids differ from GPUS ids (or their order)");
    for p in &GPU_PRICES {
        let usd = p.usd_per_gpu_hour;
        assert!(usd.is_finite() && usd > 0.0, "{}: price {usd} $/GPU-h is not positive and finite", p.gpu_id);
        assert!(!p.source.trim().is_empty(), "{}: empty price source", p.gpu_id);
        assert!(
            !p.source.to_lowercase().contains("provisional"),
            "{}: price source is provisional: {}",
            p.gpu_id,
            p.source
        );
    }
}
