//! The `damiera` binary: parses the command line and dispatches to a subcommand.

use std::io::{StdoutLock, Write};
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;
use damiera::cli::{self, Cli, CliError, Tool};

fn main() -> ExitCode {
    damiera::memory::give_big_blocks_back();
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
    let eval = match cli::load_eval_file(cli.command.as_ref().and_then(Tool::eval_file)) {
        Ok(eval) => eval,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match cli.command {
        None | Some(Tool::Hub) => exit_code(damiera::hub::session::run_stdio()),
        Some(Tool::Match(args)) => cli::matchcmd::main(&args),
        Some(Tool::Analyse(args)) => tool_exit(|out| cli::analyse::run(&args, &eval, out)),
        Some(Tool::Egdb(args)) => tool_exit(|out| cli::egdb::run(&args, out)),
        Some(Tool::Tune(args)) => tool_exit(|out| cli::tune::run(&args, out)),
        Some(Tool::Gui(args)) => tool_exit(|out| cli::gui::run(&args, out)),
        Some(Tool::Selfplay(args)) => tool_exit(|out| cli::selfplay::run(&args, &eval, out)),
        Some(Tool::Train(args)) => tool_exit(|out| cli::train::run(&args, out)),
        Some(Tool::Perft(args)) => write_exit(|out| cli::perft::run(&args, out)),
        Some(Tool::Moves(args)) => write_exit(|out| cli::moves::run(&args, out)),
        Some(Tool::Bench(args)) => write_exit(|out| cli::bench::run(&args, &eval, out)),
        Some(Tool::Play(args)) => {
            write_exit(|out| cli::play::run(&args, &eval, std::io::stdin().lock(), out))
        }
    }
}

/// Runs a tool whose errors are one line for the user (exit status 2).
fn tool_exit(run: impl FnOnce(&mut StdoutLock) -> Result<(), CliError>) -> ExitCode {
    let stdout = std::io::stdout();
    match run(&mut stdout.lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

/// Runs a command that only writes to stdout.
fn write_exit(run: impl FnOnce(&mut StdoutLock) -> std::io::Result<()>) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = run(&mut out);
    let _ = out.flush();
    exit_code(result)
}

/// Success, also when the reader closed our output early; otherwise a one-line error.
fn exit_code(result: std::io::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
