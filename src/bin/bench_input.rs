//! `bench_input sim|search "<query>"`: what the workers' benchmark exports (`bench_simulate`,
//! `bench_sweep`, `bench_search`) take for a page URL's query: the validated `SimPlan` or
//! `SearchSpec` as postcard bytes, printed as comma-separated decimals for `bench/browser` to pass
//! in. The URL parser stays out of the workers' wasm: it runs here, natively.

use goodput_lab::protocol::codec::to_bytes;

fn main() {
    let mut args = std::env::args().skip(1);
    let (kind, query) = (args.next().unwrap_or_default(), args.next().unwrap_or_default());
    let (inputs, notices) = goodput_lab::state::from_query(&query);
    for n in notices {
        eprintln!("{}", n.message);
    }
    let bytes = match kind.as_str() {
        "sim" => to_bytes(&inputs.sim_plan()),
        "search" => to_bytes(&inputs.search_spec()),
        _ => {
            eprintln!("usage: bench_input sim|search \"<query>\"");
            std::process::exit(2);
        }
    };
    let text: Vec<String> = bytes.iter().map(u8::to_string).collect();
    println!("{}", text.join(","));
}
