//! The `damiera` binary: parses the command line and dispatches to a subcommand.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;
use damiera::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let text = e.to_string();
            let line = text.lines().next().unwrap_or("bad arguments");
            eprintln!("{}", line.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = match cli.command {
        Some(Command::Perft(args)) => damiera::cli::perft::run(&args, &mut out),
        Some(Command::Moves(args)) => damiera::cli::moves::run(&args, &mut out),
        Some(Command::Bench(args)) => damiera::cli::bench::run(&args, &mut out),
        Some(Command::Play(args)) => {
            damiera::cli::play::run(&args, std::io::stdin().lock(), &mut out)
        }
        None => Ok(()),
    };
    let _ = out.flush();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
