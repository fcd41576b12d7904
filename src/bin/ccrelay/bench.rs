//! `ccrelay bench`: the load benchmark, in-process or against a daemon of its own, or a large
//! journal written to restart on (docs/performance.md), with a progress line.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::progress::{progress_bar, with_progress};

/// `ccrelay bench --fill DIR`: a configuration and a journal of `games` games of `plies`
/// random legal moves each, to restart on.
pub(crate) fn fill_command(
    games: usize,
    games_per_player: u32,
    plies: usize,
    dir: PathBuf,
) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Runtime::new().context("starting the runtime")?;
    let moves_done = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let options = ccrelay::bench::fill::FillOptions {
        games,
        games_per_player: games_per_player as usize,
        plies,
        dir,
        moves_done: moves_done.clone(),
    };
    let bar = progress_bar(Some((games * plies) as u64), "moves");
    let report = runtime.block_on(with_progress(
        &bar,
        moves_done,
        ccrelay::bench::fill::fill(options),
    ));
    bar.finish_and_clear();
    println!("{}", report.map_err(anyhow::Error::msg)?);
    Ok(ExitCode::SUCCESS)
}

/// `ccrelay bench`: `games` games played at `rate` moves a second, against a relay in this
/// process or the daemon at `connect`.
pub(crate) fn bench_command(
    games: usize,
    games_per_player: u32,
    plies: usize,
    rate: f64,
    data_dir: Option<PathBuf>,
    connect: Option<std::net::SocketAddr>,
) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Runtime::new().context("starting the runtime")?;
    let moves_done = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let options = ccrelay::bench::BenchOptions {
        games,
        games_per_player: games_per_player as usize,
        plies,
        rate,
        data_dir,
        moves_done: moves_done.clone(),
    };
    let bar = progress_bar(Some((games * plies) as u64), "moves");
    let report = runtime.block_on(async {
        match connect {
            Some(addr) => {
                let run = ccrelay::bench::run_against(addr, options);
                with_progress(&bar, moves_done, run).await
            }
            None => with_progress(&bar, moves_done, ccrelay::bench::run(options)).await,
        }
    });
    bar.finish_and_clear();
    println!("{}", report.map_err(anyhow::Error::msg)?);
    Ok(ExitCode::SUCCESS)
}
