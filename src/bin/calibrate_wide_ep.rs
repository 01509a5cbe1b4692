//! explore
use goodput_lab::core::calibration::wide_ep::fit::{fit, split};
use goodput_lab::core::calibration::wide_ep::report::{before_after, check};
use goodput_lab::wide_ep_data::{read, CSV};
fn main() {
    let rows = read(CSV).unwrap();
    let all: Vec<_> = rows.iter().collect();
    let f_all = fit(&all);
    let f_tr = fit(&split(&rows, true));
    println!("all {:?}\ntrain {:?}", f_all, f_tr);
    let test = split(&rows, false);
    let c = check(&test, &f_tr.profile);
    for k in &c {
        println!(
            "{} {} {:8} {:?} {:16} b={:.0} m={:.2} before={:+.3} after={:+.3}",
            k.row.id,
            k.row.date,
            k.row.gpu_id,
            k.row.engine,
            k.row.decode_parallel.label(),
            k.row.decode_batch(),
            k.row.tpot_s * 1e3,
            k.before,
            k.after
        );
    }
    println!("test all {:?}", before_after(&c, |_| true));
    println!("test a2a {:?}", before_after(&c, |k| k.row.crosses_nic().is_some()));
    let ctr = check(&split(&rows, true), &f_tr.profile);
    println!("train all {:?}", before_after(&ctr, |_| true));
    println!("train a2a {:?}", before_after(&ctr, |k| k.row.crosses_nic().is_some()));
}
