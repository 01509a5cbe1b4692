//! Batched strokes: one path per run of same-coloured, same-width lines, with pixel coordinates written
//! as SVG path data.

use goodput_lab::chart::path_batch::{push_number, PathBatch};

#[test]
fn whole_and_half_pixels_print_as_svg_numbers() {
    let mut out = String::new();
    for v in [3.0, -0.5, 10.5, -7.0, -12.5, 0.25] {
        push_number(&mut out, v);
        out.push(',');
    }
    assert_eq!(out, "3,-0.5,10.5,-7,-12.5,0.25,");
}

#[test]
fn only_strokes_of_the_same_colour_and_width_share_a_path() {
    let grey = ((9, 9, 9), 0.4, 1);
    let mut batch = PathBatch::default();
    assert!(batch.accepts(grey));
    batch.add(grey, [(0.5, 1.0), (4.5, 1.0)]);
    batch.add(grey, [(0.0, 2.0), (1.0, 3.0), (2.0, 2.0)]);
    assert!(!batch.accepts(((9, 9, 9), 0.4, 2)));
    assert_eq!(batch.take(), Some((grey, "M0.5 1L4.5 1M0 2L1 3L2 2".to_string())));
    assert_eq!(batch.take(), None);
}
