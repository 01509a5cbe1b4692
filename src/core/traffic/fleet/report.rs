//! A fleet run summarized: hit tokens per tier, TTFT and TPOT percentiles, attainment, the cache's
//! and the link's traffic, and every request's outcome.

use super::replica::{Job, Replica, Shared};
use super::{FleetReport, FleetRequest};
use crate::sim::percentiles;

/// TPOT of a served job: (last token - first token) / (output - 1); 0 for a one-token answer,
/// infinite when never served.
fn tpot_s(job: &Job) -> f64 {
    if job.refused || !job.ttft_s.is_finite() || !job.finish_s.is_finite() {
        return f64::INFINITY;
    }
    if job.output_tokens <= 1 {
        return 0.0;
    }
    (job.finish_s - job.arrival_s - job.ttft_s) / f64::from(job.output_tokens - 1)
}

fn served(job: &Job) -> bool {
    !job.refused && job.finish_s.is_finite() && job.ttft_s.is_finite()
}

/// The report and the per-request outcomes of a finished run.
pub(super) fn summarize(s: &Shared, replicas: &[Replica]) -> (FleetReport, Vec<FleetRequest>) {
    let requests: Vec<FleetRequest> = s.jobs.iter().map(request).collect();
    let ttfts: Vec<f64> = requests.iter().map(|r| r.ttft_s).collect();
    let tpots: Vec<f64> = requests.iter().map(|r| r.tpot_s).collect();
    let (ttft_target_s, tpot_target_s) = (s.config.ttft_target_s, s.config.tpot_target_s);
    let met = requests.iter().filter(|r| r.ttft_s <= ttft_target_s && r.tpot_s <= tpot_target_s).count();
    let mut report = FleetReport {
        requests: s.jobs.len() as u32,
        served: s.jobs.iter().filter(|j| served(j)).count() as u32,
        refused: s.jobs.iter().filter(|j| j.refused).count() as u32,
        ttft: percentiles(&ttfts),
        tpot: percentiles(&tpots),
        attainment: if requests.is_empty() { 0.0 } else { met as f64 / requests.len() as f64 },
        per_replica_requests: replicas.iter().map(|r| r.routed).collect(),
        steps: replicas.iter().map(|r| r.step).sum(),
        preemptions: replicas.iter().map(|r| r.preemptions).sum(),
        ..FleetReport::default()
    };
    for job in s.jobs.iter().filter(|j| served(j)) {
        report.prompt_tokens += u64::from(job.prompt_tokens);
        report.gpu_hit_tokens += u64::from(job.gpu_hit_tokens);
        report.cpu_hit_tokens += u64::from(job.cpu_hit_tokens);
    }
    for r in replicas {
        report.duration_s = report.duration_s.max(r.clock_s);
        report.evicted_blocks += r.cache.evicted_blocks;
        report.offloaded_blocks += r.cache.offloaded_blocks;
        report.transferred_blocks += r.transferred_blocks;
        report.transfer_s_total += r.transfer_s_total;
    }
    report.offloaded_bytes = report.offloaded_blocks as f64 * s.server.block_bytes;
    (report, requests)
}

fn request(job: &Job) -> FleetRequest {
    FleetRequest {
        arrival_s: job.arrival_s,
        prompt_tokens: job.prompt_tokens,
        output_tokens: job.output_tokens,
        session: job.session,
        turn: job.turn,
        replica: job.replica,
        ttft_s: if served(job) { job.ttft_s } else { f64::INFINITY },
        tpot_s: tpot_s(job),
        finish_s: job.finish_s,
        gpu_hit_tokens: job.gpu_hit_tokens,
        cpu_hit_tokens: job.cpu_hit_tokens,
        refused: job.refused,
    }
}
