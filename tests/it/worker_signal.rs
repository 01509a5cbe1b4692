//! A worker's signals to the page's pool (`ready`, `answered <memory> <start memory>`): each reads
//! back as itself, any other string is not a signal, and only an answer with grown memory asks for
//! a fresh worker.

use goodput_lab::protocol::codec::{WorkerSignal, READY};

#[test]
fn every_signal_reads_back_as_itself() {
    let signals = [
        WorkerSignal::Ready,
        WorkerSignal::Answered { memory_bytes: 0, start_memory_bytes: 0 },
        WorkerSignal::Answered { memory_bytes: 6_750_208, start_memory_bytes: 1_441_792 },
        WorkerSignal::Answered { memory_bytes: u64::MAX, start_memory_bytes: 65_536 },
    ];
    for signal in signals {
        assert_eq!(WorkerSignal::parse(&signal.to_text()), Some(signal), "{}", signal.to_text());
    }
}

#[test]
fn ready_keeps_the_text_workers_started_ahead_wait_for() {
    assert_eq!(WorkerSignal::Ready.to_text(), READY);
    assert_eq!(WorkerSignal::parse("ready"), Some(WorkerSignal::Ready));
}

#[test]
fn strings_that_are_not_a_signal_are_refused() {
    for text in [
        "",
        "Ready",
        "ready ",
        "answered",
        "answered ",
        "answered 5",
        "answered 5 ",
        "answered 5 4 3",
        "answered -5 4",
        "answered 5.0 4",
        "answered five 4",
        " answered 5 4",
        "answered  5 4",
    ] {
        assert_eq!(WorkerSignal::parse(text), None, "{text:?}");
    }
}

#[test]
fn only_an_answer_whose_memory_grew_asks_for_a_fresh_worker() {
    let answered =
        |memory_bytes, start_memory_bytes| WorkerSignal::Answered { memory_bytes, start_memory_bytes };
    assert!(answered(1_507_328, 1_441_792).grew());
    assert!(!answered(1_441_792, 1_441_792).grew());
    assert!(!answered(0, 1_441_792).grew());
    assert!(!WorkerSignal::Ready.grew());
}
