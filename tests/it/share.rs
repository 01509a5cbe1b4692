//! Share texts: the scenario summary names the worked example's scenario, an embed link and an "Open in
//! Goodput Lab" link reopen the same state, and the iframe snippet cannot be broken by its text.

use goodput_lab::state::measured;
use goodput_lab::state::view::{Mode, Panel, Theme, View};
use goodput_lab::state::{from_page_query, parse_raw, Inputs};
use goodput_lab::view::share::{
    embed_query, full_page_query, iframe_snippet, link_query, read_link, scenario_summary, EmbedSize,
};

#[test]
fn the_summary_names_the_worked_example_scenario() {
    assert_eq!(
        scenario_summary(&Inputs::default()),
        "Llama 3.1 8B · H100 SXM · BF16 weights · 2,048 tokens · BF16 KV · 10 ms TPOT"
    );
}

#[test]
fn the_summary_counts_gpus_under_tensor_parallelism_and_names_the_kv_precision() {
    let (inputs, _, _) = from_page_query("model=llama-3.1-70b&tp=4&kv=fp8&ctx=8192&tpot=25");
    assert_eq!(
        scenario_summary(&inputs),
        "Llama 3.1 70B · 4 × H100 SXM · BF16 weights · 8,192 tokens · FP8 KV · 25 ms TPOT"
    );
}

#[test]
fn the_summary_names_the_weight_precision() {
    let (inputs, _, _) = from_page_query("w=int4&kv=fp8");
    assert_eq!(
        scenario_summary(&inputs),
        "Llama 3.1 8B · H100 SXM · INT4 weights · 2,048 tokens · FP8 KV · 10 ms TPOT"
    );
}

#[test]
fn an_embed_link_reopens_the_same_inputs_as_an_embed_of_the_chosen_panel() {
    let (inputs, view, notices) =
        from_page_query("model=qwen3-8b&gpu=h200-sxm&ctx=4096&kv=fp8&tpot=15&theme=dark&mark=32&sim=1");
    assert!(notices.is_empty(), "{notices:?}");
    for panel in Panel::ALL {
        let (again, embed_view, notices) = from_page_query(&embed_query(&inputs, &view, &[], panel));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(again, inputs);
        assert_eq!(
            embed_view,
            View { mode: Mode::Embed, panel, theme: Theme::Dark, mark_batch: Some(32), lesson: None }
        );
    }
}

#[test]
fn the_full_page_link_of_an_embed_drops_embed_and_keeps_everything_else() {
    let (inputs, view, _) = from_page_query("model=mistral-7b&ctx=1024&embed=1&view=step&theme=projector");
    assert_eq!(view.mode, Mode::Embed);
    let query = full_page_query(&inputs, &view, &[]);
    assert!(!query.contains("embed"), "{query}");
    let (again, page_view, _) = from_page_query(&query);
    assert_eq!(again, inputs);
    assert_eq!(page_view, View { mode: Mode::Page, ..view });
}

#[test]
fn the_iframe_snippet_escapes_its_url_and_title() {
    let code = iframe_snippet("https://x.test/?a=1&embed=1\"><b", "A \"B\" <C>", EmbedSize::Medium);
    assert_eq!(
        code,
        "<iframe src=\"https://x.test/?a=1&amp;embed=1&quot;&gt;&lt;b\" width=\"600\" height=\"400\" \
         title=\"Goodput Lab: A &quot;B&quot; &lt;C&gt;\" loading=\"lazy\" style=\"border:0\"></iframe>"
    );
}

#[test]
fn every_embed_size_is_distinct_and_fits_a_phone_or_a_page() {
    let sizes: Vec<(u32, u32)> = EmbedSize::ALL.iter().map(|s| s.pixels()).collect();
    for (i, a) in sizes.iter().enumerate() {
        assert!((360..=800).contains(&a.0) && (400..=500).contains(&a.1), "{a:?}");
        assert!(sizes[i + 1..].iter().all(|b| b != a));
    }
}

#[test]
fn links_and_embeds_keep_the_measured_points() {
    let query = "model=llama-3.1-8b&measured=1:7.9,16:8.2,64:11.5";
    let (inputs, view, mut notices) = from_page_query(query);
    let points = measured::read(&parse_raw(query), &mut notices);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(points.len(), 3);
    let queries = [
        link_query(&inputs, &view, &points),
        full_page_query(&inputs, &view, &points),
        embed_query(&inputs, &view, &points, Panel::Step),
    ];
    for q in queries {
        let mut n = Vec::new();
        assert_eq!(measured::read(&parse_raw(&q), &mut n), points, "{q}");
        assert!(n.is_empty(), "{n:?}");
    }
}

#[test]
fn read_link_reads_back_what_link_query_wrote_and_names_what_it_could_not_read() {
    let query = "model=qwen3-8b&ctx=8192&kv=fp8&theme=dark&mark=32&measured=1:7.9,16:8.2,64:11.5";
    let first = read_link(query);
    assert!(first.notices.is_empty(), "{:?}", first.notices);
    assert_eq!(first.inputs.scenario.context_tokens, 8192);
    assert_eq!(first.view.theme, Theme::Dark);
    assert_eq!(first.view.mark_batch, Some(32));
    assert_eq!(first.measured.len(), 3);
    let again = read_link(&link_query(&first.inputs, &first.view, &first.measured));
    assert_eq!(again, first);
    let bad = read_link("ctx=abc&measured=1:x");
    assert_eq!(bad.inputs.scenario.context_tokens, Inputs::default().scenario.context_tokens);
    assert!(bad.measured.is_empty());
    assert_eq!(bad.notices.len(), 2, "{:?}", bad.notices);
}
